package repair

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// RecoverReport is what Recover saved, and what it had to leave behind.
type RecoverReport struct {
	Source, Target string
	Tables         []TableRecovery
	// Problems lists what could not be saved, each with its table, key
	// range and page: parts of tables that cannot be read, entities that
	// do not decode or break the service's rules, names of tables.
	Problems []Problem
	// Unfinished lists the imports that were still staging their rows
	// when they stopped (killed, or the machine went down), whose staging
	// the file still holds (or, with the list of tables lost, pages no
	// longer linked): those rows were never committed, so they are not
	// saved, and nothing is lost by it.
	Unfinished []UnfinishedImport
	// Notes says what Recover did that lost nothing but is worth knowing:
	// the file's headers were unreadable and its newest state was found
	// by scanning its pages.
	Notes []string
}

// UnfinishedImport is the rows of an import that did not finish, found in
// a file and left behind.
type UnfinishedImport struct {
	Table string // the table it was importing into, lower-cased
	Rows  int64  // the rows found on its pages
	Pages []uint64
}

// TableRecovery is one table as Recover saved it.
type TableRecovery struct {
	Name string
	// Saved is the entities written to the new file.
	Saved int64
	// Unlinked is how many of them were found on pages that the table's
	// tree no longer leads to (below a damaged branch page).
	Unlinked int64
}

// String says what was found and why Recover left it behind.
func (u UnfinishedImport) String() string { return u.what() + " and were not saved" }

// InFile says what was found, for Check: the rows are in the file, not in
// the table, until the file is next opened for writing.
func (u UnfinishedImport) InFile() string {
	return u.what() + "; the next open of the file for writing removes them"
}

func (u UnfinishedImport) what() string {
	return fmt.Sprintf("%d rows that an import into %s staged and never committed (it stopped before its end), on %s: an import commits all its rows or none, so they were never in the table",
		u.Rows, u.Table, pageList(u.Pages))
}

// Complete reports whether everything was saved.
func (r *RecoverReport) Complete() bool { return len(r.Problems) == 0 }

// gap is a part of a table's tree that could not be read.
type gap struct {
	page   uint64
	lo, hi []byte
	at     int      // its problem's index in the walker's list
	pages  []uint64 // unlinked pages found in it
	found  int64    // entities saved from them
}

func (g *gap) holds(lo, hi []byte) bool {
	return (g.lo == nil || bytes.Compare(g.lo, lo) <= 0) && (g.hi == nil || bytes.Compare(hi, g.hi) < 0)
}

// Recover copies every table and entity that can still be read from the
// database file damaged (open as f, of size bytes; the caller holds a
// lock that keeps writers out) into a new database file at newPath, which
// create makes (once the damaged file's own records are read), and
// reports how many entities it saved per table and what it had to skip.
//
// It reads the damaged file itself, page by page (see Check), and never
// writes it. Where a page of a table cannot be read, the keys below it are
// skipped; where the damaged page is a branch page, the leaf pages below
// it are still in the file, no longer linked: Recover finds them among the
// pages that are neither reached nor free and saves their entities into
// the table whose skipped range holds their keys. Entities keep their
// Timestamps (so their ETags), and are written through the target's load,
// so the new file holds only what passes the service's rules, and Check
// passes on it.
//
// An error (the new file cannot be written) comes with the report so far;
// the new file then holds the tables saved until then. When ctx ends, the
// new file is removed (it would hold part of a table as if that were all
// of it) and the error is ctx's alone, without a report.
func Recover(ctx context.Context, f io.ReaderAt, size int64, damaged, newPath string, create func() (Target, error), progress func(done, total int64)) (rep *RecoverReport, err error) {
	w := newWalker(ctx, f, size, progress)
	if w.H.Use < 0 {
		return nil, unrecoverable(damaged, w.problems[len(w.problems)-1].What)
	}
	sv := w.survey()
	out, err := create()
	if err != nil {
		return nil, err
	}
	defer out.Close()
	defer func() {
		if ctx.Err() != nil { // the walk may have stopped for it without an error
			out.Close()
			os.Remove(newPath)
			rep, err = nil, ctx.Err()
		}
	}()
	rep = &RecoverReport{Source: damaged, Target: newPath, Unfinished: sv.unfinished, Notes: w.notes}
	gaps := make([][]*gap, len(sv.tables))
	for i, t := range sv.tables {
		tr, err := w.recoverTable(ctx, out, t, sv.codec(t), &gaps[i])
		if tr != nil {
			rep.Tables = append(rep.Tables, *tr)
		}
		if err != nil {
			rep.Problems = lostOnes(w.problems)
			return rep, err
		}
	}
	w.table = ""
	if err := w.recoverUnlinked(ctx, out, sv, gaps, rep); err != nil {
		rep.Problems = lostOnes(w.problems)
		return rep, err
	}
	if progress != nil {
		progress(w.Total(), w.Total())
	}
	rep.Problems = lostOnes(w.problems)
	if err := out.Close(); err != nil {
		return rep, err
	}
	return rep, nil
}

