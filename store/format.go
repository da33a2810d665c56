package store

import (
	"encoding/binary"
	"fmt"

	"github.com/tstable/tstable/odata"
)

// The file records the version of its format under formatKey in the meta
// bucket (8 bytes, big-endian), so that the layout can change: a tstable
// opens files of its own format and older ones (a tstable that brings a
// format 2 must read format 1, or name the command that rewrites it), and
// refuses a file of a newer format with a message that says so, instead of
// reading it wrongly. Compact copies the record with the rest of the meta
// bucket. A file without the key was written before the version was
// recorded, in format 1.
//
// Format 1: one bucket per table (tablePrefix + lower-cased name), keys
// PartitionKey 0x00 RowKey, values as encodeEntity writes them; the meta
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
// shapesBucket, and a table's bucket holds its incarnation as its
// sequence. A file of format 1 stays in format 1, read and written as
// ever (its tables in code point order, which its filters follow too);
// tstable compact rewrites it in format 2 (Compact, upgrade.go).
//
// Format 3 keeps all of format 2 and adds a copy of the tables and their
// dictionaries in the spare bytes of the file's header (spare.go), so
// that no single page holds what the entities of other pages need to be
// read. Its keys and values are format 2's; a file of format 2 stays in
// format 2, written as ever (without the copy), until compact rewrites
// it in format 3.
const formatVersion = 3

// FormatVersion is the format this tstable writes (see DB.Format).
const FormatVersion = formatVersion

// FormatNote says what an older format means for people, and how to
// leave it; "" for the current one.
func FormatNote(v uint64) string {
	if v >= formatVersion {
		return ""
	}
	if v >= 2 {
		return fmt.Sprintf("the file is in format %d (each table's property names kept on pages of their own, whose loss loses the names of all its entities); tstable compact rewrites it in format %d (with a copy of the names in the file's header, so that recover reads every page that survives)", v, formatVersion)
	}
	return fmt.Sprintf("the file is in format %d (keys in code point order, property names in every entity); tstable compact rewrites it in format %d (keys in the service's order, UTF-16 code units, and a smaller file)", v, formatVersion)
}

var formatKey = []byte("format")

// allocStep is how much the engine grows the file by when it must, once
// the file is past that size (bolt.DB.AllocSize; the engine's own, 16
// MiB, leaves up to that much of the file's end unused).
const allocStep = 1 << 20

// fileFormat reads the format of the file just opened, under the guard,
// before the DB is anyone's: a file without records yet is a new one, in
// the format it will be written in. When the records cannot be read, the
// format is taken as the newest; Open reports the damage.
func (db *DB) fileFormat() uint64 {
	v := db.newFormat()
	(&op{db: db}).run(func(o *op) error {
		return o.view(func(t *gtx) error {
			m, err := t.top(metaBucket)
			if err != nil || m == nil {
				return err
			}
			if f, err := formatOf(m); err == nil {
				v = f
			}
			return nil
		})
	})
	return v
}

// formatOf reads the format a file's meta bucket records.
func formatOf(m *gbucket) (uint64, error) {
	if m == nil {
		return formatVersion, nil
	}
	v, err := m.get(formatKey)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 1, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("its format version is unreadable (%d bytes, not 8)", len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// putFormat records format v in a new file's meta bucket.
func putFormat(m *gbucket, v uint64) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return m.put(formatKey, b[:])
}

// newerFormat is the refusal of a file this tstable cannot read: the
// format is one it does not implement.
func newerFormat(path string, v uint64) error {
	return odata.Errorf(odata.CodeNotImplemented, "database %s is in file format %d, which a newer tstable wrote; this one reads format %d and older: use a tstable as new as the one that wrote it", path, v, formatVersion)
}

// checkFormat refuses a file of a newer format than this tstable's.
func checkFormat(t *gtx) error {
	m, err := t.top(metaBucket)
	if err != nil {
		return err
	}
	if m != nil {
		if err := m.guardAll(); err != nil {
			return err
		}
	}
	v, err := formatOf(m)
	if err != nil {
		return damagedError(t.o.db.path, err.Error())
	}
	if v > formatVersion {
		return newerFormat(t.o.db.path, v)
	}
	return nil
}
