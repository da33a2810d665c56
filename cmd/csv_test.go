package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// What the CSV writer writes, the CSV reader reads back: every Edm type,
// extremes included, with the header carrying the types. (An empty String
// is the one thing CSV cannot carry: it reads back as an absent property.)
func TestCSVRoundTrip(t *testing.T) {
	data, err := os.ReadFile(employeesPath)
	if err != nil {
		t.Fatal(err)
	}
	var ents []*odata.Entity
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		e, err := odata.DecodeEntityJSON(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range e.Properties {
			if p.Value.Type == odata.EdmString && p.Value.Str == "" {
				e.Delete(p.Name)
			}
		}
		ents = append(ents, e)
	}
	var buf bytes.Buffer
	cw, err := newCSVWriter(&buf, csvColumns(ents))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := cw.write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.flush(); err != nil {
		t.Fatal(err)
	}
	fail := func(line int64, err error) error { t.Fatalf("line %d: %v", line, err); return err }
	src, err := csvSource(&buf, "round trip", &lineIndex{}, false, func(int64, error) {}, fail)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		got, err := src()
		if errors.Is(err, io.EOF) {
			if i != len(ents) {
				t.Fatalf("read %d entities back, wrote %d", i, len(ents))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := ents[i]
		if a, b := string(odata.AppendEntityJSON(nil, got)), string(odata.AppendEntityJSON(nil, want)); a != b {
			t.Fatalf("entity %d differs after CSV:\n got %s\nwant %s", i, a, b)
		}
	}
}

// "upsert" means Insert Or Merge everywhere: re-importing a partial row
// keeps the properties it does not name; --replace makes the row the
// whole entity.
func TestImportUpsertMergesUnlessReplace(t *testing.T) {
	db := t.TempDir() + "/t.db"
	seed(t, db)
	row := `{"PartitionKey":"Sales","RowKey":"00010","Age":99}` + "\n"
	mustRun(t, db, row, "import", "People")
	got := mustRun(t, db, "", "get", "People", "Sales", "00010", "-o", "json")
	if !bytes.Contains([]byte(got), []byte(`"Age":99`)) || !bytes.Contains([]byte(got), []byte(`"FirstName"`)) {
		t.Errorf("after import (upsert): %s; want Age 99 and FirstName kept", got)
	}
	mustRun(t, db, row, "import", "People", "--replace")
	got = mustRun(t, db, "", "get", "People", "Sales", "00010", "-o", "json")
	if !bytes.Contains([]byte(got), []byte(`"Age":99`)) || bytes.Contains([]byte(got), []byte(`"FirstName"`)) {
		t.Errorf("after import --replace: %s; want only Age", got)
	}
	if _, errOut, st := run(context.Background(), db, row, "import", "People", "--mode", "merge", "--replace"); st != ExitUsage {
		t.Errorf("--replace with --mode merge: exit %d, %s", st, errOut)
	}
	// merge and replace need the entity to exist, as the commands do.
	missing := `{"PartitionKey":"Sales","RowKey":"77777","Age":1}` + "\n"
	for _, mode := range []string{"merge", "replace"} {
		if _, errOut, st := run(context.Background(), db, missing, "import", "People", "--mode", mode); st != ExitFailed || !bytes.Contains([]byte(errOut), []byte("ResourceNotFound")) {
			t.Errorf("--mode %s of a missing entity: exit %d, %s", mode, st, errOut)
		}
	}
}

// cancelAfter is standard input that interrupts the command (as Ctrl-C
// does) once n bytes have been read.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n -= n; c.n <= 0 {
		c.cancel()
	}
	return n, err
}

// An interrupted import says so, with what was committed, and never speaks
// of a bad row.
func TestImportInterrupted(t *testing.T) {
	db := t.TempDir() + "/t.db"
	seed(t, db)
	var rows bytes.Buffer
	for i := range 200_000 {
		fmt.Fprintf(&rows, `{"PartitionKey":"p","RowKey":"%07d"}`+"\n", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ios, _, out, errOut := iostreams.Test()
	ios.In = &cancelAfter{r: &rows, n: rows.Len() / 2, cancel: cancel}
	st := Execute(ctx, NewRoot(ios), []string{"--db", db, "import", "People"}, ios)
	if st != ExitInterrupted || !strings.Contains(errOut.String(), "interrupted") || strings.Contains(errOut.String(), "bad row") || out.Len() != 0 {
		t.Errorf("interrupted import: exit %d\n%s", st, errOut)
	}
}

// On a full disk, import says exactly what it stored: the count it prints
// is the count the table holds afterwards, and it speaks of no bad row.
func TestImportOnAFullDisk(t *testing.T) {
	dir := smallDisk(t, "size=3m")
	db := filepath.Join(dir, "full.db")
	mustRun(t, db, "", "table", "create", "Full")
	var rows bytes.Buffer
	for i := range 60_000 {
		fmt.Fprintf(&rows, `{"PartitionKey":"p%02d","RowKey":"%07d","Text":"some text to fill the disk with"}`+"\n", i%50, i)
	}
	_, errOut, st := run(context.Background(), db, rows.String(), "import", "Full")
	m := regexp.MustCompile(`imported (\d+) entit(?:y|ies) into Full; storing the rest failed`).FindStringSubmatch(errOut)
	if st != ExitFailed || m == nil || strings.Contains(errOut, "bad row") {
		t.Fatalf("import on a full disk: exit %d\n%s", st, errOut)
	}
	out, errOut2, st := run(context.Background(), db, "", "export", "Full")
	if st != 0 {
		t.Fatalf("export after the full disk: exit %d\n%s", st, errOut2)
	}
	if n := strings.Count(out, "\n"); strconv.Itoa(n) != m[1] {
		t.Errorf("import said it stored %s entities; the table holds %d\n%s", m[1], n, errOut)
	}
}

// FuzzCSVSource reads arbitrary CSV as import does: never a panic, and
// every entity it yields is one the codec can write and read back.
func FuzzCSVSource(f *testing.F) {
	f.Add("PartitionKey,RowKey,Age@Edm.Int32,Name\na,b,3,x\n")
	f.Add("PartitionKey,RowKey,When@DateTime,Raw@Binary\na,b,2024-01-02T03:04:05Z,AAEC\n")
	f.Add("PartitionKey,RowKey,N@Edm.Int64\n\"a\"\"\",b,9223372036854775807\n")
	f.Add("RowKey,PartitionKey\n\xff,\xfe\n")
	f.Fuzz(func(t *testing.T, data string) {
		src, err := csvSource(strings.NewReader(data), "fuzz", &lineIndex{}, true, func(int64, error) {}, func(_ int64, err error) error { return err })
		if err != nil {
			return
		}
		for range 1000 {
			e, err := src()
			if err != nil {
				return
			}
			if odata.ValidateEntity(e) != nil {
				continue // the store refuses it, with its reason
			}
			back, err := odata.DecodeEntityJSON(odata.AppendEntityJSON(nil, e))
			if err != nil {
				t.Fatalf("an entity read from CSV does not survive JSON: %v\n%q", err, data)
			}
			if a, b := string(odata.AppendEntityJSON(nil, back)), string(odata.AppendEntityJSON(nil, e)); a != b {
				t.Fatalf("CSV entity changes through JSON:\n%s\n%s", a, b)
			}
		}
	})
}
