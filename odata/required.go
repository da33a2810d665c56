package odata

// TextsRequired are texts an entity must hold, among its properties other
// than its keys, for f to match it: the literal of every comparison
// "P eq 'text'" of a string that f requires (one on its own, or under
// and, never under or or not), P being neither PartitionKey nor RowKey. An
// entity with no string property equal to each of them cannot match, so a
// store that keeps strings as their bytes may pass over an entity whose
// stored bytes do not contain one of them without reading its properties.
// Empty texts are left out (every entity holds them).
func (f *Filter) TextsRequired() []string {
	if f == nil {
		return nil
	}
	var out []string
	var walk func(n *node)
	walk = func(n *node) {
		switch {
		case n == nil:
		case n.kind == nodeAnd:
			walk(n.left)
			walk(n.right)
		case n.kind == nodeCompare && n.op == opEq && n.lit.Type == EdmString && n.lit.Str != "" &&
			n.prop != PartitionKey && n.prop != RowKey:
			out = append(out, n.lit.Str)
		}
	}
	walk(f.root)
	return out
}
