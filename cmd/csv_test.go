package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tstable/tstable/iostreams"
)

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

// An export of a table whose properties have several types imports back
// to the same entities: Age@Edm.Int32 and Age are one property, of the
// type of the column that holds a value. A row with a value in both is
// refused; an empty String, which CSV cannot carry, is said on export.
func TestCSVExportOfMixedTypesImportsBack(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "table", "create", "Mixed")
	mustRun(t, db, "", "table", "create", "Copy")
	rows := `{"PartitionKey":"p","RowKey":"1","Age":30,"Note":"x"}
{"PartitionKey":"p","RowKey":"2","Age":"old","Note":"y"}
{"PartitionKey":"p","RowKey":"3","Age@odata.type":"Edm.Int64","Age":"7","Flag":true}
{"PartitionKey":"p","RowKey":"4","Flag":"yes","Age":1.5}
`
	mustRun(t, db, rows, "import", "Mixed", "-")
	csvText, errOut, st := run(context.Background(), db, "", "export", "Mixed", "-o", "csv")
	if st != 0 || errOut != "" {
		t.Fatalf("export: exit %d, %s", st, errOut)
	}
	if h := strings.SplitN(csvText, "\n", 2)[0]; h != "PartitionKey,RowKey,Timestamp,Age@Edm.Int32,Note,Age,Age@Edm.Int64,Flag@Edm.Boolean,Age@Edm.Double,Flag" {
		t.Errorf("header: %s", h)
	}
	if _, errOut, st := run(context.Background(), db, csvText, "import", "Copy", "-", "--format", "csv"); st != 0 {
		t.Fatalf("import of the export: exit %d, %s", st, errOut)
	}
	if a, b := canonical(t, mustRun(t, db, "", "export", "Mixed")), canonical(t, mustRun(t, db, "", "export", "Copy")); a != b {
		t.Errorf("the copy differs:\n%s\nwant:\n%s", b, a)
	}

	both := "PartitionKey,RowKey,Age@Edm.Int32,Age\np,9,3,three\n"
	if _, errOut, st := run(context.Background(), db, both, "import", "Copy", "-", "--format", "csv"); st != 1 ||
		!strings.Contains(errOut, "line 2: Age has a value in two columns (Age@Edm.Int32 and Age): an entity holds a property once") {
		t.Errorf("a row with Age twice: exit %d, %s", st, errOut)
	}
	twice := "PartitionKey,RowKey,Age@Edm.Int32,Age@Int32\np,9,3,4\n"
	if _, errOut, st := run(context.Background(), db, twice, "import", "Copy", "-", "--format", "csv"); st != 1 ||
		!strings.Contains(errOut, "names Age@Edm.Int32 again") {
		t.Errorf("a header with Age@Edm.Int32 twice: exit %d, %s", st, errOut)
	}

	mustRun(t, db, `{"PartitionKey":"p","RowKey":"5","Note":""}`, "insert", "Mixed", "-")
	if _, errOut, _ := run(context.Background(), db, "", "export", "Mixed", "-o", "csv"); !strings.Contains(errOut, `note: 1 entity holds an empty String (Note in ('p', '5')), which CSV writes as it writes an absent property`) {
		t.Errorf("export of an empty String: stderr %q", errOut)
	}
}
