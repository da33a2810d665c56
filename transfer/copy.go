package transfer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// CopyChunk is about how many entities a copy reads, writes and
// checkpoints at a time (whole pages of up to 1000): memory holds one
// chunk whatever the table's size.
const CopyChunk = 5000

// Checkpoint is where an interrupted copy got to: the key to go on from
// and how many entities were committed before it. It is kept in a file
// as JSON.
type Checkpoint struct {
	Next   odata.Key `json:"next"`
	Copied int64     `json:"copied"`
}

// CheckpointPath names the checkpoint file of one copy, in dir: a hash of
// what tells copies apart (source, destination, tables, filter), so no
// secret is written in the name.
func CheckpointPath(dir string, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// ReadCheckpoint reads the checkpoint at path; false when there is none
// (or it cannot be read: the copy then starts over, which is safe).
func ReadCheckpoint(path string) (*Checkpoint, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var ck Checkpoint
	if json.Unmarshal(b, &ck) != nil {
		return nil, false
	}
	return &ck, true
}

// save writes ck to path whole: to a temporary file, then renamed over it.
func (ck Checkpoint) save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return backend.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	b, _ := json.Marshal(ck)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return backend.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return backend.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	return nil
}

// CopyRequest is one copy of a table (or the entities a filter matches)
// from one backend to another.
type CopyRequest struct {
	Table, ToTable string
	Filter         *odata.Filter // nil: every entity
	// Checkpoint is the checkpoint file's path (CheckpointPath); Resume,
	// when set, is the checkpoint to go on from.
	Checkpoint string
	Resume     *Checkpoint
	// Read opens the source for reading, runs fn and closes it; it is
	// called for each chunk, so the source is not held between chunks.
	Read func(ctx context.Context, fn func(backend.Backend) error) error
	// Open opens the destination for writing. With HoldOpen it is opened
	// once for the whole copy (a remote account); else once a chunk and
	// closed after it, so that other processes get a local file between
	// chunks.
	Open     func(ctx context.Context) (backend.Backend, error)
	HoldOpen bool
	// Progress, when set, is told after each chunk of the entities
	// committed so far in this run; AfterChunk, when set, is called after each chunk's
	// checkpoint with the count in all, and an error from it stops the
	// copy there (as an interruption would).
	Progress   func(copied int64)
	AfterChunk func(copied int64) error
}

// CopyOutcome is what a copy did, counted in committed entities.
type CopyOutcome struct {
	Copied       int64 // in this run
	Total        int64 // with those of the runs it resumed
	ResumedAfter int64 // committed by earlier runs (0 when it started over)
	// Resumable is set when the copy stopped and left a checkpoint to
	// resume from.
	Resumable bool
}

// Copy copies the entities of req.Table that req.Filter matches into
// req.ToTable (created when missing) with Insert Or Replace, a chunk at a
// time, recording a checkpoint after each. It removes the checkpoint when
// it completes. The outcome is returned with the error, counting what was
// committed before it.
func Copy(ctx context.Context, req CopyRequest) (*CopyOutcome, error) {
	cp := &copier{req: req}
	if req.Resume != nil {
		cp.ck, cp.start, cp.resumedAfter = *req.Resume, &req.Resume.Next, req.Resume.Copied
	}
	err := cp.run(ctx)
	out := &CopyOutcome{Copied: cp.ck.Copied - cp.resumedAfter, Total: cp.ck.Copied, ResumedAfter: cp.resumedAfter}
	if err != nil {
		_, serr := os.Stat(req.Checkpoint)
		out.Resumable = serr == nil
		return out, err
	}
	os.Remove(req.Checkpoint)
	return out, nil
}

// copier is one copy under way.
type copier struct {
	req          CopyRequest
	ck           Checkpoint // committed so far, and where the next chunk starts
	start        *odata.Key // nil: the beginning
	resumedAfter int64      // committed by the runs before this one
	dst          backend.Backend
}

// run creates the destination table, then copies chunk after chunk.
func (cp *copier) run(ctx context.Context) error {
	if cp.req.HoldOpen {
		b, err := cp.req.Open(ctx)
		if err != nil {
			return err
		}
		defer b.Close()
		cp.dst = b
	}
	err := cp.withDestination(ctx, func(dst backend.Backend) error {
		if err := dst.CreateTable(ctx, cp.req.ToTable); err != nil && !odata.IsCode(err, odata.CodeTableAlreadyExists) {
			return err
		}
		return nil
	})
	for err == nil {
		var more bool
		if more, err = cp.chunk(ctx); !more {
			break
		}
	}
	return err
}

// chunk copies the next chunk and records the checkpoint after it; more
// is false once the source is read to the end.
func (cp *copier) chunk(ctx context.Context) (more bool, err error) {
	chunk, next, err := cp.readChunk(ctx)
	if err != nil {
		return false, err
	}
	if len(chunk) > 0 {
		if err := cp.write(ctx, chunk); err != nil {
			return false, err
		}
	}
	if next == nil {
		return false, nil
	}
	cp.ck.Next, cp.start = *next, next
	if err := cp.ck.save(cp.req.Checkpoint); err != nil {
		return false, err
	}
	if cp.req.AfterChunk != nil {
		if err := cp.req.AfterChunk(cp.ck.Copied); err != nil {
			return false, err
		}
	}
	return true, nil
}

// readChunk reads whole pages from the source, with the source open,
// until it holds CopyChunk entities or the source ends (next nil).
// Timestamps and ETags are dropped: the destination sets its own.
func (cp *copier) readChunk(ctx context.Context) (chunk []*odata.Entity, next *odata.Key, err error) {
	start := cp.start
	err = cp.req.Read(ctx, func(from backend.Backend) error {
		for {
			req := backend.QueryRequest{Query: odata.Query{Filter: cp.req.Filter}, PageSize: odata.MaxTop, Start: start}
			res, err := from.Query(ctx, cp.req.Table, req, func(e *odata.Entity) error {
				chunk = append(chunk, e.Unversioned())
				return nil
			})
			if err != nil {
				return err
			}
			next, start = res.Next, res.Next
			if next == nil || len(chunk) >= CopyChunk {
				return nil
			}
		}
	})
	return chunk, next, err
}

// write loads a chunk into the destination as one load: on a remote
// destination its transactions go in parallel. What was committed is
// counted even when the load fails.
func (cp *copier) write(ctx context.Context, chunk []*odata.Entity) error {
	return cp.withDestination(ctx, func(dst backend.Backend) error {
		i := 0
		res, err := dst.Load(ctx, cp.req.ToTable, backend.OpInsertOrReplace, func() (*odata.Entity, error) {
			if i == len(chunk) {
				return nil, io.EOF
			}
			i++
			return chunk[i-1], nil
		}, backend.LoadOptions{})
		if res != nil {
			cp.ck.Copied += res.Written
			if cp.req.Progress != nil {
				cp.req.Progress(cp.ck.Copied - cp.resumedAfter)
			}
		}
		return err
	})
}

// withDestination runs fn on the destination: the one held open, or one
// opened for fn and closed after it.
func (cp *copier) withDestination(ctx context.Context, fn func(backend.Backend) error) error {
	if cp.dst != nil {
		return fn(cp.dst)
	}
	b, err := cp.req.Open(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	return fn(b)
}
