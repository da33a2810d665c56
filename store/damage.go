package store

import (
	"os"
	"sync"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// ErrDamaged marks every error that reports damage in a database file:
// each DatabaseDamaged error the store returns wraps it, so
// errors.Is(err, ErrDamaged) tells damage from every other failure. The
// store's own findings (a page, a panic of the engine on one, a stored
// value that does not decode) wrap it too.
var ErrDamaged = boltfile.ErrDamaged

// damageError is a DatabaseDamaged error: an *odata.Error for people and
// the service (errors.As finds it), marked with ErrDamaged.
type damageError struct{ e *odata.Error }

func (d *damageError) Error() string   { return d.e.Error() }
func (d *damageError) Unwrap() []error { return []error{d.e, ErrDamaged} }

// damagef is a DatabaseDamaged error with the message format gives.
func damagef(format string, args ...any) *damageError {
	return &damageError{odata.Errorf(odata.CodeDatabaseDamaged, format, args...)}
}

// damagedError says that the database at path is damaged, what is wrong,
// and what to do.
func damagedError(path, what string) *damageError {
	return damagef("database %s is damaged: %s. tstable makes no further change to it: run tstable check %s to list the damage, then tstable recover %s NEW to copy what can still be read into a new file", path, what, path, path)
}

// damaged lists the files this process found damaged. Each is kept open
// (on a handle of its own, holding no lock), so that its inode, by which
// it is recognised, cannot be reused for another file.
var damaged struct {
	sync.Mutex
	files []damagedFile
}

type damagedFile struct {
	f    *os.File
	info os.FileInfo
	what string
}

// markDamaged records that the file open as f (at path) is damaged.
func markDamaged(f *os.File, path, what string) {
	st, err := f.Stat()
	if err != nil {
		return
	}
	keep, err := os.Open(path)
	if err != nil {
		return
	}
	if kst, err := keep.Stat(); err != nil || !os.SameFile(st, kst) {
		keep.Close()
		return
	}
	damaged.Lock()
	defer damaged.Unlock()
	if len(damaged.files) == maxDamaged { // a process that meets this many damaged files forgets the oldest
		damaged.files[0].f.Close()
		damaged.files = damaged.files[1:]
	}
	damaged.files = append(damaged.files, damagedFile{keep, st, what})
}

// maxDamaged is how many damaged files a process remembers (and keeps open).
const maxDamaged = 64

// damagedEarlier returns the DatabaseDamaged error for a file this process
// found damaged before, or nil.
func damagedEarlier(st os.FileInfo, path string) error {
	damaged.Lock()
	defer damaged.Unlock()
	for _, d := range damaged.files {
		if os.SameFile(d.info, st) {
			return damagedError(path, d.what+" (found earlier in this process)")
		}
	}
	return nil
}