// Target is the new file Recover writes, as the store opens it: tables
// created, and entities inserted as a load inserts them, each keeping
// its own Timestamp (so its ETag).
type Target interface {
	CreateTable(ctx context.Context, name string) error
	// LoadKeeping inserts the entities of src as backend.Backend's Load
	// does, each stored with its own Timestamp.
	LoadKeeping(ctx context.Context, table string, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error)
	Close() error
}

// fileDamage is a DatabaseDamaged error, marked with ErrDamaged (as the
// store's are).
type fileDamage struct{ e *odata.Error }

func (d *fileDamage) Error() string   { return d.e.Error() }
func (d *fileDamage) Unwrap() []error { return []error{d.e, boltfile.ErrDamaged} }

// unrecoverable is the error of a file nothing can be recovered from.
func unrecoverable(path, why string) error {
	return &fileDamage{odata.Errorf(odata.CodeDatabaseDamaged, "nothing in %s can be recovered: %s", path, why)}
}

// lostOnes keeps the problems that lose data.
func lostOnes(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Lost {
			out = append(out, p)
		}
	}
	return out
}

// recoverTable copies what can be read of one table's tree into out,
// recording the parts it cannot read in gaps; c reads its entities.
func (w *walker) recoverTable(ctx context.Context, out Target, t fileTable, c *values.Codec, gaps *[]*gap) (*TableRecovery, error) {
	w.table = t.name
	if err := odata.ValidateTableName(t.name); err != nil {
		w.problem(Problem{Page: int64(t.at), What: "the table's name is not valid, so the table was not saved", Lost: true})
		return nil, nil
	}
	if err := out.CreateTable(ctx, t.name); err != nil {
		return nil, err
	}
	if t.missing {
		*gaps = append(*gaps, &gap{at: t.gapAt})
		return &TableRecovery{Name: t.name}, nil
	}
	var page uint64
	whole := true
	entities := func(yield func(*odata.Entity) bool) {
		whole = w.Tree(t.root, t.inline, t.at, nil, nil, func(pg uint64, e boltfile.Elem) bool {
			if e.Bucket {
				w.problem(Problem{Page: int64(pg), Keys: w.oneKey(e.Key), What: "the table holds a nested bucket, which tstable never writes; it was not saved", Lost: true})
				return true
			}
			ent, err := c.Decode(e.Key, e.Value)
			if err != nil {
				w.problem(Problem{Page: int64(pg), Keys: w.oneKey(e.Key), What: "the stored entity cannot be decoded" + c.Why(e.Value) + "; it was not saved", Lost: true})
				return true
			}
			page = pg
			return yield(ent)
		}, func(pg uint64, lo, hi []byte, why string) {
			*gaps = append(*gaps, &gap{page: pg, lo: bytes.Clone(lo), hi: bytes.Clone(hi), at: len(w.problems)})
			w.lostEntities(pg, lo, hi, why)
		})
	}
	src, stop := pull(ctx, entities)
	defer stop()
	res, err := out.LoadKeeping(ctx, t.name, src, backend.LoadOptions{
		OnReject: func(n int64, e *odata.Entity, err error) error {
			w.problem(Problem{Page: int64(page), Keys: entityKeys(e), What: "the entity was not saved: " + MessageOf(err), Lost: true})
			return nil
		},
	})
	tr := &TableRecovery{Name: t.name}
	if res != nil {
		tr.Saved = res.Written
	}
	if err == nil && !whole {
		err = ctx.Err()
	}
	return tr, err
}

