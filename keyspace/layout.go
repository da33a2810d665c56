package keyspace

// column is what one column of a drawn bar shows: the strongest state of
// the entities it covers, or a separator between two cells.
type column struct {
	sep  bool
	kind kind
}

// kind is what a column shows: the states, and "some returned" between
// returned and scanned.
type kind uint8

const (
	kUnread kind = iota
	kScanned
	kSome
	kReturned
	kFlagged
)

// layout is a model fitted to a number of columns: its cells grouped so
// that each has room for a separator and one column at least, and each
// group's width following its entities.
type layout struct {
	groups []Cell
	widths []int
	cols   []column
	// cellOf is the group each column belongs to (-1 for a separator).
	cellOf []int
}

// fit lays m's cells out on width columns (separators included; at least
// 3).
func fit(m *Model, width int) *layout {
	return fitGroups(m, max(width, 3), max((width+1)/4, 1)) // three columns a cell on average, and its separator
}

// fitAll lays m's cells out on width columns as fit does, grouping them
// only when they do not fit one column each.
func fitAll(m *Model, width int) *layout {
	return fitGroups(m, max(width, 3), max((width+1)/2, 1))
}

// fitGroups lays m's cells out in at most maxGroups groups.
func fitGroups(m *Model, width, maxGroups int) *layout {
	per := (len(m.Cells) + maxGroups - 1) / max(maxGroups, 1)
	per = max(per, 1)
	l := &layout{}
	for i := 0; i < len(m.Cells); i += per {
		g := m.Cells[i]
		for j := i + 1; j < min(i+per, len(m.Cells)); j++ {
			g = mergeCells(g, m.Cells[j])
		}
		l.groups = append(l.groups, g)
	}
	if len(l.groups) == 0 {
		return l
	}
	fill := width - (len(l.groups) - 1)
	l.widths = shares(l.groups, fill)
	for gi, g := range l.groups {
		if gi > 0 {
			l.cols = append(l.cols, column{sep: true})
			l.cellOf = append(l.cellOf, -1)
		}
		for j := range l.widths[gi] {
			l.cols = append(l.cols, column{kind: spanKind(g, j, l.widths[gi])})
			l.cellOf = append(l.cellOf, gi)
		}
	}
	return l
}

// shares splits fill columns among the groups: one each, and the rest in
// proportion to their entities (largest remainders first, then the
// earlier group).
func shares(groups []Cell, fill int) []int {
	w := make([]int, len(groups))
	var total int64
	for i, g := range groups {
		w[i] = 1
		total += g.Entities
	}
	rest := fill - len(groups)
	if rest <= 0 || total == 0 {
		return w
	}
	rem := make([]int64, len(groups))
	given := 0
	for i, g := range groups {
		n := g.Entities * int64(rest)
		w[i] += int(n / total)
		given += int(n / total)
		rem[i] = n % total
	}
	for ; given < rest; given++ {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		w[best]++
		rem[best] = -1
	}
	return w
}

// spanKind is what column j of the w columns of cell c shows: flagged
// when an entity it covers is; else, of the entities it covers that were
// read, returned when all were returned, some returned when some were,
// scanned when none was; else not read. So one returned entity among
// unread ones shows as returned.
func spanKind(c Cell, j, w int) kind {
	n := c.Entities
	if n == 0 {
		return kUnread
	}
	lo := int64(j) * n / int64(w)
	hi := int64(j+1) * n / int64(w)
	if hi <= lo {
		hi = lo + 1
	}
	var count [4]int64
	var at int64
	for _, r := range c.Runs {
		if a, b := max(at, lo), min(at+r.N, hi); b > a {
			count[r.State] += b - a
		}
		at += r.N
		if at >= hi {
			break
		}
	}
	switch {
	case count[Flagged] > 0:
		return kFlagged
	case count[Returned] > 0 && count[Scanned] == 0:
		return kReturned
	case count[Returned] > 0:
		return kSome
	case count[Scanned] > 0:
		return kScanned
	}
	return kUnread
}

// marked is the first and last column that shows something other than
// Unread, and the groups they fall in; ok is false when none does.
func (l *layout) marked() (first, last int, ok bool) {
	first, last = -1, -1
	for i, c := range l.cols {
		if !c.sep && c.kind != kUnread {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last, first >= 0
}
