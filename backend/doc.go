// Package backend is the contract between tstable's commands and the
// engines that keep tables, as database/sql/driver is between database/sql
// and its drivers: the Backend interface and its optional interfaces
// (JSONLQuerier, KeyOrderer), the write operations (OpKind, Operation),
// query requests and results (QueryRequest, QueryResult), bulk loads
// (EntitySource, LoadOptions, LoadResult), the checks every write passes
// before an engine runs it (Prepare, PrepareBatch), and the errors the
// contract speaks (*odata.Error for a refusal, CommitError, FileError,
// Coded).
//
// It holds no engine. Two implement it: the local bbolt file (package
// store) and the Table service reached over HTTP (package remote); the
// command line chooses one, and everything else (the shell, completion,
// design, transfer, the server, the contract's own test suite storetest)
// talks to whichever it is given, through this package alone.
//
// # What every engine guarantees
//
//   - The service's semantics: a refused operation is an *odata.Error with
//     the code the service would send (odata/errors.go), and a refused
//     operation of a batch carries its index; what the service keeps
//     (names, keys, sizes, property order after a write) is what Prepare
//     and PrepareBatch let through, checked before anything is written.
//   - Order: Query delivers entities in (PartitionKey, RowKey) order, the
//     service's UTF-16 order unless the backend says otherwise
//     (KeyOrderOf).
//   - All or nothing for a batch: up to 100 operations on one partition,
//     every one applied or none.
//   - Honest counts: LoadResult.Written is what was committed, and
//     QueryResult.Scanned is -1 when the engine cannot observe it, never a
//     guess.
//   - No secret in Describe.
//
// storetest runs one suite of these promises against every engine.
package backend
