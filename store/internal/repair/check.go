package repair

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// Problem is one thing wrong in a database file.
type Problem struct {
	// Table is the table it concerns, as created (lower-cased when the
	// catalogue does not have it), or "" for the file's own records: its
	// header, its list of free pages, the list of tables.
	Table string
	// Keys is the range of the table's keys it concerns, or nil.
	Keys *ProblemKeys
	// Page is the page it concerns, or -1.
	Page int64
	// What says what is wrong.
	What string
	// Lost tells that data cannot be read because of it: entities, or
	// tables, or the names of tables. Other problems are in the file's
	// bookkeeping, which Recover leaves behind.
	Lost bool
}

// String renders the problem on one line: "table People, keys from
// ("Sales", "0001") up to ("Sales", "0042"), page 37: what".
func (p Problem) String() string {
	var where []string
	if p.Table != "" {
		where = append(where, "table "+p.Table)
	}
	if p.Keys != nil {
		where = append(where, p.Keys.String())
	}
	if p.Page >= 0 {
		where = append(where, fmt.Sprintf("page %d", p.Page))
	}
	if len(where) == 0 {
		return p.What
	}
	return strings.Join(where, ", ") + ": " + p.What
}

// ProblemKeys is the run of a table's keys a problem concerns: from First
// (inclusive) up to Next (exclusive), or, when Last is set, to Last
// (inclusive). A nil First is the table's start, a nil Next (and Last) its
// end; Next equal to First is that one key. (A query's ranges are
// odata.KeyRange; these are keys found in a file, said to people.)
type ProblemKeys struct {
	First, Next *odata.Key
	Last        *odata.Key
}

// String renders the range: `key ("p", "r")`, `keys from ("p", "a") up to
// ("p", "m")`, `keys from ("p", "a") to ("p", "k")` (Last), `keys from the
// start up to …`, `keys from … to the end`, or "all keys".
func (r ProblemKeys) String() string {
	k := func(k *odata.Key) string { return fmt.Sprintf("(%q, %q)", k.PartitionKey, k.RowKey) }
	switch {
	case r.First != nil && r.Next != nil && *r.First == *r.Next:
		return "key " + k(r.First)
	case r.Last != nil && r.First != nil:
		return "keys from " + k(r.First) + " to " + k(r.Last)
	case r.First == nil && r.Next == nil:
		return "all keys"
	case r.First == nil:
		return "keys from the start up to " + k(r.Next)
	case r.Next == nil:
		return "keys from " + k(r.First) + " to the end"
	}
	return "keys from " + k(r.First) + " up to " + k(r.Next)
}

// keyOf turns a stored key of the file into a Key.
func (w *walker) keyOf(k []byte) *odata.Key {
	if k == nil {
		return nil
	}
	key := w.l.ODataKey(k)
	return &key
}

func (w *walker) keysBetween(lo, hi []byte) *ProblemKeys {
	return &ProblemKeys{First: w.keyOf(lo), Next: w.keyOf(hi)}
}

func (w *walker) oneKey(k []byte) *ProblemKeys {
	kk := w.keyOf(k)
	return &ProblemKeys{First: kk, Next: kk}
}

// entityKeys is the one key of e.
func entityKeys(e *odata.Entity) *ProblemKeys {
	k := &odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	return &ProblemKeys{First: k, Next: k}
}

// CheckReport is what Check found.
type CheckReport struct {
	Path     string
	PageSize int    // bytes per page (0 when the header is unreadable)
	Pages    int64  // pages the header counts
	Format   uint64 // the file's format (see values.FormatVersion), as its records say or its tables show; 0 when they cannot
	Tables   []TableReport
	Problems []Problem
	// Costs says, for a file found sound, what losing each page that
	// others need would cost (see PageCost); the last one is any other
	// page, a leaf of a table's.
	Costs []PageCost
	// Unfinished lists the rows of imports that did not finish, still in
	// the file and never in their table: no problem (the next open for
	// writing removes them), but room the file holds.
	Unfinished []UnfinishedImport
}

// TableReport is one table as Check read it.
type TableReport struct {
	Name     string
	Entities int64 // entities read and found sound
}

