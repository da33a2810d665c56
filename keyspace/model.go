// Package keyspace draws a table's key space: its partitions in the
// service's order (PartitionKey, then RowKey) as cells whose width follows
// their size, with the entities a query read or returned, or the
// partitions a finding is about, marked in them.
//
// A Builder takes a table's keys in order, one entity at a time, with what
// happened to each (not read, scanned, returned, flagged), and keeps a
// Model of bounded size however large the table is: past MaxCells, two
// neighbouring cells become one. Text renders a Model for a terminal, SVG
// for a browser. Everything here is pure: no store, no terminal.
package keyspace

// State is what happened to an entity: not read, scanned but not
// returned, returned, or flagged (the partition a finding is about).
// A stronger state wins when several share one cell of the picture.
type State uint8

// The states, weakest first.
const (
	Unread State = iota
	Scanned
	Returned
	Flagged
)

// String names the state as the JSON of a model says it.
func (s State) String() string {
	return [...]string{"unread", "scanned", "returned", "flagged"}[s]
}

// MarshalText writes the state's name.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Run is N entities in a row, in key order, that share a state.
type Run struct {
	State State `json:"state"`
	N     int64 `json:"n"`
}

// Cell is one partition, or several neighbouring ones, and its entities'
// states in key order.
type Cell struct {
	First      string `json:"first"` // the first partition's PartitionKey
	Last       string `json:"last"`  // the last partition's (First when it is one)
	Partitions int64  `json:"partitions"`
	Entities   int64  `json:"entities"`
	Runs       []Run  `json:"runs"`
}

// Strongest is the strongest state of the cell's entities.
func (c *Cell) Strongest() State {
	s := Unread
	for _, r := range c.Runs {
		s = max(s, r.State)
	}
	return s
}

// count is how many of the cell's entities are in state s.
func (c *Cell) count(s State) int64 {
	var n int64
	for _, r := range c.Runs {
		if r.State == s {
			n += r.N
		}
	}
	return n
}

// Model is a table's key space, ready to render.
type Model struct {
	Table      string `json:"table"`
	Class      string `json:"class,omitempty"` // the query's class; "" when no query is drawn
	Partitions int64  `json:"partitions"`
	Entities   int64  `json:"entities"`
	Scanned    int64  `json:"scanned"`
	Returned   int64  `json:"returned"`
	Flagged    int64  `json:"flagged"`
	Cells      []Cell `json:"cells"`
	// Focus is the one partition that holds every entity read (or
	// flagged), entity by entity, when there is one such partition: the
	// picture zooms into it. Nil otherwise.
	Focus *Cell `json:"focus,omitempty"`
}

// MaxCells is the most cells a Builder keeps: a table with more
// partitions has several in a cell.
const MaxCells = 1024

// maxRuns is the most runs a cell keeps; past it, neighbouring runs merge
// into the stronger state (a returned entity stays visible).
const maxRuns = 64

// Builder makes a Model from a table's entities, given in key order.
type Builder struct {
	m       Model
	cap     int
	curPK   string
	started bool
	// per is how many partitions a cell holds (a power of two); filling is
	// how many the last cell holds so far.
	per, filling int64
	// cur is the partition being read, at full resolution, and marks how
	// many partitions so far held a read or flagged entity.
	cur   Cell
	focus *Cell
	marks int
}

// NewBuilder starts the model of table. class is the query's class, or ""
// when the picture shows no query.
func NewBuilder(table, class string) *Builder {
	return &Builder{m: Model{Table: table, Class: class}, cap: MaxCells, per: 1}
}

// Add counts one entity of partition pk in state s. Entities come in key
// order; a partition met again after another counts as a new one.
func (b *Builder) Add(pk string, s State) {
	if !b.started || pk != b.curPK {
		b.closePartition()
		b.cur = Cell{First: pk, Last: pk, Partitions: 1}
		b.started, b.curPK = true, pk
		b.m.Partitions++
		if len(b.m.Cells) == 0 || b.filling == b.per {
			if len(b.m.Cells) == b.cap {
				b.halve()
			}
		}
		if len(b.m.Cells) == 0 || b.filling == b.per {
			b.m.Cells = append(b.m.Cells, Cell{First: pk})
			b.filling = 0
		}
		c := &b.m.Cells[len(b.m.Cells)-1]
		c.Last = pk
		c.Partitions++
		b.filling++
	}
	c := &b.m.Cells[len(b.m.Cells)-1]
	c.Entities++
	c.Runs = addRun(c.Runs, s, 1)
	b.cur.Entities++
	b.cur.Runs = addFocusRun(b.cur.Runs, s)
	b.m.Entities++
	switch s {
	case Scanned:
		b.m.Scanned++
	case Returned:
		b.m.Scanned++
		b.m.Returned++
	case Flagged:
		b.m.Flagged++
	}
}

