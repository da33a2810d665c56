// Package store is tstable's local engine: an implementation of the
// contract every command talks to (package backend) over a single bbolt
// file that holds many tables with the full semantics of Azure Table
// Storage.
//
// # The file's format
//
// The file records the version of its format (format.go). What its bytes
// mean is the internal package values, pure code: a new file is written
// in format 2's layout, its tables keeping their keys in the service's
// order, UTF-16 code units (values/keylayout.go, odata.Order), and each
// table storing the names and types of its entities' properties once, in
// its dictionary of shapes, so that a value holds only its Timestamp, the
// number of its shape and its payloads, packed by type
// (values/shapes.go, values/codec2.go). A file of format 1 is read and
// written as it always was, in code point order with names in every
// value (values/codec.go), its filters comparing text in that order too,
// until Compact rewrites it in format 2 (upgrade.go), keeping every
// table, entity, property and Timestamp. Every read and write of
// entities goes through the table's codec (values.Codec), which the
// table's bucket carries, reading the table's dictionary from the
// transaction (tabletx.go); a load's records are in format 1's
// encoding whatever the file's format, and become stored values as they
// are written.
//
// A new file is written in format 3: format 2, and a copy of its tables
// and their dictionaries in the spare bytes of its header (spare.go), so
// that the loss of no single page, and no cut, keeps the entities of the
// pages that survive from being read. A file of format 2 is read and
// written as format 2 until Compact rewrites it in format 3.
//
// # Sharing the file
//
// A DB opened for writing holds the file exclusively, one opened read-only
// shares it with other readers. Open waits for another process to let go
// of the file for Options.Wait (DefaultWait, 5 s, when 0), calling
// Options.OnWait once with who holds it ("tstable import People big.jsonl
// (pid 4711)"), then fails with DatabaseLocked naming that process.
//
// The lock is the engine's flock on Unix; on Linux the holders are read
// from /proc/locks and a waiting process marks itself with an open file
// description lock (holder_linux.go). On Windows the lock is a byte range
// locked with LockFileEx, with a byte per holding process and a mark for
// waiters beside it (lock_windows.go, holder_windows.go). On macOS the
// holders are not named ("another process") and a long load does not see
// who waits, so it keeps the file while it checks and writes (not while
// it reads its source, below).
//
// Load does not keep the file for the whole of a long import. It reads
// and checks its whole source before it writes anything (package bulk,
// through the store's guarded transactions; sorting it by
// key, through a temporary file next to the database when it is large),
// then writes it in key order, committing a chunk every 50,000 entities
// or about a second, whichever comes first. While it reads its source it
// does not hold the file at all (a staged load takes it back for each
// batch it commits, below), so a source that waits — a producer that
// trickles, or is silent — never keeps other processes out; the next call
// takes the file back, waiting as Open does. While it checks, and between
// two chunks, when another process waits for the file, it closes it, lets
// that process in, and opens it again (waiting as Open does). What the
// other process sees meanwhile is the chunks committed so far: the
// source's entities up to some key, never part of a chunk. A
// load into an empty table whose source comes in key order instead writes
// its chunks into a staging bucket while it reads, and the table shows
// nothing of it until one transaction puts all of it in place at the end.
//
// # Counts
//
// A count is what was committed. A load stopped by a refused entity (or
// the source's own error, or a cancelled context) while it reads and
// checks writes nothing. When a commit fails (a full disk, an I/O error),
// its transaction is rolled back and the write returns a *backend.CommitError;
// LoadResult.Written is then exactly what the file holds from that load,
// and CommitError.FromKey is the first key of the lost chunk: the file
// holds the load's entities before that key and none from it on. For a
// staged load (into an empty table) that key is the first, and the table
// stays empty.
//
// # Readers and writers at once
//
// In one process, any number of calls run at once: reads beside each
// other and beside writes, writes one transaction at a time, those that
// arrive together committed as one (see commit.go). A read sees one
// snapshot of the file, the state of its start, for the whole call (a
// paged query's pages are separate calls); a write that was acknowledged
// is committed, and every read that begins after it sees it. Across
// processes, readers share the file and a writer has it alone (see
// Sharing the file). Concurrent use never makes a false damage report:
// what the guard keeps of a snapshot is kept per snapshot, never shared
// between a reader and the writer (boltfile.Guard), no goroutine holds
// one read transaction while it begins another, and a finding is
// confirmed before anyone hears of it (below).
//
// # Reading pages beside the engine
//
// The streaming scans (a filtered query without a page, an export) read
// the leaf pages of their snapshot themselves, with pread, in long runs
// (boltfile.LeafCursor), on several cores, while one read transaction of
// the engine pins that snapshot; the guard, Check and Recover read pages
// themselves too. All of that code is in the internal package boltfile,
// whose doc states the file format it reads, the engine versions it was
// verified against, and why reading pages beside the engine is safe.
//
// # Damage
//
// A damaged file is an error, never a crash. Open checks what is cheap to
// check before the engine maps the file (both copies of the header, the
// file's length against the pages the header counts, the root page) and
// refuses a file that fails with DatabaseDamaged; an empty file is not a
// database for reading. For writing, because the engine then allocates
// pages from the free-page list and writes the file's own records to the
// root, it also refuses, with nothing written, a file whose root is not
// the list of tables or whose free-page list is unreadable or names a
// page in use; and it reads every branch page of every tree (about one
// page in a hundred): damage there opens the file with every write
// refused. Every DB call runs guarded: a fault reading the mapped file (a
// file cut short), a page that is not what the engine expects, a branch
// page leading back up its tree or reached twice, a page in use that the
// free-page list names (for a write), a stored value that does not decode
// are findings. A finding marks nothing until it is confirmed: the file
// is read again under a read transaction of its own, trusting nothing the
// guard kept, and only damage found again ends the call with
// DatabaseDamaged, naming the page and telling to run tstable check and
// tstable recover. From then on the DB refuses every write (nothing is
// written) and this process opens the file for writing no more; reads go
// on, and fail only where they meet the damage, so a server keeps serving
// the sound parts. A finding not found again (a page that changed under
// the call) never reaches the caller as damage: the call runs once more,
// afresh, when the caller's code has not had anything of it yet and it
// has no effects outside its transaction, and otherwise fails with
// ServerBusy, which says nothing is damaged and to retry. Every
// DatabaseDamaged error, and every finding, wraps ErrDamaged.
//
// The caller's own code (a Query callback, a Load source or OnReject)
// runs outside the guard: its panic goes on untouched, and its error is
// returned as it is, never taken for damage.
//
// Damage the checks at open cannot see (a leaf page of random bytes in
// the middle) is found when a call reads it. Check reads the whole file
// and finds all of it; Recover copies what can still be read into a new
// file. Both read the file themselves, page by page, and never write it
// (package repair, which reads through boltfile and values alone).
// When no copy of the header can be read, or the readable one describes
// an older state than the file's pages hold, they find the newest state
// by scanning the pages (the clock orders the states; see
// values.FormatVersion) and say so. Both report the rows of an import that was killed while it
// staged them, which were never in the table. Compact refuses a damaged
// file, so that its copy does not keep the damage and drop the original.
package store
