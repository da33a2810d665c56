// Package odata holds tstable's model of Azure Table Storage data and its
// query language: Edm types and values, entities, the service's JSON wire
// format, the $filter/$select/$top language (lexer, parser, type rules,
// evaluation), and the planner that turns a filter into the key ranges to
// read and the design guide's query class.
//
// The package depends on nothing else in tstable, so the local store, the
// remote backend and the command line can all share it.
package odata
