// Package values is how a tstable file stores its entities, as bytes:
// the layout of its keys (keylayout.go), the values of format 1
// (codec.go) and of formats 2 and 3 (codec2.go), the tables'
// dictionaries of shapes that those name (shapes.go), a table's codec
// that reads and writes them in the file's format (tablecodec.go), the
// odata.Record a filter reads straight from a stored value (RawRecord),
// the text sieve of filtered scans (sieve.go), and the format's version
// and the names of the file's buckets and records (fileformat.go).
//
// It is pure code: no engine type, no file. Where a codec needs the
// table's dictionary from a transaction, it reads it through a
// ShapeSource, which the store's transactions implement; Check and
// Recover read dictionaries they gathered from the file's pages
// (StaticShapes). The store, its bulk loader and its repair read and
// write every entity through this package, so that one place says what
// the bytes mean.
package values
