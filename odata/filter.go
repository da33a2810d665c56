package odata

// Filter is a parsed and type-checked $filter expression.
type Filter struct {
	src string
}