// pull turns a sequence of entities into a Load source, which fails with
// ctx's error once ctx is done (the load then writes nothing more); stop
// ends the sequence early.
func pull(ctx context.Context, seq iter.Seq[*odata.Entity]) (src backend.EntitySource, stop func()) {
	next, stop := iter.Pull(seq)
	return func() (*odata.Entity, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e, ok := next(); ok {
			return e, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err // the walk stopped for it
		}
		return nil, io.EOF
	}, stop
}

// unlinkedPage is a leaf page of entities that no tree leads to.
type unlinkedPage struct {
	id       uint64
	elems    []boltfile.Elem // its entries (format 2: decoded once its table is known)
	entities []*odata.Entity // decoded (format 1: at once)
	lo, hi   []byte          // its first and last keys
}

// unlinked finds, among the pages neither reached nor free, the leaf pages
// that hold entities and nothing else, every one decoding (in format 2,
// where a value names a shape of its table's dictionary, as far as that
// can be told before the table is known: see placement.decode).
func (w *walker) unlinked() []unlinkedPage {
	var out []unlinkedPage
	for id := uint64(2); id < uint64(w.Total()); id++ {
		if w.Used(id) || (w.Free != nil && w.Free[id]) {
			continue
		}
		w.Tick(1)
		h, b, err := w.R.Page(id, boltfile.FlagLeaf)
		if err != nil {
			continue
		}
		es, err := boltfile.ParseElems(h, b)
		if err != nil || len(es) == 0 {
			continue
		}
		p := unlinkedPage{id: id, lo: bytes.Clone(es[0].Key), hi: bytes.Clone(es[len(es)-1].Key)}
		if w.entitiesOn(&p, es) {
			out = append(out, p)
			w.Claim(id, uint64(h.Overflow)+1)
			id += uint64(h.Overflow)
		}
	}
	return out
}

// entitiesOn reads the entries of a leaf page into p when they are all
// entities: in format 1 each decodes (into p.entities); in format 2 each
// has a value's head, and those that name their properties themselves
// decode, and the entries are kept (p.elems) to be decoded with their
// table's dictionary once the page's table is known (placement.decode).
func (w *walker) entitiesOn(p *unlinkedPage, es []boltfile.Elem) bool {
	c := &values.Codec{L: w.l, Shapes: values.StaticShapes(0, values.EmptyShapes)}
	for _, e := range es {
		if e.Bucket || bytes.IndexByte(e.Key, 0) < 0 {
			return false
		}
		if c.Values2() {
			_, id, _, err := values.Head2(e.Value)
			if err != nil {
				return false
			}
			if id == 0 {
				if _, err := c.Decode(e.Key, e.Value); err != nil {
					return false
				}
			}
			p.elems = append(p.elems, boltfile.Elem{Key: bytes.Clone(e.Key), Value: bytes.Clone(e.Value)})
			continue
		}
		ent, err := c.Decode(e.Key, e.Value)
		if err != nil {
			return false
		}
		p.entities = append(p.entities, ent)
	}
	return true
}

// evidence is what the whole file says about where pages belong: every
// branch page that lists a page, with the range of keys it gives it, and
// the tables whose tree starts at a page. When the newest list of tables
// is partly lost, older lists still in the file (and older catalogues)
// name tables too.
type evidence struct {
	parents map[uint64][]parentRef
	roots   map[uint64]map[string]bool // page → lower-cased table names
	names   map[string]string          // lower-cased name → as created
	// staged is the trees of the staging buckets still in use: page →
	// the lower-cased name of the table an unfinished import staged for.
	staged map[uint64]string
	// What any page says of a file of format 2 (see recoverdict.go): the
	// incarnations lists of tables give each table (lower-cased name),
	// the shapes of the dictionaries, and the format a copy of the file's
	// own records names (0: none found).
	incs   map[string][]uint64
	dicts  map[uint64]map[uint64]string
	clash  map[[2]uint64]bool
	format uint64
	// pagesOf counts the pages of entities whose values read as format 1
	// and as format 2 (see formatFound).
	pagesOf [3]int
}

