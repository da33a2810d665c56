package repair

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// What the loss of one page would cost. Check, on a file it finds sound,
// says for each page that others need (the list of tables, the file's
// own records and catalogue, the dictionaries' pages, the tables'
// branches) what losing it would cost Recover, and that any other page
// is a leaf of a table's whose loss costs only its own entities.

// PageCost is what losing any one of some pages would cost.
type PageCost struct {
	Pages []uint64 // the pages, in order
	Table string   // the table they belong to, or ""
	Holds string   // what they hold
	// Costs says what losing one of them costs Recover; Entities is how
	// many entities that is (their data, or their properties' names), 0
	// when it costs none.
	Costs    string
	Entities int64
}

// String renders the cost on one line: "page 3 (the list of tables): no
// entity; …", or "any other page (…): …" for the pages it does not name.
func (c PageCost) String() string {
	if len(c.Pages) == 0 {
		return fmt.Sprintf("any other page (%s): %s", c.Holds, c.Costs)
	}
	return fmt.Sprintf("%s (%s): %s", pageList(c.Pages), c.Holds, c.Costs)
}

// tableTally is what the check of one table's entities counts for the
// costs: the entities naming each shape, and its fullest leaf.
type tableTally struct {
	byShape  map[uint64]int64
	leafPage uint64
	leafMax  int64
	cur      uint64 // the leaf being counted
	curN     int64
}

// count takes one entity on page.
func (tt *tableTally) count(page uint64, val []byte, values2 bool) {
	if page != tt.cur {
		tt.cur, tt.curN = page, 0
	}
	if tt.curN++; tt.curN > tt.leafMax {
		tt.leafPage, tt.leafMax = page, tt.curN
	}
	if values2 {
		if _, id, _, err := values.Head2(val); err == nil && id != 0 {
			tt.byShape[id]++
		}
	}
}

// pagesCost says what losing each page the file's entities need would
// cost: the pages of the list of tables, of the file's own records, of
// the tables' dictionaries and the tables' branches.
func (w *walker) pagesCost(sv *survey, tallies map[string]*tableTally) []PageCost {
	var out []PageCost
	copied, namesCopied := w.copiedShapes(), w.namesCopied(sv)
	names := "no entity, and no table's name as created: the header's copy holds them"
	if !namesCopied {
		names = "no entity, but the tables' names as created (they go by their lower-case names)"
	}
	listPages, top := w.treePages(w.meta().Root)
	out = append(out, PageCost{Pages: listPages, Holds: "the list of tables", Costs: names + "; recover finds the tables' pages without it"})
	for _, e := range top {
		root, _, _, err := boltfile.InlinePage(e.Value)
		if err != nil || !e.Bucket {
			continue
		}
		switch {
		case bytes.Equal(e.Key, values.MetaBucket):
			if root != 0 {
				pages, inner := w.treePages(root)
				out = append(out, PageCost{Pages: pages, Holds: "the file's own records", Costs: names})
				for _, c := range inner {
					if r, _, _, err := boltfile.InlinePage(c.Value); err == nil && c.Bucket && r != 0 && bytes.Equal(c.Key, values.CatalogueKey) {
						pages, _ := w.treePages(r)
						out = append(out, PageCost{Pages: pages, Holds: "the catalogue of tables", Costs: names})
					}
				}
			}
		case bytes.Equal(e.Key, values.ShapesBucket):
			out = append(out, w.dictionaryCosts(sv, root, copied, tallies)...)
		}
	}
	for _, t := range sv.tables {
		if t.root == 0 {
			continue
		}
		branches := w.branchPages(t.root)
		if len(branches) == 0 {
			continue
		}
		c := PageCost{Pages: branches, Table: t.name, Holds: "the branches of table " + t.name, Costs: "no entity: recover finds the table's leaves without them"}
		if len(branches) == 1 {
			c.Holds = "the branch of table " + t.name
		}
		if others := sv.readersToo(t); len(others) > 0 {
			c.Costs = fmt.Sprintf("no entity, but the dictionary of %s reads the table's entities too (shapes are numbered in each table), so recover may save some of them in LostAndFound", strings.Join(others, " and "))
		}
		out = append(out, c)
	}
	leaf := PageCost{Holds: "a leaf of a table's, or its overflow", Costs: "its own entities only"}
	for _, t := range sv.tables {
		if tt := tallies[t.name]; tt != nil && tt.leafMax > leaf.Entities {
			leaf.Entities = tt.leafMax
			leaf.Costs = fmt.Sprintf("its own entities only, at most %d (page %d, table %s)", tt.leafMax, tt.leafPage, t.name)
		}
	}
	return append(out, leaf)
}

