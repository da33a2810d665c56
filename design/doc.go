// Package design reads a table the way a table designer would: it takes the
// entities of one table as a stream (in key order, as backend.Backend.Query
// delivers them) and reports the table's shape (Stats), what is wrong with
// its keys and properties (Lint), and how to make a set of queries cheaper
// (Advise). Everything here keeps a bounded amount of state, so a table of
// any size is read once without holding it in memory.
package design