type parentRef struct {
	page   uint64
	lo, hi []byte
}

// gatherEvidence reads every page of the file for evidence.
func (w *walker) gatherEvidence(sv *survey) *evidence {
	ev := &evidence{parents: map[uint64][]parentRef{}, roots: map[uint64]map[string]bool{}, names: map[string]string{}, staged: map[uint64]string{},
		incs: map[string][]uint64{}, dicts: map[uint64]map[uint64]string{}, clash: map[[2]uint64]bool{}}
	addRoot := func(root uint64, lower string) {
		if ev.roots[root] == nil {
			ev.roots[root] = map[string]bool{}
		}
		ev.roots[root][lower] = true
	}
	for _, t := range sv.tables {
		if t.root != 0 {
			addRoot(t.root, strings.ToLower(t.name))
		}
	}
	ev.noteCopies(w.copies)
	for id := uint64(2); id < uint64(w.Total()); id++ {
		h, b, err := w.R.Page(id, boltfile.FlagLeaf, boltfile.FlagBranch)
		if err != nil {
			continue
		}
		pg := id
		id += uint64(h.Overflow)
		es, err := boltfile.ParseElems(h, b)
		if err != nil || len(es) == 0 {
			continue
		}
		if h.Flags == boltfile.FlagBranch {
			for i, e := range es {
				var hi []byte
				if i+1 < len(es) {
					hi = bytes.Clone(es[i+1].Key)
				}
				ev.parents[e.Child] = append(ev.parents[e.Child], parentRef{id, bytes.Clone(e.Key), hi})
			}
			continue
		}
		ev.noteRecords(es)
		if !sv.rootLost {
			continue
		}
		// A staging bucket's page is no list of tables. One still in use
		// (not free: the page of an import that finished is freed when its
		// tree moves into the table, and older copies when the next chunk
		// is staged) leads to rows that were never committed. With the
		// list of free pages unreadable, in use cannot be told.
		marked := slices.ContainsFunc(es, func(e boltfile.Elem) bool { return !e.Bucket && bytes.Equal(e.Key, values.StagingMarker) })
		live := marked && w.Free != nil && !w.Free[pg]
		catalogue := true
		for _, e := range es {
			if e.Bucket && bytes.HasPrefix(e.Key, []byte(values.TablePrefix)) && len(e.Value) >= boltfile.BucketHeaderSize {
				if root := boltfile.Order.Uint64(e.Value); root != 0 {
					switch {
					case live:
						ev.staged[root] = string(e.Key[len(values.TablePrefix):])
					case !marked:
						addRoot(root, string(e.Key[len(values.TablePrefix):]))
						ev.noteIncarnation(string(e.Key[len(values.TablePrefix):]), boltfile.BucketSequence(e.Value))
					}
				}
			}
			catalogue = catalogue && !e.Bucket && odata.ValidateTableName(string(e.Value)) == nil && strings.ToLower(string(e.Value)) == string(e.Key)
		}
		if catalogue {
			for _, e := range es {
				ev.names[string(e.Key)] = string(e.Value)
			}
		}
	}
	return ev
}

// owners returns the tables (lower-cased) that some chain of branch pages
// leads from to the page, each branch page giving it a range that holds
// its keys, and the tables of unfinished imports whose staging leads to
// it the same way.
func (ev *evidence) owners(p unlinkedPage) (tables, staged map[string]bool) {
	out, staged := map[string]bool{}, map[string]bool{}
	seen := map[uint64]bool{p.id: true}
	queue := []uint64{p.id}
	for len(queue) > 0 && len(seen) < 1<<12 {
		id := queue[0]
		queue = queue[1:]
		for name := range ev.roots[id] {
			out[name] = true
		}
		if name, ok := ev.staged[id]; ok {
			staged[name] = true
		}
		for _, par := range ev.parents[id] {
			if seen[par.page] || bytes.Compare(p.lo, par.lo) < 0 || (par.hi != nil && bytes.Compare(p.hi, par.hi) >= 0) {
				continue
			}
			seen[par.page] = true
			queue = append(queue, par.page)
		}
	}
	return out, staged
}

