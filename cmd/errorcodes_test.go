package cmd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// failure runs the built binary and returns its standard error and exit
// status; stdout goes to out when it is set.
func failure(t *testing.T, bin string, stdin io.Reader, out *os.File, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = stdin
	if out != nil {
		cmd.Stdout = out
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return errOut.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return errOut.String(), 0
}

// wantFailure checks that a failure was reported as every error is: exit
// status 1 and one line "error: <Code>: …" that says what.
func wantFailure(t *testing.T, errOut string, status int, code string, says ...string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if strings.HasPrefix(l, "error: ") {
			lines = append(lines, l)
		}
	}
	if status != ExitFailed || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: "+code+": ") {
		t.Fatalf("exit %d, want %d and one line \"error: %s: …\":\n%s", status, ExitFailed, code, errOut)
	}
	for _, s := range says {
		if !strings.Contains(lines[0], s) {
			t.Errorf("%q does not say %q", lines[0], s)
		}
	}
}

// setFormatVersion records format v in a closed database file, as a newer
// tstable would (the meta bucket's "format" key, 8 bytes big-endian).
func setFormatVersion(t *testing.T, path string, v uint64) {
	t.Helper()
	b, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Update(func(tx *bolt.Tx) error {
		var buf [8]byte
		binary.BigEndian.PutUint64(buf[:], v)
		return tx.Bucket([]byte("meta")).Put([]byte("format"), buf[:])
	}); err != nil {
		t.Fatal(err)
	}
}

// Every kind of failure the command line meets outside the store's own
// refusals is reported with a code, as the service would code it: a file
// of a newer format (NotImplemented), a folder where a file is wanted
// (InvalidInput), a file that is not there (ResourceNotFound), output to
// a full device and a port in use.
func TestEveryFailureHasACode(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	mustRun(t, db, "", "table", "create", "Tab")
	mustRun(t, db, "", "insert", "Tab", `{"PartitionKey":"a","RowKey":"b"}`)
	newer := filepath.Join(dir, "newer.db")
	mustRun(t, newer, "", "table", "create", "Tab")
	setFormatVersion(t, newer, 99)

	for _, c := range []struct {
		name  string
		args  []string
		code  string
		says  []string
		stdin string
	}{
		{"a newer format, read", []string{"--db", newer, "table", "list"}, "NotImplemented", []string{"file format 99, which a newer tstable wrote"}, ""},
		{"a newer format, written", []string{"--db", newer, "insert", "Tab", `{"PartitionKey":"a","RowKey":"b"}`}, "NotImplemented", []string{"file format 99"}, ""},
		{"a folder as --db, read", []string{"--db", dir, "get", "Tab", "a", "b"}, "InvalidInput", []string{dir + " is a folder, not a file"}, ""},
		{"a folder as --db, written", []string{"--db", dir, "table", "create", "Tab"}, "InvalidInput", []string{dir + " is a folder, not a file"}, ""},
		{"check of a folder", []string{"check", dir}, "InvalidInput", []string{dir + " is a folder"}, ""},
		{"check of no file", []string{"check", filepath.Join(dir, "none.db")}, "ResourceNotFound", []string{"there is no database at"}, ""},
		{"compact of no file", []string{"--db", filepath.Join(dir, "none.db"), "compact"}, "ResourceNotFound", []string{"there is no database at"}, ""},
		{"recover of no file", []string{"recover", filepath.Join(dir, "none.db"), filepath.Join(dir, "new.db")}, "ResourceNotFound", []string{"there is no database at"}, ""},
		{"recover into a file that exists", []string{"recover", db, newer}, "InvalidInput", []string{newer + " already exists"}, ""},
		{"import of no file", []string{"--db", db, "import", "Tab", filepath.Join(dir, "none.jsonl")}, "ResourceNotFound", []string{"cannot read " + filepath.Join(dir, "none.jsonl") + ": no such file"}, ""},
		{"import of a folder", []string{"--db", db, "import", "Tab", dir}, "InvalidInput", []string{"cannot read " + dir + ": is a directory"}, ""},
		{"import of a folder as CSV", []string{"--db", db, "import", "Tab", dir, "--format", "csv"}, "InvalidInput", []string{"cannot read " + dir + ": is a directory"}, ""},
		{"batch of no file", []string{"--db", db, "batch", "Tab", filepath.Join(dir, "none.jsonl")}, "ResourceNotFound", []string{"no such file"}, ""},
		{"a query log that is a folder", []string{"--db", db, "serve", "--addr", "127.0.0.1:0", "--log", dir}, "InvalidInput", []string{"cannot open the query log " + dir + ": is a directory"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			errOut, st := failure(t, bin, strings.NewReader(c.stdin), nil, c.args...)
			wantFailure(t, errOut, st, c.code, c.says...)
		})
	}

	t.Run("a port in use", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		errOut, st := failure(t, bin, nil, nil, "--db", db, "serve", "--addr", l.Addr().String())
		wantFailure(t, errOut, st, "InvalidInput", "cannot listen on "+l.Addr().String(), "pick one with --addr")
	})
	t.Run("output to a full device", func(t *testing.T) {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full here")
		}
		defer full.Close()
		errOut, st := failure(t, bin, nil, full, "--db", db, "get", "Tab", "a", "b", "-o", "json")
		wantFailure(t, errOut, st, "InternalError", "cannot write /dev/stdout: the disk is full (no space left on device)")
	})
}

