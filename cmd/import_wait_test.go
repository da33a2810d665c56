package cmd

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// producer | tstable import T - does not hold the database while it waits
// for input: while the producer is silent, get, a write and the shell
// (which opens the file for writing first) run from other processes
// without waiting; the import then ends with every row. Into an empty
// table (a staged import, in key order) and into one that holds rows (a
// sorted import), with a producer that sends some rows, then nothing for a
// while, then the rest.
func TestImportFromASlowProducerLetsOthersIn(t *testing.T) {
	bin := buildBinary(t)
	for _, table := range []string{"Empty", "Held"} {
		t.Run(table, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "t.db")
			c := &cli{t: t, bin: bin, db: db}
			c.ok("", "table", "create", table)
			c.ok("", "table", "create", "Other")
			if table == "Held" {
				c.ok(`{"PartitionKey":"p","RowKey":"0000"}`, "insert", table, "-")
			}
			imp := exec.Command(bin, "--db", db, "import", table, "-")
			in, err := imp.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			imp.Stdout, imp.Stderr = &out, &out
			if err := imp.Start(); err != nil {
				t.Fatal(err)
			}
			defer imp.Process.Kill()
			row := func(i int) string { return fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%04d","N":%d}`+"\n", i, i) }
			for i := 1; i <= 20; i++ {
				io.WriteString(in, row(i))
			}
			time.Sleep(500 * time.Millisecond) // the producer is silent now

			for _, args := range [][]string{
				{"--wait", "0", "get", "Other", "p", "1"},
				{"--wait", "0", "insert", "Other", `{"PartitionKey":"p","RowKey":"1"}`},
				{"--wait", "0", "table", "list"},
			} {
				began := time.Now()
				_, errOut, st := c.run("", args...)
				if strings.Contains(errOut, "DatabaseLocked") || (st != 0 && args[2] != "get") || time.Since(began) > 3*time.Second {
					t.Errorf("%s while the import waits for input: exit %d in %s\n%s", strings.Join(args, " "), st, time.Since(began), errOut)
				}
			}
			if _, errOut, st := c.run("table list\n", "--wait", "0", "shell"); st != 0 {
				t.Errorf("the shell while the import waits for input: exit %d\n%s", st, errOut)
			}

			for i := 21; i <= 40; i++ {
				io.WriteString(in, row(i))
			}
			in.Close()
			if err := imp.Wait(); err != nil {
				t.Fatalf("import: %v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "imported 40 entities into "+table) {
				t.Errorf("import said: %s", out.String())
			}
			got, _ := c.ok("", "query", table, "--all", "-o", "jsonl")
			want := 40
			if table == "Held" {
				want = 41
			}
			if n := strings.Count(got, "\n"); n != want {
				t.Errorf("%s holds %d entities, want %d", table, n, want)
			}
		})
	}
}