// recoverUnlinked saves the entities of unlinked leaf pages into the table
// that the file's branch pages and lists of tables say they belong to,
// when that table's readable tree has a gap where their keys go (a table
// whose tree is lost is one gap). Pages it cannot place are reported.
func (w *walker) recoverUnlinked(ctx context.Context, out Target, sv *survey, gaps [][]*gap, rep *RecoverReport) error {
	var ev *evidence
	if !sv.formatRead { // the format the pages hold must be known to read them
		ev = w.gatherEvidence(sv)
		if f := ev.formatFound(); f != 0 {
			sv.format, w.l = f, values.Layout(f)
		}
	}
	pages := w.unlinked()
	if len(pages) == 0 {
		return nil
	}
	if ev == nil {
		ev = w.gatherEvidence(sv)
	}
	pl := &placement{w: w, out: out, sv: sv, gaps: gaps, rep: rep, ev: ev,
		index: map[string]int{}, byTable: make([]map[string]*odata.Entity, len(sv.tables)),
		lostFound: map[string]*odata.Entity{}, ambiguous: map[string][]uint64{}, unfinished: map[string]*UnfinishedImport{}}
	for i, t := range sv.tables {
		pl.index[strings.ToLower(t.name)] = i
	}
	for _, p := range pages {
		if err := pl.place(ctx, p); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(pl.unfinished)) {
		rep.Unfinished = append(rep.Unfinished, *pl.unfinished[name])
	}
	if len(pl.unplaced) > 0 {
		if err := pl.keepLostAndFound(ctx); err != nil {
			return err
		}
	}
	if w.Free == nil && len(pl.unplaced) < len(pages) && len(pl.unplaced) == 0 {
		w.problem(Problem{Page: -1, What: "the list of free pages is unreadable, so the entities found on unlinked pages may include older versions of entities, or deleted ones", Lost: true})
	}
	if err := pl.save(ctx); err != nil {
		return err
	}
	pl.tellGaps()
	return nil
}

// placement is where recoverUnlinked puts the entities of unlinked pages:
// the latest copy of each key, by table, or in a lost-and-found table.
type placement struct {
	w    *walker
	out  Target
	sv   *survey
	gaps [][]*gap // by table: where its readable tree has holes
	rep  *RecoverReport
	ev   *evidence

	index      map[string]int               // lower-cased table name → its index in sv.tables
	byTable    []map[string]*odata.Entity   // by table: stored key → the latest entity found
	unplaced   []uint64                     // pages no table takes
	lostFound  map[string]*odata.Entity     // their entities
	ambiguous  map[string][]uint64          // the tables they could belong to → pages
	order      []string                     // those tables, as first met
	unfinished map[string]*UnfinishedImport // by table: rows an import staged and never committed
}

// keep adds es to m, keeping the latest copy of each key.
func keep(m map[string]*odata.Entity, es []*odata.Entity) {
	for _, e := range es {
		k := string(values.EntityKey(e.PartitionKey, e.RowKey))
		if old, ok := m[k]; !ok || e.Timestamp.After(old.Timestamp) {
			m[k] = e
		}
	}
}

// place puts the entities of one unlinked page: with an unfinished
// import's rows, in the one table whose gap holds its keys, or aside.
func (pl *placement) place(ctx context.Context, p unlinkedPage) error {
	owners, staged := pl.ev.owners(p)
	if len(owners) == 0 && len(staged) == 1 {
		pl.staged(p, staged)
		return nil
	}
	homes, home := pl.homes(p, owners)
	if len(homes) == 0 && pl.sv.rootLost && len(owners) == 1 {
		var err error
		if homes, home, err = pl.olderTable(ctx, owners); err != nil {
			return err
		}
	}
	if len(homes) > 1 {
		homes, home = pl.readableBy(p, homes, home)
	}
	if !pl.decode(&p, homes, owners) {
		return nil
	}
	switch {
	case len(homes) == 0:
		pl.unplaced = append(pl.unplaced, p.id)
		keep(pl.lostFound, p.entities)
	case len(homes) > 1:
		pl.either(p, homes)
	default:
		i := homes[0]
		if pl.byTable[i] == nil {
			pl.byTable[i] = map[string]*odata.Entity{}
		}
		keep(pl.byTable[i], p.entities)
		home.pages = append(home.pages, p.id)
		home.found += int64(len(p.entities))
	}
	return nil
}