// OK reports whether Check found nothing wrong.
func (r *CheckReport) OK() bool { return len(r.Problems) == 0 }

// Check reads the whole database file f (of size bytes, at path; the
// caller opened it, and holds a lock that keeps writers out) without
// trusting it and reports every problem, each with its table, key range
// and page: both copies of the header; the file's length; the list of
// free pages; every page reached exactly once and none both reached and
// free; every page below the high-water mark either reached or free;
// every page of every tree readable, of the right kind, with its entries
// inside it and its keys in order within their parents' bounds; the
// catalogue agreeing with the tables' buckets; and every entity decoding
// and passing the service's rules, with a Timestamp no later than the
// file's clock. It calls progress (when set) now and then with the pages
// read and the pages to read.
//
// Check never writes. It fails (with an error, not a report) only when
// ctx ends.
func Check(ctx context.Context, f io.ReaderAt, size int64, path string, progress func(done, total int64)) (*CheckReport, error) {
	w := newWalker(ctx, f, size, progress)
	rep := &CheckReport{Path: path}
	if w.H.Use >= 0 {
		rep.PageSize, rep.Pages = int(w.H.PageSize), int64(w.meta().Pgid)
		sv := w.survey()
		rep.Unfinished = sv.unfinished
		if sv.formatRead {
			rep.Format = sv.format
		}
		tallies := map[string]*tableTally{}
		for _, t := range sv.tables {
			if t.missing {
				continue
			}
			w.table = t.name
			c := sv.codec(t)
			tally := &tableTally{byShape: map[uint64]int64{}}
			tallies[t.name] = tally
			var count int64
			whole := w.Tree(t.root, t.inline, t.at, nil, nil, func(page uint64, e boltfile.Elem) bool {
				if e.Bucket {
					w.problem(Problem{Page: int64(page), Keys: w.oneKey(e.Key), What: "the table holds a nested bucket, which tstable never writes", Lost: true})
					return true
				}
				if what, lost := checkEntity(c, e.Key, e.Value, sv.clock); what != "" {
					w.problem(Problem{Page: int64(page), Keys: w.oneKey(e.Key), What: what, Lost: lost})
					if lost {
						return true
					}
				}
				count++
				tally.count(page, e.Value, c.Values2())
				return true
			}, w.lostEntities)
			if !whole {
				return nil, ctx.Err()
			}
			rep.Tables = append(rep.Tables, TableReport{Name: t.name, Entities: count})
		}
		w.table = ""
		for _, r := range w.Unreached() {
			what := fmt.Sprintf("pages %d to %d are neither in use nor on the list of free pages", r[0], r[1])
			if r[0] == r[1] {
				what = "the page is neither in use nor on the list of free pages"
			}
			w.problem(Problem{Page: int64(r[0]), What: what})
		}
		if len(w.problems) == 0 {
			rep.Costs = w.pagesCost(sv, tallies)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if progress != nil {
		progress(w.Total(), w.Total())
	}
	rep.Problems = w.problems
	return rep, nil
}

// lostEntities records a part of a table that cannot be read.
func (w *walker) lostEntities(page uint64, lo, hi []byte, why string) {
	w.problem(Problem{Page: int64(page), Keys: w.keysBetween(lo, hi), What: why + "; the entities there cannot be read", Lost: true})
}

// checkEntity checks one stored entity of a table whose codec is c: its
// keys, its encoding and the service's rules (a problem that loses it),
// and its Timestamp against the clock (one that does not).
func checkEntity(c *values.Codec, key, val []byte, clock int64) (what string, lost bool) {
	if bytes.IndexByte(key, 0) < 0 {
		return "the stored key has no RowKey part", true
	}
	pk, rk := c.L.Keys(key)
	if err := odata.ValidateKey(odata.PartitionKey, pk); err != nil {
		return "the stored PartitionKey breaks the service's rules: " + MessageOf(err), true
	}
	if err := odata.ValidateKey(odata.RowKey, rk); err != nil {
		return "the stored RowKey breaks the service's rules: " + MessageOf(err), true
	}
	e, err := c.Decode(key, val)
	if err != nil {
		return "the stored entity cannot be decoded" + c.Why(val), true
	}
	if err := odata.ValidateEntity(e); err != nil {
		return "the stored entity breaks the service's rules: " + MessageOf(err), true
	}
	if t, _ := c.Ticks(val); clock >= 0 && t > clock {
		return "its Timestamp is later than the file's clock, so a later write could repeat an ETag", false
	}
	return "", false
}

// MessageOf is an error's message without its code.
func MessageOf(err error) string {
	if e, ok := err.(*odata.Error); ok {
		return e.Message
	}
	return err.Error()
}

// fileTable is a table's bucket as the file holds it.
type fileTable struct {
	name   string // as created; the bucket's lower-cased name when the catalogue lacks it
	root   uint64
	inline []byte // its page, when root is 0
	at     uint64 // the page holding its bucket entry
	inc    uint64 // its incarnation (format 2), which names its dictionary
	// missing: the table is known only from the previous copy of the
	// header; its tree is lost, and gapAt is its problem's index.
	missing bool
	gapAt   int
}

// survey is what the file's own records say: its tables, its clock, its
// format and the tables' dictionaries.
type survey struct {
	tables     []fileTable
	clock      int64 // the last Timestamp issued, -1 when unknown
	rootLost   bool  // part of the newest list of tables cannot be read
	unfinished []UnfinishedImport
	format     uint64                      // 1 when the file does not say
	formatRead bool                        // the file says
	shapes     map[uint64]*values.ShapeSet // the dictionaries read, by incarnation
	staged     []uint64                    // the incarnations of staged tables
}

// codec is how table t's entities read, in the file's format and with
// its dictionary as far as it could be read.
func (sv *survey) codec(t fileTable) *values.Codec {
	c := &values.Codec{L: values.Layout(sv.format)}
	if c.Values2() {
		s := sv.shapes[t.inc]
		if s == nil {
			s = values.EmptyShapes
		}
		c.Shapes = values.StaticShapes(t.inc, s)
	}
	return c
}

// entry is a copied leaf entry with its page.
type entry struct {
	boltfile.Elem
	page uint64
}

// collect walks a small tree (of the file's own records) into entries.
func (w *walker) collect(root uint64, inline []byte, at uint64, lost boltfile.LostFn) []entry {
	var out []entry
	w.Tree(root, inline, at, nil, nil, func(page uint64, e boltfile.Elem) bool {
		out = append(out, entry{boltfile.Elem{Key: bytes.Clone(e.Key), Value: bytes.Clone(e.Value), Bucket: e.Bucket}, page})
		return true
	}, lost)
	return out
}

// survey reads the top-level buckets, the catalogue and the clock, and
// reports what is wrong with them. When part of the list of tables cannot
// be read, the previous copy of the header (one transaction older) may
// still lead to it: the tables listed there and not found now are taken
// as tables whose whole tree is lost (their entities may still be on
// pages no longer linked).
func (w *walker) survey() *survey {
	sv := &survey{clock: -1, format: 1, shapes: map[uint64]*values.ShapeSet{}}
	w.table = ""
	top := w.collect(w.meta().Root, nil, 0, func(page uint64, lo, hi []byte, why string) {
		sv.rootLost = true
		w.problem(Problem{Page: int64(page), What: why + "; the tables listed there (and the catalogue, if it was there) cannot be found", Lost: true})
	})
	catalogue := map[string]string{}
	sawMeta, sawCatalogue := w.readTop(top, sv, catalogue, true)
	w.orphanDictionaries(sv)
	if sv.rootLost {
		w.olderTables(sv, catalogue)
		w.tablesFromCopies(sv)
	} else if !sawMeta {
		w.problem(Problem{Page: int64(w.meta().Root), What: "the file's own records (catalogue and clock) are missing: the tables' names as created are lost", Lost: true})
	}
	w.dictionariesFromCopies(sv)
	w.namesFromCopies(catalogue)
	sv.guessFormat()
	w.l = values.Layout(sv.format)
	for i, t := range sv.tables {
		if name, ok := catalogue[t.name]; ok {
			sv.tables[i].name = name
			delete(catalogue, t.name)
			delete(w.copiedNames, t.name)
		} else if sawCatalogue {
			w.problem(Problem{Table: t.name, Page: int64(t.at), What: "the table is not in the catalogue, so its name as created is lost; it goes by its lower-case name", Lost: true})
		}
		if t.missing {
			w.problem(Problem{Table: sv.tables[i].name, Page: -1, What: "the newest list of tables cannot be read where this table is, and the previous one lists it: its tree is lost, and its entities can only be found on pages no longer linked", Lost: true})
			sv.tables[i].gapAt = len(w.problems) - 1
		}
	}
	var orphans []string
	for lower, name := range catalogue {
		if _, copied := w.copiedNames[lower]; !copied { // a table deleted since the copy was written
			orphans = append(orphans, name)
		}
	}
	sort.Strings(orphans)
	for _, name := range orphans {
		w.problem(Problem{Table: name, Page: -1, What: "the catalogue lists the table, but the file holds no bucket for it: its entities are lost", Lost: true})
	}
	sort.Slice(sv.tables, func(i, j int) bool { return strings.ToLower(sv.tables[i].name) < strings.ToLower(sv.tables[j].name) })
	return sv
}

// readTop reads the top-level entries: the file's own records (into sv's
// clock and the catalogue) and the tables' buckets (into sv.tables). It
// reports whether it saw the records, and the catalogue in them.
func (w *walker) readTop(top []entry, sv *survey, catalogue map[string]string, report bool) (sawMeta, sawCatalogue bool) {
	problem := func(p Problem) {
		if report {
			w.problem(p)
		}
	}
	for _, t := range top {
		name := string(t.Key)
		switch {
		case name == string(values.MetaBucket):
			sawMeta = true
			if !t.Bucket {
				problem(Problem{Page: int64(t.page), What: "the file's own records (catalogue and clock) are not a bucket", Lost: true})
				continue
			}
			sawCatalogue = w.readMeta(t, sv, catalogue)
		case strings.HasPrefix(name, values.TablePrefix) && t.Bucket:
			root, _, inl, err := boltfile.InlinePage(t.Value)
			if err != nil {
				problem(Problem{Table: name[len(values.TablePrefix):], Page: int64(t.page), What: "the table's bucket cannot be read: " + err.Error() + "; its entities are lost", Lost: true})
				continue
			}
			sv.tables = append(sv.tables, fileTable{name: name[len(values.TablePrefix):], root: root, inline: inl, at: t.page, inc: boltfile.BucketSequence(t.Value)})
		case name == string(values.ShapesBucket) && t.Bucket:
			if report {
				w.readDictionaries(t, sv)
			}
		case strings.HasPrefix(name, values.StagingPrefix) && t.Bucket:
			// What a load killed while it staged left: not a table, and
			// removed when the file is next opened for writing. Its pages
			// are in use.
			if report {
				w.stagingPages(t, sv)
			}
		default:
			problem(Problem{Page: int64(t.page), What: fmt.Sprintf("the file holds a record %q that tstable never writes", printable(t.Key))})
		}
	}
	return sawMeta, sawCatalogue
}

// stagingPages walks a staging bucket's trees, so that their pages count
// as in use, and records the rows staged in it: an import that did not
// finish (it was killed, or the machine went down) left them, and they
// were never committed to the table.
func (w *walker) stagingPages(t entry, sv *survey) {
	quiet := func(uint64, []byte, []byte, string) {}
	root, _, inl, err := boltfile.InlinePage(t.Value)
	if err != nil {
		return
	}
	for _, e := range w.collect(root, inl, t.page, quiet) {
		if !e.Bucket {
			continue
		}
		u := UnfinishedImport{Table: strings.TrimPrefix(string(e.Key), values.TablePrefix)}
		sv.staged = append(sv.staged, boltfile.BucketSequence(e.Value))
		croot, _, cinl, err := boltfile.InlinePage(e.Value)
		if err != nil {
			continue
		}
		w.Tree(croot, cinl, e.page, nil, nil, func(page uint64, _ boltfile.Elem) bool {
			u.Rows++
			if n := len(u.Pages); n == 0 || u.Pages[n-1] != page {
				u.Pages = append(u.Pages, page)
			}
			return true
		}, quiet)
		sv.unfinished = append(sv.unfinished, u)
	}
}

// olderTables reads the list of tables and the catalogue that the other
// copy of the header leads to, quietly (its pages are not claimed, its
// problems not reported), and adds the tables found there and not now as
// missing, and catalogue names not known now.
func (w *walker) olderTables(sv *survey, catalogue map[string]string) {
	other := 1 - w.H.Use
	c := w.H.Metas[other]
	if c.Fault != "" || c.M.Fault() != "" || c.M.Root == w.meta().Root || c.M.Pgid > w.meta().Pgid {
		return
	}
	kept, clock := w.problems, sv.clock
	w.Quiet(true)
	older := &survey{clock: -1, format: 1}
	oldCat := map[string]string{}
	w.readTop(w.collect(c.M.Root, nil, 0, func(uint64, []byte, []byte, string) {}), older, oldCat, false)
	w.Quiet(false)
	w.problems, sv.clock = kept, clock
	for lower, name := range oldCat {
		if _, ok := catalogue[lower]; !ok {
			catalogue[lower] = name
		}
	}
	for _, t := range older.tables {
		if !slices.ContainsFunc(sv.tables, func(n fileTable) bool { return n.name == t.name }) {
			sv.tables = append(sv.tables, fileTable{name: t.name, missing: true, gapAt: -1, inc: t.inc})
		}
	}
	if !sv.formatRead && older.formatRead {
		sv.format, sv.formatRead = older.format, true
	}
}

// readMeta reads the bucket of the file's own records: the clock and the
// catalogue, which it fills. It reports whether the catalogue was read.
func (w *walker) readMeta(t entry, sv *survey, catalogue map[string]string) bool {
	lost := func(what string) boltfile.LostFn {
		return func(page uint64, lo, hi []byte, why string) {
			w.problem(Problem{Page: int64(page), What: why + "; " + what, Lost: true})
		}
	}
	root, _, inl, err := boltfile.InlinePage(t.Value)
	if err != nil {
		w.problem(Problem{Page: int64(t.page), What: "the file's own records cannot be read: " + err.Error(), Lost: true})
		return false
	}
	read := false
	for _, e := range w.collect(root, inl, t.page, lost("the file's own records (catalogue, clock) there are lost")) {
		switch string(e.Key) {
		case string(values.ClockKey):
			if len(e.Value) != 8 || e.Bucket {
				w.problem(Problem{Page: int64(e.page), What: "the file's clock is unreadable"})
				continue
			}
			sv.clock = int64(binary.BigEndian.Uint64(e.Value))
		case string(values.FormatKey):
			if len(e.Value) != 8 || e.Bucket {
				w.problem(Problem{Page: int64(e.page), What: "the file's format version is unreadable"})
			} else if v := binary.BigEndian.Uint64(e.Value); v > values.FormatVersion {
				w.problem(Problem{Page: int64(e.page), What: fmt.Sprintf("the file is in format %d, newer than this tstable reads (%d)", v, values.FormatVersion)})
			} else {
				sv.format, sv.formatRead = v, true
			}
		case string(values.CatalogueKey):
			croot, _, cinl, err := boltfile.InlinePage(e.Value)
			if err != nil || !e.Bucket {
				w.problem(Problem{Page: int64(e.page), What: "the table catalogue cannot be read; the tables' names as created are lost", Lost: true})
				continue
			}
			read = true
			for _, c := range w.collect(croot, cinl, e.page, lost("the tables' names as created listed there are lost")) {
				name, lower := string(c.Value), string(c.Key)
				switch {
				case c.Bucket:
					w.problem(Problem{Page: int64(c.page), What: fmt.Sprintf("the catalogue holds a bucket %q, which tstable never writes", lower)})
				case odata.ValidateTableName(name) != nil || strings.ToLower(name) != lower:
					w.problem(Problem{Table: lower, Page: int64(c.page), What: fmt.Sprintf("the catalogue names the table %q, which is not a valid name for it; it goes by its lower-case name", name), Lost: true})
				default:
					catalogue[lower] = name
				}
			}
		default:
			w.problem(Problem{Page: int64(e.page), What: fmt.Sprintf("the file's own records hold %q, which tstable never writes", printable(e.Key))})
		}
	}
	return read
}
