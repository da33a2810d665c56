package odata

import "slices"

// Planning rules (each is a case of TestPlanQuery in plan_test.go). The planner models what
// the service reads, because tstable teaches table design; the local store
// reads exactly the ranges of the plan, so it costs what the service would.
//
// Only the top-level conjunction (the conditions joined by 'and' outside
// any 'or' or 'not') narrows what is read. In it:
//
//   - PartitionKey eq X and RowKey eq Y: a point query, one key. Other
//     conditions beside them do not change that.
//   - PartitionKey eq X and RowKey gt/ge/lt/le/eq bounds: a range query over
//     the intersection of the bounds inside partition X (one bound is
//     enough: RowKey ge 'S' reads from 'S' to the end of the partition).
//   - PartitionKey eq X otherwise: a partition scan — also when the RowKey
//     conditions sit under 'or' or 'not' (the guide's
//     PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')).
//     RowKey ne narrows nothing.
//   - No PartitionKey eq: a table scan, even when RowKey is filtered or when
//     'or' joins two partitions. PartitionKey gt/ge/lt/le bounds keep it a
//     table scan in the guide's words, but it reads only that run of
//     partitions, and the plan's range says so.
//   - Conditions that can never hold together (PartitionKey eq 'A' and
//     PartitionKey eq 'B', an empty RowKey range, a key compared with a
//     literal that is not a string) give no ranges at all: the filter
//     matches nothing and reads nothing. The class stays the one the shape
//     of the filter has.

// keyInterval is the set of strings allowed by bound conditions on one key.
type keyInterval struct {
	lo, hi       string
	hasLo, hasHi bool
	loInc, hiInc bool
	eq           bool // an eq condition set it
	bounded      bool // any eq/gt/ge/lt/le condition
	order        Order
}

// add intersects the interval with "key op s".
func (k *keyInterval) add(op cmpOp, s string) {
	switch op {
	case opEq:
		k.eq = true
		k.raiseLo(s, true)
		k.lowerHi(s, true)
	case opGt:
		k.raiseLo(s, false)
	case opGe:
		k.raiseLo(s, true)
	case opLt:
		k.lowerHi(s, false)
	case opLe:
		k.lowerHi(s, true)
	default:
		return
	}
	k.bounded = true
}

func (k *keyInterval) raiseLo(s string, inc bool) {
	if !k.hasLo || k.order.Compare(s, k.lo) > 0 || (s == k.lo && !inc) {
		k.lo, k.loInc, k.hasLo = s, inc, true
	}
}

func (k *keyInterval) lowerHi(s string, inc bool) {
	if !k.hasHi || k.order.Compare(s, k.hi) < 0 || (s == k.hi && !inc) {
		k.hi, k.hiInc, k.hasHi = s, inc, true
	}
}

// empty reports whether no string satisfies the interval.
func (k *keyInterval) empty() bool {
	if k.hasHi && k.hi == "" && !k.hiInc {
		return true // nothing sorts before ""
	}
	if !k.hasLo || !k.hasHi {
		return false
	}
	return k.order.Compare(k.lo, k.hi) > 0 || (k.lo == k.hi && !(k.loInc && k.hiInc))
}

// single reports whether the interval is exactly one value.
func (k *keyInterval) single() bool {
	return k.hasLo && k.hasHi && k.lo == k.hi && k.loInc && k.hiInc
}

// conjuncts appends the conditions of the top-level 'and' chain of n.
func conjuncts(n *node, out []*node) []*node {
	if n.kind == nodeAnd {
		return conjuncts(n.right, conjuncts(n.left, out))
	}
	return append(out, n)
}

// PlanQuery derives the query class and the key ranges to read from a
// filter, with the diagnosis that says why (its words, Plan.Reason and
// Plan.Advice, are built when asked: diagnosis.go). A nil filter reads the
// whole table. Key bounds are compared in the filter's Order.
func PlanQuery(f *Filter) *Plan {
	p := &Plan{Class: ClassTableScan, Ranges: []KeyRange{FullRange()}, Diagnosis: DiagNoFilter}
	if f != nil && f.root != nil {
		p.facts = factsOf(f.root, f.order)
		p.Class, p.Ranges, p.Diagnosis = p.facts.classify()
	}
	return p
}

// filterFacts is what the top-level conjunction of a filter says about
// the keys: the decision is taken from these alone.
type filterFacts struct {
	pk, rk      keyInterval
	never       *node     // the first comparison that can never hold, if any
	neverDiag   Diagnosis // and why it cannot
	others      []string  // non-key properties filtered at top level, each once
	rowKeyOr    bool      // RowKey conditions under 'or': they do not narrow
	rowKeyNot   bool      // RowKey under 'not' or compared by ne: no narrowing either
	partitionOr bool      // PartitionKey appears under or/not
}

// factsOf gathers the facts of the conjunction at root, its key bounds
// compared in order o.
func factsOf(root *node, o Order) *filterFacts {
	ff := &filterFacts{pk: keyInterval{order: o}, rk: keyInterval{order: o}}
	for _, c := range conjuncts(root, nil) {
		switch {
		case c.kind == nodeCompare:
			ff.addComparison(c)
		case c.kind == nodeConst && !c.lit.Bool():
			ff.addNever(c, DiagConditionFalse)
		case c.kind != nodeConst:
			ff.addNested(c)
		}
	}
	ff.others = dedupe(ff.others)
	return ff
}

