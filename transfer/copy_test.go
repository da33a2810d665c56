package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

var ctx = context.Background()

// file is a database file a test copies from or to, opened for each use
// as the command line opens it.
type file struct {
	t     *testing.T
	path  string
	opens int // for writing
}

func newFile(t *testing.T, name string) *file {
	return &file{t: t, path: filepath.Join(t.TempDir(), name)}
}

func (f *file) open(write bool) (*store.DB, error) {
	if write {
		f.opens++
	}
	return store.Open(f.path, &store.Options{ReadOnly: !write})
}

func (f *file) read(ctx context.Context, fn func(backend.Backend) error) error {
	db, err := f.open(false)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

func (f *file) write(ctx context.Context) (backend.Backend, error) { return f.open(true) }

// fill creates table in f with n entities over a few partitions.
func (f *file) fill(table string, n int) {
	f.t.Helper()
	db, err := f.open(true)
	if err != nil {
		f.t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateTable(ctx, table); err != nil {
		f.t.Fatal(err)
	}
	i := 0
	_, err = db.Load(ctx, table, backend.OpInsert, func() (*odata.Entity, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return &odata.Entity{PartitionKey: fmt.Sprintf("p%d", i%7), RowKey: fmt.Sprintf("%06d", i),
			Properties: []odata.Property{{Name: "N", Value: odata.Int32(int32(i))}}}, nil
	}, backend.LoadOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
}

// keys lists the keys of table in f, in order.
func (f *file) keys(table string) []string {
	f.t.Helper()
	var out []string
	err := f.read(ctx, func(b backend.Backend) error {
		_, err := b.Query(ctx, table, backend.QueryRequest{}, func(e *odata.Entity) error {
			out = append(out, e.PartitionKey+"/"+e.RowKey)
			return nil
		})
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

// request copies table Src from src to dst's table Dst, checkpointing in a
// folder of the test's.
func request(t *testing.T, src, dst *file) CopyRequest {
	return CopyRequest{Table: "Src", ToTable: "Dst", Checkpoint: CheckpointPath(t.TempDir(), "test"),
		Read: src.read, Open: dst.write}
}

// An interrupted copy leaves a checkpoint after its last committed chunk
// and the destination holding exactly the chunks counted; resuming from it
// copies the rest, and the two runs together copy the source exactly.
func TestCopyResumesAfterTheLastCommittedChunk(t *testing.T) {
	src, dst := newFile(t, "src.db"), newFile(t, "dst.db")
	src.fill("Src", 2*CopyChunk+1234)
	stop := errors.New("stopped")
	req := request(t, src, dst)
	chunks := 0
	req.AfterChunk = func(copied int64) error {
		if chunks++; chunks == 2 {
			return stop
		}
		return nil
	}
	out, err := Copy(ctx, req)
	if !errors.Is(err, stop) || out.Copied != 2*CopyChunk || out.Total != 2*CopyChunk || !out.Resumable {
		t.Fatalf("interrupted copy: %+v, %v", out, err)
	}
	if n := len(dst.keys("Dst")); n != 2*CopyChunk {
		t.Fatalf("the destination holds %d entities after the interruption, want the %d committed", n, 2*CopyChunk)
	}
	ck, ok := ReadCheckpoint(req.Checkpoint)
	if !ok || ck.Copied != 2*CopyChunk {
		t.Fatalf("checkpoint %+v, %v", ck, ok)
	}
	if want := src.keys("Src")[2*CopyChunk]; ck.Next.PartitionKey+"/"+ck.Next.RowKey != want {
		t.Fatalf("the checkpoint goes on from %v, want the first key not copied, %s", ck.Next, want)
	}

	req.AfterChunk, req.Resume = nil, ck
	out, err = Copy(ctx, req)
	if err != nil || out.Copied != 1234 || out.Total != 2*CopyChunk+1234 || out.ResumedAfter != 2*CopyChunk || out.Resumable {
		t.Fatalf("resumed copy: %+v, %v", out, err)
	}
	if a, b := strings.Join(src.keys("Src"), ","), strings.Join(dst.keys("Dst"), ","); a != b {
		t.Fatal("after resuming, the destination's keys differ from the source's")
	}
	if _, err := os.Stat(req.Checkpoint); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is kept after the copy completed: %v", err)
	}
}

// Resuming with a filter goes on from the checkpoint's key and copies
// only what the filter matches.
func TestCopyResumesWithAFilter(t *testing.T) {
	src, dst := newFile(t, "src.db"), newFile(t, "dst.db")
	src.fill("Src", 3*CopyChunk)
	flt, err := odata.ParseFilter("PartitionKey ge 'p2' and PartitionKey le 'p5'")
	if err != nil {
		t.Fatal(err)
	}
	req := request(t, src, dst)
	req.Filter = flt
	req.AfterChunk = func(int64) error { return errors.New("stopped") }
	out, err := Copy(ctx, req)
	if err == nil || out.Total != CopyChunk {
		t.Fatalf("interrupted: %+v, %v", out, err)
	}
	ck, _ := ReadCheckpoint(req.Checkpoint)
	req.AfterChunk, req.Resume = nil, ck
	if out, err = Copy(ctx, req); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range src.keys("Src") {
		if k >= "p2" && k < "p6" {
			want = append(want, k)
		}
	}
	if got := dst.keys("Dst"); strings.Join(got, ",") != strings.Join(want, ",") || out.Total != int64(len(want)) {
		t.Fatalf("copied %d keys (outcome %+v), want the %d the filter matches", len(got), out, len(want))
	}
}

// A checkpoint that cannot be read is no checkpoint: the copy starts over.
func TestUnreadableCheckpoint(t *testing.T) {
	path := CheckpointPath(t.TempDir(), "x")
	if _, ok := ReadCheckpoint(path); ok {
		t.Fatal("a missing checkpoint was read")
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, ok := ReadCheckpoint(path); ok {
		t.Fatal("a damaged checkpoint was read")
	}
}

// A checkpoint's name tells copies apart by every part and keeps no part
// in clear.
func TestCheckpointPathTellsCopiesApart(t *testing.T) {
	a := CheckpointPath("d", "src", "Src", "dst", "Dst", "")
	for _, other := range [][]string{{"src", "Src", "dst", "Dst", "x"}, {"srcT", "", "dst", "Dst", ""}, {"src", "Src", "dst", "V", ""}} {
		if CheckpointPath("d", other...) == a {
			t.Errorf("%q names the same checkpoint", other)
		}
	}
	if a != CheckpointPath("d", "src", "Src", "dst", "Dst", "") || strings.Contains(a, "src") {
		t.Errorf("checkpoint path %s", a)
	}
}

// A destination held open (a remote account) is opened once; a local one
// once a chunk, so other processes get the file between chunks.
func TestCopyOpensTheDestination(t *testing.T) {
	for _, hold := range []bool{true, false} {
		src, dst := newFile(t, "src.db"), newFile(t, "dst.db")
		src.fill("Src", 2*CopyChunk+1)
		req := request(t, src, dst)
		req.HoldOpen = hold
		if _, err := Copy(ctx, req); err != nil {
			t.Fatal(err)
		}
		want := 1 + 3 // the table's creation, then three chunks
		if hold {
			want = 1
		}
		if dst.opens != want {
			t.Errorf("hold %v: the destination was opened %d times, want %d", hold, dst.opens, want)
		}
	}
}

// A load that fails part way counts what it committed: the outcome never
// claims more than the destination holds.
func TestCopyCountsOnlyWhatWasCommitted(t *testing.T) {
	src, dst := newFile(t, "src.db"), newFile(t, "dst.db")
	src.fill("Src", CopyChunk+10)
	req := request(t, src, dst)
	open := req.Open
	req.Open = func(ctx context.Context) (backend.Backend, error) {
		b, err := open(ctx)
		return &halfLoad{Backend: b}, err
	}
	out, err := Copy(ctx, req)
	if err == nil || out.Total != CopyChunk/2 || out.Resumable {
		t.Fatalf("outcome %+v, %v; want %d committed and no checkpoint (the first chunk failed)", out, err, CopyChunk/2)
	}
	if n := len(dst.keys("Dst")); int64(n) != out.Total {
		t.Fatalf("the destination holds %d, the outcome says %d", n, out.Total)
	}
}

// halfLoad commits the first half of what it is given, then fails.
type halfLoad struct{ backend.Backend }

func (h *halfLoad) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	var ents []*odata.Entity
	for {
		e, err := src()
		if err != nil {
			break
		}
		ents = append(ents, e)
	}
	half := ents[:len(ents)/2]
	res, err := h.Backend.Load(ctx, table, kind, func() (*odata.Entity, error) {
		if len(half) == 0 {
			return nil, io.EOF
		}
		e := half[0]
		half = half[1:]
		return e, nil
	}, opts)
	if err != nil {
		return res, err
	}
	return res, errors.New("the disk is full")
}
