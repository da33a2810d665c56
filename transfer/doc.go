// Package transfer moves entities into and out of a backend.Backend: import
// of JSONL and CSV input (NewImport, Import.Into), the CSV form of entities
// in both directions (the header export writes is the header import reads),
// and copy of a table between two backends with a checkpoint after each
// chunk, so that an interrupted copy resumes (Copy).
//
// Nothing here writes to a terminal or knows the command line: each
// operation returns a typed outcome (ImportOutcome, CopyOutcome, RowError)
// that the caller puts into words.
//
// Invariants:
//
//   - Counts are of committed transactions: Written and Copied never count
//     an entity the backend did not commit, whether the operation ends
//     well or not.
//   - A copy's checkpoint names only committed chunks: it is written after
//     a chunk's load returns, so resuming from it skips nothing; it may
//     copy a chunk twice, which Insert Or Replace makes harmless.
//   - An import's rows keep their input order through the parallel JSONL
//     decoders, and each entity's line is known (for messages) however
//     many blank or rejected lines come before it.
package transfer