// addNested notes the properties a condition under or/not names: they
// narrow nothing.
func (ff *filterFacts) addNested(c *node) {
	for _, p := range propsOf(c, nil) {
		switch {
		case p == PartitionKey:
			ff.partitionOr = true
		case p == RowKey && c.kind == nodeNot:
			ff.rowKeyNot = true
		case p == RowKey:
			ff.rowKeyOr = true
		default:
			ff.others = append(ff.others, p)
		}
	}
}

// addComparison adds a top-level comparison: a key bound, or a property
// checked on each entity read.
func (ff *filterFacts) addComparison(c *node) {
	switch c.prop {
	case PartitionKey, RowKey:
		if c.lit.Type != EdmString {
			ff.addNever(c, DiagKeyNotString)
			return
		}
		if c.prop == PartitionKey {
			ff.pk.add(c.op, c.lit.Str)
			return
		}
		if c.op == opNe {
			ff.rowKeyNot = true
		}
		ff.rk.add(c.op, c.lit.Str)
	case Timestamp:
		if c.lit.Type != EdmDateTime {
			ff.addNever(c, DiagTimestampNotDateTime)
		}
		ff.others = append(ff.others, c.prop)
	default:
		ff.others = append(ff.others, c.prop)
	}
}

// addNever records a comparison that can never hold; the first one names
// the diagnosis.
func (ff *filterFacts) addNever(c *node, d Diagnosis) {
	if ff.never == nil {
		ff.never, ff.neverDiag = c, d
	}
}

// classify decides the class, the ranges and the diagnosis. The class is
// the one the filter's shape has; a filter that can match nothing then
// reads nothing, and its diagnosis says why.
func (ff *filterFacts) classify() (QueryClass, []KeyRange, Diagnosis) {
	class, ranges, d := ff.shape()
	switch {
	case ff.never != nil:
		return class, nil, ff.neverDiag
	case ff.pk.empty() && ff.pk.eq:
		return class, nil, DiagPartitionKeysConflict
	case ff.pk.empty():
		return class, nil, DiagPartitionBoundsCrossed
	case ff.rk.empty():
		return class, nil, DiagRowKeyBoundsCrossed
	}
	return class, ranges, d
}

// shape is the class and ranges the key conditions give, and why.
func (ff *filterFacts) shape() (QueryClass, []KeyRange, Diagnosis) {
	if !ff.pk.eq {
		return ClassTableScan, []KeyRange{partitionSpan(&ff.pk)}, ff.tableScanDiagnosis()
	}
	x := ff.pk.lo
	switch {
	case ff.rk.single():
		return ClassPoint, []KeyRange{PointRange(x, ff.rk.lo)}, DiagPoint
	case ff.rk.bounded:
		return ClassRange, []KeyRange{rowRange(x, &ff.rk)}, DiagRowRange
	}
	return ClassPartitionScan, []KeyRange{PartitionRange(x)}, ff.partitionScanDiagnosis()
}

// partitionScanDiagnosis says why a partition named by eq is read whole.
func (ff *filterFacts) partitionScanDiagnosis() Diagnosis {
	switch {
	case ff.rowKeyOr:
		return DiagRowKeyOr
	case ff.rowKeyNot:
		return DiagRowKeyExcluded
	}
	return ff.byOthers(DiagPartitionTimestamp, DiagPartitionFiltered, DiagWholePartition)
}

// tableScanDiagnosis says why no single partition is named.
func (ff *filterFacts) tableScanDiagnosis() Diagnosis {
	switch {
	case ff.pk.bounded:
		return DiagPartitionRange
	case ff.partitionOr:
		return DiagPartitionOr
	case ff.rk.bounded || ff.rowKeyOr || ff.rowKeyNot:
		return DiagRowKeyWithoutPartition
	}
	return ff.byOthers(DiagTableTimestamp, DiagTableFiltered, DiagNoKeyCondition)
}

// byOthers is the diagnosis of what the other properties filter: time
// when the first is Timestamp, filtered when there are others, else none.
func (ff *filterFacts) byOthers(time, filtered, none Diagnosis) Diagnosis {
	switch {
	case len(ff.others) > 0 && ff.others[0] == Timestamp:
		return time
	case len(ff.others) > 0:
		return filtered
	}
	return none
}

// rowRange is the run of keys of partition x allowed by rk.
func rowRange(x string, rk *keyInterval) KeyRange {
	r := PartitionRange(x)
	if rk.hasLo {
		r.Lower = &Bound{PartitionKey: x, RowKey: rk.lo, HasRowKey: true, Inclusive: rk.loInc}
	}
	if rk.hasHi {
		r.Upper = &Bound{PartitionKey: x, RowKey: rk.hi, HasRowKey: true, Inclusive: rk.hiInc}
	}
	return r
}

// partitionSpan is the run of whole partitions allowed by pk.
func partitionSpan(pk *keyInterval) KeyRange {
	var r KeyRange
	if pk.hasLo {
		r.Lower = &Bound{PartitionKey: pk.lo, Inclusive: pk.loInc}
	}
	if pk.hasHi {
		r.Upper = &Bound{PartitionKey: pk.hi, Inclusive: pk.hiInc}
	}
	return r
}

// propsOf appends the property names referenced under n.
func propsOf(n *node, out []string) []string {
	if n == nil {
		return out
	}
	if n.kind == nodeCompare {
		return append(out, n.prop)
	}
	return propsOf(n.right, propsOf(n.left, out))
}

// dedupe drops repeated names, keeping the first of each in order.
func dedupe(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
