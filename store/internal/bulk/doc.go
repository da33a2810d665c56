// Package bulk is the store's bulk loader: a Load reads its whole source,
// validating and encoding each entity and sorting them by key (in memory,
// or through a temporary file next to the database: extsort.go), checks
// the sorted entities against the table without writing, and then writes
// them in key order, a chunk per transaction (load.go); into an empty
// table whose source comes in key order, it stages them instead, written
// while they are read into a bucket that is not a table and put in the
// table's place at the end (staging.go). The store's DB.Load says what
// holds when a load stops early.
//
// It holds the load's logic apart from the engine: records are encoded
// by package values, and the file, its transactions and its buckets are
// reached through Engine, Tx and Bucket, which the store implements over
// its guarded transactions (the store's bulkload.go). The store keeps
// what only the engine can do: letting go of the file and taking it back,
// stepping aside for another process, and its guarded calls.
package bulk
