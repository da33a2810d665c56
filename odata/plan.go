package odata

import (
	"slices"
	"strings"
)

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
	if !k.hasLo || s > k.lo || (s == k.lo && !inc) {
		k.lo, k.loInc, k.hasLo = s, inc, true
	}
}

func (k *keyInterval) lowerHi(s string, inc bool) {
	if !k.hasHi || s < k.hi || (s == k.hi && !inc) {
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
	return k.lo > k.hi || (k.lo == k.hi && !(k.loInc && k.hiInc))
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
// filter. A nil filter reads the whole table.
func PlanQuery(f *Filter) *Plan {
	if f == nil || f.root == nil {
		return &Plan{
			Class:  ClassTableScan,
			Ranges: []KeyRange{FullRange()},
			Reason: "There is no filter, so every entity of every partition is read.",
			Advice: "Query by PartitionKey (and RowKey) to read a part of the table; a full read is fine only for export and batch work.",
		}
	}
	var pk, rk keyInterval
	var never []string   // conditions that can never hold
	var others []string  // non-key properties filtered at top level
	var rowKeyOr bool    // RowKey conditions under 'or': they do not narrow
	var rowKeyNot bool   // RowKey under 'not' or compared by ne: no narrowing either
	var partitionOr bool // PartitionKey appears under or/not
	for _, c := range conjuncts(f.root, nil) {
		if c.kind != nodeCompare {
			for _, p := range propsOf(c, nil) {
				switch p {
				case PartitionKey:
					partitionOr = true
				case RowKey:
					if c.kind == nodeNot {
						rowKeyNot = true
					} else {
						rowKeyOr = true
					}
				default:
					others = append(others, p)
				}
			}
			continue
		}
		switch c.prop {
		case PartitionKey, RowKey:
			if c.lit.Type != EdmString {
				never = append(never, c.prop+" is an Edm.String and never equals or orders against "+c.lit.Type.String()+" "+formatLiteral(c.lit))
				continue
			}
			if c.prop == PartitionKey {
				pk.add(c.op, c.lit.Str)
			} else {
				if c.op == opNe {
					rowKeyNot = true
				}
				rk.add(c.op, c.lit.Str)
			}
		case Timestamp:
			if c.lit.Type != EdmDateTime {
				never = append(never, "Timestamp is an Edm.DateTime and never compares with "+c.lit.Type.String()+" "+formatLiteral(c.lit))
			}
			others = append(others, c.prop)
		default:
			others = append(others, c.prop)
		}
	}
	others = dedupe(others)

	p := &Plan{}
	if pk.eq {
		x := pk.lo
		switch {
		case rk.single():
			p.Class = ClassPoint
			p.Ranges = []KeyRange{PointRange(x, rk.lo)}
			p.Reason = "PartitionKey and RowKey are both fixed by eq, so the service reads one entity."
			p.Advice = "Nothing to improve: a point query is the cheapest read there is."
		case rk.bounded:
			p.Class = ClassRange
			p.Ranges = []KeyRange{rowRange(x, &rk)}
			p.Reason = "PartitionKey is fixed by eq and RowKey is bounded, so the service reads one run of keys inside partition " + formatLiteral(String(x)) + "."
			p.Advice = "Good shape: keep the RowKey range as tight as the question allows; RowKey prefixes (such as 'email_') let one range read just one kind of entity."
		default:
			p.Class = ClassPartitionScan
			p.Ranges = []KeyRange{PartitionRange(x)}
			switch {
			case rowKeyOr:
				p.Reason = "PartitionKey is fixed by eq, but the RowKey conditions are joined by 'or', which the service does not turn into ranges: it reads the whole partition " + formatLiteral(String(x)) + "."
				p.Advice = "Run one point query per RowKey value instead (in parallel if you like): each reads one entity, where this reads the partition."
			case rowKeyNot:
				p.Reason = "PartitionKey is fixed by eq, but RowKey is only excluded (ne or not), which narrows nothing: the service reads the whole partition " + formatLiteral(String(x)) + "."
				p.Advice = "An exclusion cannot shrink a read; if the wanted rows share a RowKey prefix or range, ask for that range (ge … and lt …) instead."
			case len(others) > 0:
				p.Reason = "PartitionKey is fixed by eq but RowKey is not, so the service reads every entity of partition " + formatLiteral(String(x)) + " and checks " + strings.Join(others, ", ") + " on each."
				p.Advice = "If you look entities up by " + others[0] + " often, store a copy under a RowKey such as '" + strings.ToLower(others[0]) + "_<value>' in the same partition (intra-partition secondary index), or build " + others[0] + " into a compound RowKey, to make this a point or range query."
				if others[0] == Timestamp {
					p.Advice = timeAdvice
				}
			default:
				p.Reason = "PartitionKey is fixed by eq and nothing narrows RowKey, so the service reads the whole partition " + formatLiteral(String(x)) + "."
				p.Advice = "Reading a whole partition is fine when you need all of it; add RowKey bounds to read less."
			}
		}
		if pk.empty() {
			p.Ranges = nil
			p.Reason = "The PartitionKey conditions exclude each other, so the filter matches nothing and nothing is read."
			p.Advice = "Check the PartitionKey conditions: a key has one value, so two different eq values (or an eq outside the bounds) can never hold together."
		} else if rk.empty() {
			p.Ranges = nil
			p.Reason = "The RowKey conditions exclude each other, so the filter matches nothing and nothing is read."
			p.Advice = "Check the RowKey bounds: the lower one lies above the upper one."
		}
	} else {
		p.Class = ClassTableScan
		p.Ranges = []KeyRange{partitionSpan(&pk)}
		switch {
		case pk.bounded && !pk.eq:
			p.Reason = "PartitionKey is only bounded, not fixed by eq: a table scan in the guide's terms, but it reads only the partitions in " + p.Ranges[0].String() + ", each one after the other."
			p.Advice = "Fine for batch and export work; for interactive queries fix PartitionKey with eq, since every partition in the range is a separate server hop."
		case partitionOr:
			p.Reason = "PartitionKey is compared under 'or' (or 'not'), so no single partition is named and the service scans every partition."
			p.Advice = "Run one query per partition instead (in parallel if you like), each with PartitionKey eq, and merge the results."
		case rk.bounded || rowKeyOr || rowKeyNot:
			p.Reason = "RowKey is filtered but PartitionKey is not fixed, so the service looks for the RowKey in every partition: a table scan."
			p.Advice = "Add PartitionKey eq to the query: with both keys it becomes a point or range query."
		case len(others) > 0:
			p.Reason = "No PartitionKey eq condition, so the service reads every partition and checks " + strings.Join(others, ", ") + " on each entity."
			p.Advice = "If you look entities up by " + others[0] + " often, keep copies keyed by it in other partitions (inter-partition secondary index) or an index entity per value listing the matching keys (index entities pattern)."
			if others[0] == Timestamp {
				p.Advice = timeAdvice
			}
		default:
			p.Reason = "No PartitionKey eq condition, so the service reads every partition."
			p.Advice = "Query by PartitionKey (and RowKey) to read a part of the table."
		}
		if pk.empty() {
			p.Ranges = nil
			p.Reason = "The PartitionKey bounds exclude each other, so the filter matches nothing and nothing is read."
			p.Advice = "Check the PartitionKey bounds: the lower one lies above the upper one."
		} else if rk.empty() {
			p.Ranges = nil
			p.Reason = "The RowKey conditions exclude each other, so the filter matches nothing and nothing is read."
			p.Advice = "Check the RowKey bounds: the lower one lies above the upper one."
		}
	}
	if len(never) > 0 {
		p.Ranges = nil
		p.Reason = never[0] + ", so the filter matches nothing and nothing is read."
		p.Advice = "Write the key as a string literal, e.g. RowKey eq '00010' (pad numbers to a fixed width so they sort right)."
		if strings.HasPrefix(never[0], Timestamp) {
			p.Advice = "Compare Timestamp with a datetime literal, e.g. Timestamp ge datetime'2014-08-22T00:00:00Z'."
		}
	}
	return p
}

// timeAdvice is the advice for filtering on Timestamp, which no index covers.
const timeAdvice = "Timestamp is not indexed: to read recent entities cheaply, put the time in the RowKey (the log tail pattern uses inverted ticks so the newest sort first) and read a RowKey range."

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
