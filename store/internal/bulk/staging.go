package bulk

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// Staged loads. A load into an empty table with a kind of operation whose
// result does not depend on what the table holds (insert, insert or
// replace, insert or merge) writes while it reads, as long as the source
// comes in ascending key order: its entities go, chunk by chunk, into a
// staging bucket, a top-level bucket named values.StagingPrefix + the process's
// id + ":" + a random suffix, holding one bucket under the table's own
// bucket key. Once the whole source is read, one transaction replaces the
// (still empty) table's bucket with the staged one. Readers see the table
// empty until then, and all of it after: a load that stops early leaves
// the table empty, and removes its staging bucket.
//
// When a key comes that is not after the one before it, the entities
// staged so far are read back into the load's sorted runs, the staging
// bucket is removed, and the load goes on as any other. It does the same
// when the table is no longer empty at the swap.
//
// A load killed before it could remove its staging bucket leaves it in
// the file; Open for writing and Load remove those whose process is gone.
// They are not tables: the catalogue does not list them.
//
// Beside the staged table's bucket, a staging bucket holds the key
// values.StagingMarker. Recover reads it when the list of tables is lost: the
// pages below a staging bucket that is still in use hold the rows of a
// load that did not finish, which by the rule above were never committed.

// stager is a load's staging.
type stager struct {
	parent  []byte // the staging bucket
	child   []byte // the table's bucket key, under parent
	created bool   // parent exists in the file
	mem     *arena
	batch   []loadRec  // read, not yet staged
	began   time.Time  // when the batch began
	prev    []byte     // the last key read
	first   []byte     // the first key staged
	n       int64      // entities staged (committed)
	skipped []int64    // positions refused while staging, for the positions of the staged entities when read back
	pending chan error // the batch being staged tells its end here; nil when none is
}

func newStager(table string) *stager {
	var r [8]byte
	rand.Read(r[:])
	return &stager{
		parent: []byte(values.StagingPrefix + strconv.Itoa(os.Getpid()) + ":" + hex.EncodeToString(r[:])),
		child:  values.TableBucket(table),
		mem:    &arena{},
	}
}

// stagingGone is the error of a load whose staging bucket another process
// removed while the load stepped aside.
func (l *loader) stagingGone() error {
	return fmt.Errorf("the import's staging bucket %q was removed by another process; nothing of this import was written", l.st.parent)
}

// stage takes one record read from the source while staging: it returns
// false, having staged nothing, when the record's key is not after the
// previous one (the caller then falls back to sorted runs).
func (l *loader) stage(pk, rk string, ticks int64, props []odata.Property, pos int64) (bool, error) {
	st := l.st
	key := st.mem.key(l.l, pk, rk)
	if st.prev != nil && bytes.Compare(key, st.prev) <= 0 {
		return false, nil
	}
	if len(st.batch) == 0 {
		st.began = time.Now()
	}
	st.batch = append(st.batch, loadRec{key: key, val: st.mem.value(ticks, props), pos: pos, kept: true})
	st.prev = key
	// The clock is read every 16 records: a source that trickles (a few
	// rows a second) still hands over a batch, and lets a waiting process
	// in, about every l.every.
	if len(st.batch) >= l.size || (len(st.batch)&15 == 0 && time.Since(st.began) >= l.every) {
		return true, l.flushStage()
	}
	return true, nil
}

// flushStage hands the batch to a goroutine that commits it into the
// staging bucket (taking the file back for it) and then lets the file go
// again, while the load reads on; it first waits for the batch handed
// before.
func (l *loader) flushStage() error {
	st := l.st
	if err := l.waitStage(); err != nil || len(st.batch) == 0 {
		return err
	}
	if !st.created && st.first == nil {
		// The first batch takes the file only if no one holds it: the
		// process that does may be the one writing the source (export |
		// import on one file), which waits for this load to read on.
		// Then the whole source is read first, into sorted runs, as a
		// load not staged reads it.
		if ok, err := l.e.TakeBackNow(); err != nil || !ok {
			if err != nil {
				return err
			}
			return l.unstage()
		}
	}
	batch, mem := st.batch, st.mem
	st.batch, st.mem = make([]loadRec, 0, cap(batch)), &arena{}
	st.prev = bytes.Clone(st.prev) // the arena it was in goes with the batch
	if st.first == nil {
		st.first = bytes.Clone(batch[0].key)
	}
	st.pending = make(chan error, 1)
	go func() {
		err := l.writeStage(batch, mem)
		if err == nil {
			err = l.e.Release(l.ctx)
		}
		st.pending <- err
	}()
	return nil
}

// waitStage waits for the batch being staged, if any, and returns its
// error.
func (l *loader) waitStage() error {
	st := l.st
	if st.pending == nil {
		return nil
	}
	err := <-st.pending
	st.pending = nil
	if err != nil {
		return l.stageCommitError(err)
	}
	if l.opts.Progress != nil {
		l.opts.Progress(st.n)
	}
	return nil
}

