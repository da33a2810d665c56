package store

import (
	"encoding/binary"
	"fmt"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// FormatVersion is the format this tstable writes (see DB.Format).
const FormatVersion = values.FormatVersion

// FormatNote says what an older format means for people, and how to
// leave it; "" for the current one.
func FormatNote(v uint64) string {
	if v >= values.FormatVersion {
		return ""
	}
	if v >= 2 {
		return fmt.Sprintf("the file is in format %d (each table's property names kept on pages of their own, whose loss loses the names of all its entities); tstable compact rewrites it in format %d (with a copy of the names in the file's header, so that recover reads every page that survives)", v, values.FormatVersion)
	}
	return fmt.Sprintf("the file is in format %d (keys in code point order, property names in every entity); tstable compact rewrites it in format %d (keys in the service's order, UTF-16 code units, and a smaller file)", v, values.FormatVersion)
}

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
			m, err := t.top(values.MetaBucket)
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
		return values.FormatVersion, nil
	}
	v, err := m.get(values.FormatKey)
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
	return m.put(values.FormatKey, b[:])
}

// newerFormat is the refusal of a file this tstable cannot read: the
// format is one it does not implement.
func newerFormat(path string, v uint64) error {
	return odata.Errorf(odata.CodeNotImplemented, "database %s is in file format %d, which a newer tstable wrote; this one reads format %d and older: use a tstable as new as the one that wrote it", path, v, values.FormatVersion)
}

// checkFormat refuses a file of a newer format than this tstable's.
func checkFormat(t *gtx) error {
	m, err := t.top(values.MetaBucket)
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
	if v > values.FormatVersion {
		return newerFormat(t.o.db.path, v)
	}
	return nil
}