// closePartition keeps the partition just read as the focus when it is
// the first to hold a mark.
func (b *Builder) closePartition() {
	if !b.started || b.cur.Strongest() == Unread {
		return
	}
	b.marks++
	if b.marks == 1 {
		f := b.cur
		b.focus = &f
	}
}

// maxFocusRuns is the most runs the focus keeps before they coarsen.
const maxFocusRuns = 4096

// addFocusRun is addRun with more runs kept, for the focus.
func addFocusRun(runs []Run, s State) []Run {
	if k := len(runs); k > 0 && runs[k-1].State == s {
		runs[k-1].N++
		return runs
	}
	runs = append(runs, Run{State: s, N: 1})
	if len(runs) > maxFocusRuns {
		runs = coarsen(runs)
	}
	return runs
}

// halve merges each pair of neighbouring cells into one, so a cell holds
// twice the partitions it did.
func (b *Builder) halve() {
	cells := b.m.Cells
	out := cells[:0]
	for i := 0; i < len(cells); i += 2 {
		c := cells[i]
		if i+1 < len(cells) {
			c = mergeCells(c, cells[i+1])
		}
		out = append(out, c)
	}
	b.m.Cells = out
	b.filling = out[len(out)-1].Partitions
	b.per *= 2
}

// mergeCells is a and b, neighbours, as one cell.
func mergeCells(a, b Cell) Cell {
	runs := append([]Run(nil), a.Runs...)
	for _, r := range b.Runs {
		runs = addRun(runs, r.State, r.N)
	}
	return Cell{First: a.First, Last: b.Last, Partitions: a.Partitions + b.Partitions, Entities: a.Entities + b.Entities, Runs: runs}
}

// addRun appends n entities in state s to runs, joining the last run of
// the same state, and keeps runs under maxRuns by merging neighbours.
func addRun(runs []Run, s State, n int64) []Run {
	if k := len(runs); k > 0 && runs[k-1].State == s {
		runs[k-1].N += n
		return runs
	}
	runs = append(runs, Run{State: s, N: n})
	if len(runs) > maxRuns {
		runs = coarsen(runs)
	}
	return runs
}

// coarsen merges each pair of neighbouring runs into one of the stronger
// state.
func coarsen(runs []Run) []Run {
	out := make([]Run, 0, len(runs)/2+1)
	for i := 0; i < len(runs); i += 2 {
		r := runs[i]
		if i+1 < len(runs) {
			r = Run{State: max(r.State, runs[i+1].State), N: r.N + runs[i+1].N}
		}
		if k := len(out); k > 0 && out[k-1].State == r.State {
			out[k-1].N += r.N
			continue
		}
		out = append(out, r)
	}
	return out
}

// Model is the key space built so far.
func (b *Builder) Model() *Model {
	m := b.m
	marks, focus := b.marks, b.focus
	if b.started && b.cur.Strongest() != Unread {
		if marks++; marks == 1 {
			f := b.cur
			focus = &f
		}
	}
	if marks == 1 {
		f := *focus
		f.Runs = append([]Run(nil), f.Runs...)
		m.Focus = &f
	}
	if m.Cells == nil {
		m.Cells = []Cell{}
	}
	return &m
}

// Flag marks every entity of the cells holding one of the partitions pks
// as Flagged (a finding's partitions). Cells that hold a range of
// partitions are matched by their first and last key, so a flagged
// partition inside a merged cell flags that cell.
func (m *Model) Flag(pks []string, inRange func(pk, first, last string) bool) {
	for i := range m.Cells {
		c := &m.Cells[i]
		for _, pk := range pks {
			if inRange(pk, c.First, c.Last) {
				m.Flagged += c.Entities - c.count(Flagged)
				c.Runs = []Run{{State: Flagged, N: c.Entities}}
				break
			}
		}
	}
}