// writeStage commits a batch into the staging bucket.
func (l *loader) writeStage(batch []loadRec, mem *arena) error {
	st := l.st
	var written int64
	err := l.e.Do(true, false, func(o Call) error {
		if err := l.sameFormat(); err != nil {
			return err
		}
		t, err := o.Begin()
		if err != nil {
			return err
		}
		defer t.Rollback()
		b, err := l.stagingTree(t)
		if err != nil {
			return err
		}
		ticks, err := t.NextTicks(0)
		if err != nil {
			return err
		}
		// The staging tree is this load's own, its keys ascending: every
		// entity is appended as it is.
		w := &chunkWriter{t: t, b: b, kind: l.kind, mem: mem, keep: l.keep, ticks: ticks, latest: ticks, appending: true}
		for i := range batch {
			if i&1023 == 1023 {
				if err := l.ctx.Err(); err != nil {
					return err // the batch is rolled back, and the load drops the stage
				}
			}
			if err := w.put(&batch[i]); err != nil {
				var ref *refusal
				if errors.As(err, &ref) {
					return ref.err
				}
				return err
			}
		}
		if err := w.finish(); err != nil {
			return err
		}
		if err := t.Commit(); err != nil {
			return err
		}
		written = w.written
		return nil
	})
	if err != nil {
		return err
	}
	st.created = true
	st.n += written
	return nil
}

// stagingTree is the staged table's bucket in t, made with its staging
// bucket when this load has not staged anything yet.
func (l *loader) stagingTree(t Tx) (Bucket, error) {
	st := l.st
	if !st.created {
		return t.CreateStaging(st.parent, st.child)
	}
	b, err := t.Staged(st.parent, st.child)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, l.stagingGone()
	}
	return b, nil
}

// stageCommitError gives a failed commit of a staged load its FromKey:
// nothing of the load is in the table, so it is the load's first key.
func (l *loader) stageCommitError(err error) error {
	var ce *backend.CommitError
	if errors.As(err, &ce) && ce.FromKey == nil {
		if first := l.st.first; first != nil {
			from := l.l.ODataKey(first)
			ce.FromKey = &from
		}
	}
	return err
}

// unstage ends staging: the entities staged and those read since go into
// the sorted runs, with their source positions, and the staging bucket is
// removed.
func (l *loader) unstage() error {
	st := l.st
	if err := l.waitStage(); err != nil {
		return err
	}
	pos, skip := int64(0), 0
	nextPos := func() int64 {
		for skip < len(st.skipped) && st.skipped[skip] == pos {
			pos++
			skip++
		}
		pos++
		return pos - 1
	}
	add := func(k, v []byte) error {
		if !l.keep {
			clear(v[1:9]) // stamped when staged; written again, it gets the time of that write
		}
		return l.runs.addRaw(k, v, nextPos())
	}
	if st.created {
		var after []byte
		for done := false; !done; {
			err := l.e.Do(false, true, func(o Call) error { // once: the records go to the load's runs as they are read
				if err := l.sameFormat(); err != nil {
					return err
				}
				return o.View(func(t Tx) error {
					b, err := l.stagingTree(t)
					if err != nil {
						return err
					}
					n := 0
					var aerr error
					err = b.Scan(after, func(k, v []byte) bool {
						rec, err := b.Codec().Record(k, v)
						if err != nil {
							aerr = err
							return false
						}
						if aerr = add(bytes.Clone(k), bytes.Clone(rec)); aerr != nil {
							return false
						}
						after = append(after[:0], k...)
						n++
						return n < l.size
					})
					if err == nil {
						err = aerr
					}
					done = err == nil && n < l.size
					return err
				})
			})
			if err != nil {
				return err
			}
			if !done {
				if err := l.e.StepAside(l.ctx); err != nil {
					return err
				}
			}
		}
	}
	for i := range st.batch {
		if err := add(st.batch[i].key, st.batch[i].val); err != nil {
			return err
		}
	}
	if err := l.dropStage(); err != nil {
		return err
	}
	l.st = nil
	return l.e.Release(l.ctx) // the rest of the source is read with the file let go
}

// dropStage removes the staging bucket.
func (l *loader) dropStage() error {
	st := l.st
	if st != nil {
		l.waitStage()
	}
	if st == nil || !st.created {
		return nil
	}
	err := l.e.Do(true, false, func(o Call) error {
		return o.Update(func(t Tx) error { return t.DropStaging(st.parent) })
	})
	if err == nil {
		st.created = false
	}
	return err
}

// swapIn ends a staged load whose source is all read: one transaction
// puts the staged bucket in place of the table's, which must still be
// empty. It returns false, having unstaged the load, when the table is not
// empty any more.
func (l *loader) swapIn() (bool, error) {
	if err := l.flushStage(); err != nil {
		return false, err
	}
	if l.st == nil { // unstaged by flushStage: the file was held
		l.runs.finish()
		return false, nil
	}
	if err := l.waitStage(); err != nil {
		return false, err
	}
	st := l.st
	if !st.created {
		l.st = nil
		return true, nil
	}
	full := false
	err := l.e.Do(true, false, func(o Call) error {
		if err := l.sameFormat(); err != nil {
			return err
		}
		return o.Update(func(t Tx) error {
			b, err := t.Table(l.table)
			if err != nil {
				return err
			}
			if k, err := b.First(); err != nil || k != nil {
				if err == nil {
					full, err = true, errNotEmpty
				}
				return err
			}
			staged, err := t.Staged(st.parent, st.child)
			if err != nil {
				return err
			}
			if staged == nil {
				return l.stagingGone()
			}
			return t.SwapIn(st.parent, st.child)
		})
	})
	if full {
		if err := l.unstage(); err != nil {
			return false, err
		}
		l.runs.finish()
		return false, nil
	}
	if err != nil {
		return false, l.stageCommitError(err)
	}
	st.created = false
	l.st = nil
	l.res.Written = st.n
	return true, nil
}

var errNotEmpty = errors.New("the table is not empty")