// decode decodes the entities of a page of format 2 with the dictionary
// of its table: that of the first of homes, then of owners, that reads
// them all, then any dictionary found in the file that does. When none
// reads them all (a page of the dictionary is lost), the first that reads
// some and lacks the shapes of the others keeps those it reads, and each
// other entity is lost, a problem each (lostNames). It reports whether
// any entity was read; when no dictionary fits, the page's entities are
// lost, and a problem says so.
func (pl *placement) decode(p *unlinkedPage, homes []int, owners map[string]bool) bool {
	if p.entities != nil || len(p.elems) == 0 {
		return true
	}
	var part []*odata.Entity
	var partInc uint64
	var unread []boltfile.Elem
	tried := map[uint64]bool{}
	for _, inc := range pl.candidates(homes, owners) {
		s := pl.dictionary(inc)
		if tried[inc] || s == nil {
			continue
		}
		tried[inc] = true
		es, lacking, ok := readWith(pl.w.l, inc, s, p.elems)
		if ok && len(lacking) == 0 {
			p.entities = es
			return true
		}
		if ok && (unread == nil || len(es) > len(part)) {
			part, partInc, unread = es, inc, lacking
		}
	}
	if unread == nil {
		pl.w.problem(Problem{Page: int64(p.id), Keys: pl.w.keysBetween(p.lo, p.hi), What: "the page, which no table leads to, holds entities that name shapes no readable dictionary holds; they were not saved", Lost: true})
		return false
	}
	p.entities = part
	pl.lostNames(p.id, partInc, unread)
	return len(part) > 0
}

// readWith decodes es with the dictionary s of inc: the entities it
// reads, and those naming a shape s lacks; ok is false when an entity
// names a shape s has and does not decode with it (s is not their
// table's dictionary).
func readWith(l values.Layout, inc uint64, s *values.ShapeSet, es []boltfile.Elem) (read []*odata.Entity, lacking []boltfile.Elem, ok bool) {
	c := &values.Codec{L: l, Shapes: values.StaticShapes(inc, s)}
	for _, e := range es {
		ent, err := c.Decode(e.Key, e.Value)
		if err == nil {
			read = append(read, ent)
			continue
		}
		if _, id, _, err := values.Head2(e.Value); err != nil || !s.Lacks(id) {
			return nil, nil, false
		}
		lacking = append(lacking, e)
	}
	return read, lacking, true
}

// lostNames reports, one problem each, the entities of page that name a
// shape the dictionary of inc lacks: their data survives, their
// properties' names were on a page of the dictionary that is lost.
func (pl *placement) lostNames(page, inc uint64, es []boltfile.Elem) {
	for _, e := range es {
		_, id, _, _ := values.Head2(e.Value)
		where := "a page of the table's dictionary, which is lost"
		if d := pl.dictPageOf(inc, id); d != 0 {
			where = fmt.Sprintf("page %d, which is lost", d)
		}
		pl.w.problem(Problem{Table: pl.sv.tableOf(inc), Page: int64(page), Keys: pl.w.oneKey(e.Key), What: fmt.Sprintf("the entity, on a page no table leads to, names shape %d of its table's dictionary: its property names were on %s; it was not saved", id, where), Lost: true})
	}
}

// dictPageOf is the page that a branch page of the bucket of
// dictionaries gives shape id of inc, when that page cannot be read as a
// page of the dictionaries; 0 when no branch page says.
func (pl *placement) dictPageOf(inc, id uint64) uint64 {
	key := values.ShapeKey(inc, id)
	for _, child := range slices.Sorted(maps.Keys(pl.ev.parents)) {
		for _, par := range pl.ev.parents[child] {
			if len(par.lo) != len(key) || (par.hi != nil && len(par.hi) != len(key)) || bytes.Compare(par.lo, key) > 0 || (par.hi != nil && bytes.Compare(key, par.hi) >= 0) {
				continue
			}
			if h, b, err := pl.w.R.Page(child, boltfile.FlagLeaf); err == nil {
				if es, err := boltfile.ParseElems(h, b); err == nil && dictionaryPage(es) {
					continue
				}
			}
			return child
		}
	}
	return 0
}

