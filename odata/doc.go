// Package odata holds tstable's model of Azure Table Storage data and its
// query language: Edm types and values, entities, the service's JSON wire
// format, the $filter/$select/$top language (lexer, parser, type rules,
// evaluation), and the planner that turns a filter into the key ranges to
// read and the design guide's query class.
//
// The package depends on nothing else in tstable, so the local store, the
// remote backend and the command line can all share it.
//
// # Queries
//
// ParseFilter reads a $filter and Filter.Match evaluates it; PlanQuery says
// which keys a store must read, which of the guide's four classes the
// query is and why (a Diagnosis, with a stable id); Explain turns a plan
// and its counts into what "explain" shows.
// ParseSelect, Project and ParseTop handle $select and $top, and
// EncodeContinuation/DecodeContinuation the paging tokens.
//
// Where the service's documents leave a choice, tstable decides as follows;
// the full rules sit next to the code that applies them:
//
//   - Grammar, case-sensitivity, bare boolean properties, the limits on
//     comparisons (MaxComparisons) and nesting (MaxNesting): parser.go.
//   - Tokens and their positions, also of a filter being typed: lexer.go.
//   - Literal types (Int32 vs Int64 without L, datetime forms, binary):
//     literal.go.
//   - Comparing across types, missing properties, not, NaN, ordering of
//     Boolean and Guid: eval.go.
//   - The order of text, keys and strings alike (UTF-16 code units, as
//     the service; code points in a file of format 1): order.go.
//   - Query classes, key ranges and contradictions: plan.go; what each
//     diagnosis says to people: diagnosis.go.
//   - The JSON wire format: jsonformat.go; which JSON value becomes which
//     Edm type: jsontypes.go; the text forms CSV uses: valuetext.go.
//   - $select: a store projects with Project (keeping the keys and
//     Timestamp, which name the entity); the answer carries what the
//     service's does, AppendSelectedJSONAs (jsonmetadata.go).
//   - Continuation token layout and its two errors: continuation.go.
package odata
