// Package boltfile reads the pages of a bbolt database file itself, with
// pread, trusting nothing in them: the two copies of the header (meta),
// the free-page list, branch and leaf pages. It is all of tstable that
// knows how bbolt lays out its file; it knows nothing of tables (the
// store above it gives the keys and buckets their meaning). On it stand:
//
//   - the guard (Guard, Checker), which checks the branch pages on a
//     transaction's way down a tree before the engine follows them, so a
//     damaged page is an error and never a loop, a fault or a panic;
//   - the leaf cursor (LeafCursor), which scans the leaves of one
//     snapshot itself, in long reads, for the store's fast scans;
//   - the walker (Walker), which reads a whole file page by page for
//     check and recover;
//   - Reach, the pages a state of the file uses and the damage on the
//     way to them, read from the branch pages alone (about one page in a
//     hundred): the store compares them with the free-page list before
//     it lets the engine write, and confirms a damage finding with them.
//
// It takes a Snapshot (transaction id, size, page size, root page), never
// one of the engine's transactions, and it never writes.
//
// # Format and versions
//
// It reads format version 2 (Version), the only format bbolt has written
// since v1.3, and was verified against bbolt v1.4.3 (VerifiedEngine): the
// layout (layout.go), the rules below and the panic texts. A test fails
// when the module builds with a bbolt not in VerifiedEngine; before a
// version is added there, its source is read again for each rule below.
//
// # Reading pages beside the engine
//
// A reader of this package reads the pages of a snapshot while the
// engine's transaction of that snapshot is open, and that is safe because
// the engine's pages are copy-on-write: a write transaction never changes
// a page in place; it writes the pages it changes to pages taken from the
// free-page list (or past the high-water mark), and the pages it replaced
// go on the list as pending, with its transaction id. They become free
// only once no read transaction that began before that id is open (the
// engine's ReleasePendingPages, at the start of the next write transaction). So no
// writer, in this process or another, reuses a page that a live read
// transaction can reach, and while it is open, pread of a page reachable
// from its root returns the very bytes its memory map shows. Across
// processes, a process that reads holds the file's shared lock, under
// which no other process writes at all.
//
// One rule follows from the engine's locks, and a deadlock taught it: a
// goroutine never holds one read transaction while it begins another. A
// writer that must map more of the file waits for every open reader to
// end, and a reader that begins meanwhile waits for that writer; a
// goroutine holding the first and beginning the second waits for itself.
// A reader that needs the snapshot on several goroutines begins one
// transaction and hands its Snapshot to each.
//
// # The engine's rules it relies on
//
//   - Transaction ids: a read transaction's id is the id of the last
//     committed transaction (the txid of the meta in use), a write
//     transaction's is that plus one, and each commit writes the meta with
//     its id into page txid%2. So a reader that begins right after a
//     commit carries the writer's id (the guard keeps readers and the
//     writer apart), and a writer's free-page list is the one the meta
//     with its id minus one names.
//   - The meta in use is the valid copy (signature, version, checksum)
//     with the higher transaction id; the page size is found in the first
//     valid copy, at page 0, else at each possible page size.
//   - Size and pages: a transaction's size is its meta's page count (the
//     high-water mark) times the page size; every page in use lies below
//     that mark, and the file is at least that long.
//   - A meta page is written whole at each commit (tx.writeMeta: a buffer
//     of one page, the meta at its start, zeros after it), and only the
//     meta is ever read from it (its first 80 bytes). So the bytes of a
//     meta page past SpareOffset are the store's to use: what is written
//     there into the page that the running transaction will not write
//     (page txid%2 is the one it writes) stays until the commit after it.
//   - A bucket's value is its root page and sequence (16 bytes), followed,
//     when the root is 0, by its one leaf page inline.
//   - The free-page list written at a commit holds every free page and
//     every pending one (the engine's Copyall), so a page is in use or on
//     that list, never both and never neither.
//   - Panics: the engine checks a page it reads through its map with
//     assertions whose texts name the page ("assertion failed: Page
//     expected to be: N, but self identifies as M"; "page N: has
//     unexpected type/flags: F"; "invalid page type: N: F"); a page whose
//     entries point outside it makes an index or slice-bounds runtime
//     error; a fault reading past the end of a cut file is a runtime error
//     with an address. DescribePanic understands these, and a test makes
//     the engine panic on a damaged page and checks that it still does.
package boltfile

// VerifiedEngine lists the versions of go.etcd.io/bbolt this package was
// verified against.
var VerifiedEngine = []string{"v1.4.3"}