// candidates are the incarnations whose dictionaries may read a page:
// those of its homes, of its owners, then every one the file holds.
func (pl *placement) candidates(homes []int, owners map[string]bool) []uint64 {
	var out []uint64
	table := func(t fileTable) {
		if t.inc != 0 {
			out = append(out, t.inc)
		}
		out = append(out, pl.ev.incs[strings.ToLower(t.name)]...)
	}
	for _, i := range homes {
		table(pl.sv.tables[i])
	}
	for _, t := range pl.sv.tables {
		if owners[strings.ToLower(t.name)] {
			table(t)
		}
	}
	for name := range owners {
		out = append(out, pl.ev.incs[name]...)
	}
	out = append(out, slices.Sorted(maps.Keys(pl.sv.shapes))...)
	return append(out, slices.Sorted(maps.Keys(pl.ev.dicts))...)
}

// dictionary is the dictionary of inc: as the file's tree (and the
// header's copy) holds it, completed with the shapes the pages found hold
// where that lacks them (past a lost page of the dictionary); nil when
// neither has it.
func (pl *placement) dictionary(inc uint64) *values.ShapeSet {
	s, ok := pl.sv.shapes[inc]
	found := pl.ev.shapes(inc)
	switch {
	case found == nil:
		return s
	case !ok:
		return found
	}
	list := slices.Clone(found.List)
	for i, sh := range s.List {
		if i >= len(list) {
			list = append(list, s.List[i:]...)
			break
		}
		list[i] = sh
	}
	return values.GappedShapes(list)
}

// staged counts a page of rows an import staged and never committed.
func (pl *placement) staged(p unlinkedPage, staged map[string]bool) {
	for name := range staged {
		u := pl.unfinished[name]
		if u == nil {
			u = &UnfinishedImport{Table: name}
			pl.unfinished[name] = u
		}
		u.Rows += int64(max(len(p.entities), len(p.elems)))
		u.Pages = append(u.Pages, p.id)
	}
}

// homes are the tables (of owners, when the file names any) with a gap
// that holds the page's keys, and the last such gap.
func (pl *placement) homes(p unlinkedPage, owners map[string]bool) (homes []int, home *gap) {
	for i, t := range pl.sv.tables {
		if len(owners) > 0 && !owners[strings.ToLower(t.name)] {
			continue
		}
		for _, g := range pl.gaps[i] {
			if g.holds(p.lo, p.hi) {
				homes, home = append(homes, i), g
				break
			}
		}
	}
	return homes, home
}

// olderTable creates the one table of owners that only an older list of
// tables names (its tree is lost: one gap) and makes it the page's home.
func (pl *placement) olderTable(ctx context.Context, owners map[string]bool) (homes []int, home *gap, err error) {
	for lower := range owners {
		name := lower
		if n, ok := pl.ev.names[lower]; ok {
			name = n
		}
		if _, known := pl.index[lower]; known || odata.ValidateTableName(name) != nil {
			break
		}
		if err := pl.out.CreateTable(ctx, name); err != nil {
			return nil, nil, err
		}
		pl.w.problem(Problem{Table: name, Page: -1, What: "only an older list of tables names this table (the newest one cannot be read where it is): its tree is lost, and its entities can only be found on pages no longer linked", Lost: true})
		pl.sv.tables = append(pl.sv.tables, fileTable{name: name, missing: true})
		home = &gap{at: len(pl.w.problems) - 1}
		pl.gaps = append(pl.gaps, []*gap{home})
		pl.byTable = append(pl.byTable, nil)
		pl.rep.Tables = append(pl.rep.Tables, TableRecovery{Name: name})
		pl.index[lower] = len(pl.sv.tables) - 1
		homes = []int{len(pl.sv.tables) - 1}
	}
	return homes, home, nil
}

// either sets aside a page that could belong to several tables.
func (pl *placement) either(p unlinkedPage, homes []int) {
	var names []string
	for _, i := range homes {
		names = append(names, pl.sv.tables[i].name)
	}
	both := strings.Join(names, " or ")
	if _, ok := pl.ambiguous[both]; !ok {
		pl.order = append(pl.order, both)
	}
	pl.ambiguous[both] = append(pl.ambiguous[both], p.id)
	pl.unplaced = append(pl.unplaced, p.id)
	keep(pl.lostFound, p.entities)
}

