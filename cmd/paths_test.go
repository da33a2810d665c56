package cmd

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/completions"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/server"
)

// oddFolder is a folder whose path has what a file flag must take as it
// is: on Windows the temporary folder's drive letter and backslashes,
// elsewhere a folder named with a drive letter, a backslash and a space.
func oddFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), `C:\my data`)
	if runtime.GOOS == "windows" {
		dir = filepath.Join(t.TempDir(), "my data")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every argument and flag that names a file takes the path as it is.
func TestFileArgumentsTakePathsAsTheyAre(t *testing.T) {
	dir := oddFolder(t)
	at := func(name string) string { return filepath.Join(dir, name) }
	db := at("people.db")
	write := func(name, text string) string {
		if err := os.WriteFile(at(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return at(name)
	}
	mustRun(t, db, "", "table", "create", "People")
	mustRun(t, db, "", "import", "People", write("rows.jsonl", `{"PartitionKey":"a","RowKey":"1","Age":30}`+"\n"))
	mustRun(t, db, "", "import", "People", write("rows.csv", "PartitionKey,RowKey,Age@Int32\na,2,31\n"))
	mustRun(t, db, "", "batch", "People", write("ops.jsonl", `{"op":"insert","entity":{"PartitionKey":"a","RowKey":"3"}}`+"\n"))
	mustRun(t, db, "", "advise", "People", "--queries", write("queries.txt", "Age gt 30\n"))
	mustRun(t, db, "", "copy", "People", "--to-db", at("copy.db"))
	mustRun(t, db, "", "check", db)
	mustRun(t, db, "", "recover", db, at("saved.db"))
	mustRun(t, db, "", "compact")
	for _, other := range []string{at("copy.db"), at("saved.db"), db} {
		if out := mustRun(t, other, "", "query", "People", "-o", "jsonl"); strings.Count(out, "\n") != 3 {
			t.Errorf("%s holds:\n%s", other, out)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".compact")); !os.IsNotExist(err) {
		t.Errorf("compact left its copy behind: %v", err)
	}
}

// serve --log writes its queries to the file named, beside a database in
// such a folder.
func TestServeLogTakesAPathAsItIs(t *testing.T) {
	dir := oddFolder(t)
	db, log := filepath.Join(dir, "people.db"), filepath.Join(dir, "queries.jsonl")
	mustRun(t, db, "", "table", "create", "People")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		_, _, st := run(ctx, db, "", "serve", "--addr", "127.0.0.1:0", "--log", log)
		done <- st
	}()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, ok := server.ServedAt(db); ok {
			break
		}
		if time.Now().After(end) {
			cancel()
			t.Fatal("serve did not start")
		}
	}
	mustRun(t, db, "", "query", "People", "--filter", "Age gt 30")
	cancel()
	if st := <-done; st != 0 {
		t.Fatalf("serve: exit %d", st)
	}
	if b, err := os.ReadFile(log); err != nil || !strings.Contains(string(b), `"filter":"Age gt 30"`) {
		t.Fatalf("the log holds %q, %v", b, err)
	}
}

// The shell takes a path as the system writes it: on Windows unquoted,
// backslashes and all; elsewhere quoted as a POSIX shell quotes it.
func TestShellTakesThePlatformsPaths(t *testing.T) {
	isolateState(t)
	dir := oddFolder(t)
	db, rows := filepath.Join(dir, "people.db"), filepath.Join(dir, "rows.jsonl")
	os.WriteFile(rows, []byte(`{"PartitionKey":"a","RowKey":"1"}`+"\n"), 0o644)
	word := "'" + rows + "'"
	if !completions.BackslashEscapes {
		word = rows
		if strings.Contains(rows, " ") {
			word = `"` + rows + `"`
		}
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString("table create People\nimport People " + word + "\nquery People -o jsonl\n")
	if st := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "shell"}, ios); st != 0 || !strings.Contains(out.String(), `"RowKey":"1"`) {
		t.Fatalf("shell: exit %d\n%s%s", st, out, errOut)
	}
}