// dictionaryCosts is what losing each page of the bucket of dictionaries
// costs: the names of the entities that name a shape on it and in no
// copy in the header.
func (w *walker) dictionaryCosts(sv *survey, root uint64, copied map[[2]uint64]bool, tallies map[string]*tableTally) []PageCost {
	onPage := map[uint64][][2]uint64{}
	var pages []uint64
	visit := func(page uint64, e boltfile.Elem) bool {
		if !e.Bucket && len(e.Key) == 12 {
			if _, ok := onPage[page]; !ok {
				pages = append(pages, page)
			}
			inc, id := values.IncarnationOf(e.Key)
			onPage[page] = append(onPage[page], [2]uint64{inc, id})
		}
		return true
	}
	if root == 0 {
		return nil // inline, on the page of the list of tables (tstable keeps it on pages of its own: values.ShapesPin)
	}
	w.Quiet(true)
	w.Tree(root, nil, 0, nil, nil, visit, func(uint64, []byte, []byte, string) {})
	w.Quiet(false)
	var out []PageCost
	var covered []uint64
	for _, p := range pages {
		lost := map[string][]uint64{}
		for _, s := range onPage[p] {
			if !copied[s] {
				if t := sv.tableOf(s[0]); t != "" {
					lost[t] = append(lost[t], s[1])
				}
			}
		}
		if len(lost) == 0 {
			covered = append(covered, p)
			continue
		}
		for _, t := range slices.Sorted(maps.Keys(lost)) {
			ids := lost[t]
			var n int64
			for _, id := range ids {
				n += tallies[t].byShape[id]
			}
			where := ", past the header's spare room"
			switch {
			case sv.format < 3:
				where = fmt.Sprintf("; format %d keeps none in the header, and tstable compact rewrites the file in format 3, which does", sv.format)
			case len(w.copies) == 0:
				where = "; neither page of the header holds a copy, and the next write puts one there"
			}
			out = append(out, PageCost{Pages: []uint64{p}, Table: t, Holds: fmt.Sprintf("the only copy of %s of table %s's dictionary%s", shapeRange(ids), t, where), Costs: fmt.Sprintf("the names of %s", countOf(n, "entity")), Entities: n})
		}
	}
	if len(covered) > 0 {
		out = append([]PageCost{{Pages: covered, Holds: "the tables' dictionaries", Costs: "no entity: the header's copy holds every shape on them"}}, out...)
	}
	return out
}

// shapeRange names shape numbers: "shape 4", "shapes 4 to 9".
func shapeRange(ids []uint64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("shape %d", ids[0])
	}
	return fmt.Sprintf("shapes %d to %d", slices.Min(ids), slices.Max(ids))
}

// countOf is a count with its noun: "1 entity", "3 entities".
func countOf(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %s", n, strings.TrimSuffix(noun, "y")+"ies")
}

// copiedShapes is the shapes the copies in the header hold.
func (w *walker) copiedShapes() map[[2]uint64]bool {
	out := map[[2]uint64]bool{}
	for _, c := range w.copies {
		for _, s := range c.Shapes {
			out[[2]uint64{s.Inc, s.ID}] = true
		}
	}
	return out
}

// namesCopied reports whether a copy in the header holds the name as
// created of every table.
func (w *walker) namesCopied(sv *survey) bool {
	for _, t := range sv.tables {
		if !slices.ContainsFunc(w.copies, func(c dictcopy.Copy) bool {
			return slices.ContainsFunc(c.Tables, func(ct dictcopy.Table) bool { return ct.Name == t.name })
		}) {
			return false
		}
	}
	return true
}

// tableOf is the name of the table of incarnation inc, or "".
func (sv *survey) tableOf(inc uint64) string {
	for _, t := range sv.tables {
		if t.inc == inc {
			return t.name
		}
	}
	return ""
}

// readersToo names the other tables whose dictionary has, at a number t's
// has, a shape of the same types: an entity of t would decode with it.
func (sv *survey) readersToo(t fileTable) []string {
	mine := sv.shapes[t.inc]
	if mine == nil {
		return nil
	}
	var out []string
	for _, u := range sv.tables {
		theirs := sv.shapes[u.inc]
		if u.inc == t.inc || theirs == nil {
			continue
		}
		for i, s := range mine.List {
			if i < len(theirs.List) && slices.Equal(s.Types, theirs.List[i].Types) {
				out = append(out, u.name)
				break
			}
		}
	}
	return out
}

// treePages lists the pages of the tree at root (branches and leaves,
// without reading the leaves' overflow), and the entries of its leaves.
func (w *walker) treePages(root uint64) ([]uint64, []entry) {
	var pages []uint64
	var leaves []entry
	w.walkTree(root, func(id uint64, branch bool, es []boltfile.Elem) {
		pages = append(pages, id)
		if !branch {
			for _, e := range es {
				leaves = append(leaves, entry{boltfile.Elem{Key: bytes.Clone(e.Key), Value: bytes.Clone(e.Value), Bucket: e.Bucket}, id})
			}
		}
	})
	slices.Sort(pages)
	return pages, leaves
}

// branchPages lists the branch pages of the tree at root, in order.
func (w *walker) branchPages(root uint64) []uint64 {
	var out []uint64
	w.walkTree(root, func(id uint64, branch bool, _ []boltfile.Elem) {
		if branch {
			out = append(out, id)
		}
	})
	slices.Sort(out)
	return out
}

// walkTree calls visit once for each page of the tree at root that reads
// as a branch or a leaf, with its entries (none when they do not parse),
// a page before those it leads to. It follows no page twice and goes no
// deeper than boltfile.MaxTreeDepth, so a damaged branch that leads back
// up ends the way there.
func (w *walker) walkTree(root uint64, visit func(id uint64, branch bool, es []boltfile.Elem)) {
	seen := map[uint64]bool{}
	var walk func(id uint64, depth int)
	walk = func(id uint64, depth int) {
		if depth > boltfile.MaxTreeDepth || seen[id] {
			return
		}
		h, b, err := w.R.Page(id, boltfile.FlagLeaf, boltfile.FlagBranch)
		if err != nil {
			return
		}
		seen[id] = true
		es, _ := boltfile.ParseElems(h, b)
		branch := h.Flags == boltfile.FlagBranch
		visit(id, branch, es)
		if branch {
			for _, e := range es {
				walk(e.Child, depth+1)
			}
		}
	}
	walk(root, 0)
}