// descendingRows is n JSON lines of small entities in descending key
// order: an import of them is sorted (not staged), and from about 800,000
// of them, through its temporary file.
type descendingRows struct {
	n, i int
	buf  []byte
}

func (r *descendingRows) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.i < r.n {
		r.buf = fmt.Appendf(r.buf, "{\"PartitionKey\":\"p\",\"RowKey\":\"%07d\"}\n", r.n-r.i)
		r.i++
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// A full disk is InternalError, and the message says the disk is full:
// for a write, and for the import's temporary file, which cannot be
// created (no room for another file) or written.
func TestAFullDiskIsAnInternalError(t *testing.T) {
	bin := buildBinary(t)
	t.Run("a write", func(t *testing.T) {
		db := filepath.Join(smallDisk(t, "size=2m"), "full.db")
		mustRun(t, db, "", "table", "create", "Tab")
		big := strings.Repeat("x", 30000)
		for i := range 200 {
			errOut, st := failure(t, bin, nil, nil, "--db", db, "insert", "Tab", fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%03d","V":"%s"}`, i, big))
			if st != 0 {
				wantFailure(t, errOut, st, "InternalError", "saving to "+db+" failed: the disk is full (no space left on device)", "nothing of it is stored")
				return
			}
		}
		t.Fatal("200 inserts of 30 KB fit on a 2 MiB disk")
	})
	if testing.Short() {
		t.Skip("the imports below sort 900,000 rows")
	}
	t.Run("the import's temporary file cannot be created", func(t *testing.T) {
		db := filepath.Join(smallDisk(t, "size=64m,nr_inodes=2"), "full.db") // the folder and the database
		mustRun(t, db, "", "table", "create", "Tab")
		errOut, st := failure(t, bin, &descendingRows{n: 900_000}, nil, "--db", db, "import", "Tab")
		wantFailure(t, errOut, st, "InternalError", "cannot create the import's temporary file next to "+db+": the disk is full")
	})
	t.Run("the import's temporary file cannot be written", func(t *testing.T) {
		db := filepath.Join(smallDisk(t, "size=4m"), "full.db")
		mustRun(t, db, "", "table", "create", "Tab")
		errOut, st := failure(t, bin, &descendingRows{n: 900_000}, nil, "--db", db, "import", "Tab")
		wantFailure(t, errOut, st, "InternalError", "cannot write the import's temporary file", "the disk is full")
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(db), ".full.db.import-*")); len(left) != 0 {
			t.Errorf("the temporary file is left: %v", left)
		}
	})
}
