package values

import (
	"bytes"
	"strings"
)

// The file records the version of its format under FormatKey in the meta
// bucket (8 bytes, big-endian), so that the layout can change: a tstable
// opens files of its own format and older ones (a tstable that brings a
// format 2 must read format 1, or name the command that rewrites it), and
// refuses a file of a newer format with a message that says so, instead of
// reading it wrongly. Compact copies the record with the rest of the meta
// bucket. A file without the key was written before the version was
// recorded, in format 1.
//
// Format 1: one bucket per table (TablePrefix + lower-cased name), keys
// PartitionKey 0x00 RowKey, values as EncodeEntity writes them; the meta
// bucket holds the catalogue, the clock and the format. The clock is the
// last Timestamp issued (8 bytes, big-endian ticks), and every committed
// write transaction advances it (those that write no entity too), so of
// two states of the file (two lists of tables) the one with the later
// clock is the newer: Recover and Check rely on it when the file's
// headers cannot say which state is the newest. (Files written before
// this rule advanced it with the writes of entities only.)
//
// Format 2 keeps all of that and changes two things. Keys are in the
// service's order, UTF-16 code units: each byte of both keys is mapped by
// odata.UTF16Byte (keylayout.go), so that the engine's byte order of the
// stored keys is that order. Values name their properties through the
// table's dictionary of shapes (shapes.go, codec2.go) and pack each value
// by its type; the dictionaries live in the top-level bucket
// ShapesBucket, and a table's bucket holds its incarnation as its
// sequence. A file of format 1 stays in format 1, read and written as
// ever (its tables in code point order, which its filters follow too);
// tstable compact rewrites it in format 2 (Compact, the store's upgrade.go).
//
// Format 3 keeps all of format 2 and adds a copy of the tables and their
// dictionaries in the spare bytes of the file's header (the store's spare.go), so
// that no single page holds what the entities of other pages need to be
// read. Its keys and values are format 2's; a file of format 2 stays in
// format 2, written as ever (without the copy), until compact rewrites
// it in format 3.
const FormatVersion = 3

// The names the file's format gives its top-level buckets and its own
// records (shapes.go says what the dictionaries hold; the store's
// staging.go, what a load's staging does).

// Bucket layout: MetaBucket holds the table catalogue (lower-cased name →
// name as created) under CatalogueKey and the last Timestamp issued under
// ClockKey; each table's entities live in their own top-level bucket named
// TablePrefix + lower-cased name, keyed by PartitionKey 0x00 RowKey.
var (
	MetaBucket   = []byte("meta")
	CatalogueKey = []byte("tables")
	ClockKey     = []byte("clock")
	TablePrefix  = "t:"
)

// TableBucket is the name of the top-level bucket of the entities of
// table name: TablePrefix and the name lower-cased, so that names are
// unique whatever their case.
func TableBucket(name string) []byte { return []byte(TablePrefix + strings.ToLower(name)) }

// FormatKey is where the meta bucket records the file's format.
var FormatKey = []byte("format")

// StagingPrefix starts the name of a staging bucket.
const StagingPrefix = "import:"

// StagingMarker is the key that marks a staging bucket's own page.
var StagingMarker = []byte("staging")

// ShapesBucket is the top-level bucket of the tables' dictionaries.
var ShapesBucket = []byte("shapes")

// The bounds of one table's dictionary.
const (
	MaxShapes     = 4096
	MaxShapeBytes = 1 << 20
)

// ShapesPin is the empty bucket that keeps the dictionaries on pages of
// their own; it sorts after every shape (an incarnation is below 2^63).
var ShapesPin = []byte{0xFF}

// HoldsBuckets says which trees hold buckets in their leaves (see
// boltfile.Nested): the top-level tree, the file's own records (the
// catalogue is a bucket in it), a staging bucket (the staged table is
// one in it) and the bucket of the tables' dictionaries (see ShapesPin); a
// table's never does.
func HoldsBuckets(path [][]byte) bool {
	switch len(path) {
	case 0:
		return true
	case 1:
		return bytes.Equal(path[0], MetaBucket) || bytes.HasPrefix(path[0], []byte(StagingPrefix)) || bytes.Equal(path[0], ShapesBucket)
	}
	return false
}
