// Package completions is what tstable suggests while a command is typed:
// command names and flags, table names, and, inside a $filter, property
// names, operators, keywords, literal prefixes and PartitionKey values.
//
// The same logic serves the interactive shell (Line, for a line being
// typed) and the command line's dynamic completion through cobra (Filter,
// Tables, Properties). What it needs from storage comes through a Source;
// Cache is the Source over a tstable backend, sampled and cached so that a
// keystroke never waits on a table scan.
package completions
