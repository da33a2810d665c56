package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/iostreams"
)

// A read command on a file --db names that is not there says there is no
// database there, naming the closest one in that folder, with exit 1 —
// never an empty list — and creates nothing.
func TestMistypedDatabaseIsNotAnEmptyOne(t *testing.T) {
	dir := t.TempDir()
	seed(t, filepath.Join(dir, "people.db"))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(dir, "peple.db")
	want := "error: ResourceNotFound: there is no database at " + typo + " (did you mean " + filepath.Join(dir, "people.db") + "?); a command that writes (tstable table create, import, sample load) creates one there\n"
	for _, args := range [][]string{
		{"table", "list"},
		{"table", "list", "-o", "json"},
		{"query", "People"},
		{"get", "People", "Sales", "00010"},
		{"stats", "People"},
		{"export", "People"},
		{"lint", "People"},
		{"explain", "People", "--filter", "Age gt 30"},
		{"delete", "People", "Sales", "00010"},
		{"table", "delete", "People"},
	} {
		out, errOut, status := run(context.Background(), typo, "", args...)
		if status != ExitFailed || out != "" || errOut != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q\nwant exit 1 and %q", strings.Join(args, " "), status, out, errOut, want)
		}
	}
	if _, errOut, status := run(context.Background(), typo, "", "check"); status != ExitFailed || errOut != "error: ResourceNotFound: there is no database at "+typo+" to check (did you mean "+filepath.Join(dir, "people.db")+"?)\n" {
		t.Errorf("check: exit %d, stderr %q", status, errOut)
	}
	// status says where it would be, and is not an error.
	if out, _, status := run(context.Background(), typo, "", "status", "-o", "json"); status != 0 || !strings.Contains(out, `"note":"no database file at `+typo+` (did you mean `+filepath.Join(dir, "people.db")+`?): the first command that writes creates it"`) {
		t.Errorf("status: exit %d, stdout %q", status, out)
	}
	// A folder without a database file: no hint.
	alone := filepath.Join(t.TempDir(), "x.db")
	if _, errOut, status := run(context.Background(), alone, "", "table", "list"); status != ExitFailed || errOut != "error: ResourceNotFound: there is no database at "+alone+"; a command that writes (tstable table create, import, sample load) creates one there\n" {
		t.Errorf("table list on %s: exit %d, stderr %q", alone, status, errOut)
	}
	// $TSTABLE_DB names a file as --db does.
	t.Setenv("TSTABLE_DB", typo)
	ios, _, out, errOut := iostreams.Test()
	if status := Execute(context.Background(), NewRoot(ios), []string{"table", "list"}, ios); status != ExitFailed || out.Len() != 0 || errOut.String() != want {
		t.Errorf("table list with $TSTABLE_DB: exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	if _, err := os.Stat(typo); err == nil {
		t.Errorf("a read command created %s", typo)
	}
}

// The default database, before the first command that writes, is one not
// made yet: a read command finds no tables there (exit 0) or says the
// table does not exist yet, and the first write makes the file and
// tstable's own folder for it.
func TestDefaultDatabaseNotMadeYet(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("LOCALAPPDATA", data)
	t.Setenv("TSTABLE_DB", "")
	t.Setenv(envConnectionString, "")
	runDefault := func(args ...string) (string, string, int) {
		ios, _, out, errOut := iostreams.Test()
		status := Execute(context.Background(), NewRoot(ios), args, ios)
		return out.String(), errOut.String(), status
	}
	if out, errOut, status := runDefault("table", "list", "-o", "json"); status != 0 || out != "{\n  \"value\": []\n}\n" || errOut != "" {
		t.Errorf("table list: exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	db := defaultDBPath()
	if _, errOut, status := runDefault("get", "Orders", "a", "b"); status != ExitFailed || errOut != "error: TableNotFound: table \"Orders\" does not exist: there is no database at "+db+" yet (create the table with: tstable table create Orders)\n" {
		t.Errorf("get: exit %d, stderr %q", status, errOut)
	}
	if _, err := os.Stat(filepath.Dir(db)); err == nil {
		t.Errorf("a read command made %s", filepath.Dir(db))
	}
	if _, errOut, status := runDefault("table", "create", "Orders"); status != 0 {
		t.Fatalf("table create: exit %d, stderr %q", status, errOut)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the first write did not make %s: %v", db, err)
	}
}

// A write command on a file --db names in a folder that does not exist
// makes no folder: it says which folder is missing, as sqlite3 refuses
// such a file, and creates nothing.
func TestNamedDatabaseFolderIsNotMade(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nodir")
	db := filepath.Join(missing, "t.db")
	want := "error: ResourceNotFound: cannot create the database " + db + ": the folder " + missing + " does not exist; create it first, or name a file in a folder that exists\n"
	for _, args := range [][]string{
		{"table", "create", "Orders"},
		{"sample", "load", "employees"},
		{"insert", "Orders", `{"PartitionKey":"a","RowKey":"b"}`},
	} {
		if _, errOut, status := run(context.Background(), db, "", args...); status != ExitFailed || errOut != want {
			t.Errorf("%s: exit %d, stderr %q\nwant %q", strings.Join(args, " "), status, errOut, want)
		}
	}
	src := filepath.Join(t.TempDir(), "src.db")
	seed(t, src)
	if _, errOut, status := run(context.Background(), src, "", "recover", src, db); status != ExitFailed || errOut != want {
		t.Errorf("recover: exit %d, stderr %q", status, errOut)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("%s was made", missing)
	}
}