// keepLostAndFound makes the table (LostAndFound, or LostAndFound2 …
// when the name is taken) that keeps what no table takes, and says why.
func (pl *placement) keepLostAndFound(ctx context.Context) error {
	name := "LostAndFound"
	for n := 2; ; n++ {
		if _, taken := pl.index[strings.ToLower(name)]; !taken {
			break
		}
		name = fmt.Sprintf("LostAndFound%d", n)
	}
	if err := pl.out.CreateTable(ctx, name); err != nil {
		return err
	}
	for _, both := range pl.order {
		ids := pl.ambiguous[both]
		pl.w.problem(Problem{Page: -1, What: fmt.Sprintf("%s, which no readable table leads to, could belong to %s; %s saved in table %s", pageList(ids), both, map[bool]string{true: "its entities are", false: "their entities are"}[len(ids) == 1], name), Lost: true})
	}
	what := fmt.Sprintf("%s, which no table leads to, %s entities that could not be placed in their table; the latest copy of each, %d in all, was saved in this table", pageList(pl.unplaced), map[bool]string{true: "holds", false: "hold"}[len(pl.unplaced) == 1], len(pl.lostFound))
	if pl.w.Free == nil {
		what += " (with the list of free pages unreadable, they may include older versions of entities, and deleted ones)"
	}
	pl.w.problem(Problem{Table: name, Page: -1, What: what, Lost: true})
	pl.sv.tables = append(pl.sv.tables, fileTable{name: name, missing: true})
	pl.byTable = append(pl.byTable, pl.lostFound)
	pl.rep.Tables = append(pl.rep.Tables, TableRecovery{Name: name})
	return nil
}

// save writes what was found into each table, in key order, and counts it.
func (pl *placement) save(ctx context.Context) error {
	for i, found := range pl.byTable {
		if found == nil {
			continue
		}
		if err := pl.saveTable(ctx, pl.sv.tables[i].name, found); err != nil {
			return err
		}
	}
	return nil
}

// saveTable inserts found into table; an entity the tree had (its copy is
// the current one) is not saved again.
func (pl *placement) saveTable(ctx context.Context, table string, found map[string]*odata.Entity) error {
	pl.w.table = table
	keys := slices.Sorted(maps.Keys(found))
	n := 0
	res, err := pl.out.LoadKeeping(ctx, table, func() (*odata.Entity, error) {
		if n == len(keys) {
			return nil, io.EOF
		}
		n++
		return found[keys[n-1]], nil
	}, backend.LoadOptions{OnReject: func(_ int64, e *odata.Entity, err error) error {
		if !odata.IsCode(err, odata.CodeEntityAlreadyExists) { // the tree's copy is the current one
			pl.w.problem(Problem{Page: -1, Keys: entityKeys(e), What: "the entity, found on an unlinked page, was not saved: " + MessageOf(err), Lost: true})
		}
		return nil
	}})
	for j := range pl.rep.Tables {
		if pl.rep.Tables[j].Name == table && res != nil {
			pl.rep.Tables[j].Saved += res.Written
			pl.rep.Tables[j].Unlinked += res.Written
		}
	}
	return err
}

// tellGaps adds to each gap's problem what was found for it.
func (pl *placement) tellGaps() {
	for i := range pl.gaps {
		for _, g := range pl.gaps[i] {
			if len(g.pages) > 0 {
				p := &pl.w.problems[g.at]
				p.What += fmt.Sprintf("; %d entities in this range were found on pages no longer linked to the table (%s) and saved, but others may be lost", g.found, pageList(g.pages))
			}
		}
	}
}

// pageList names pages: "page 7", "pages 7, 9 and 12".
func pageList(ids []uint64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("page %d", ids[0])
	}
	if len(ids) > 6 {
		return fmt.Sprintf("%d pages, from page %d to page %d", len(ids), slices.Min(ids), slices.Max(ids))
	}
	var s []string
	for _, id := range ids {
		s = append(s, fmt.Sprint(id))
	}
	return "pages " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
