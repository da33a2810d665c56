package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/loadtest"
)

// procTimeout bounds each process of TestProcessesShareTheFile: longer
// than it waits for the file (--wait), so that only a process that hangs
// meets it.
const procTimeout = 60 * time.Second

// proc runs the built binary as a process of its own on db and returns
// its output; a process that fails (an exit status, anything on standard
// error but a continuation token or an import's count) or outlives
// procTimeout is an error.
func proc(bin, db, stdin string, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), procTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--db", db, "--wait", "30s"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("still running after %s", procTimeout)
	}
	if err == nil && strings.Contains(errOut.String(), "error") {
		err = fmt.Errorf("it said %q", errOut.String())
	}
	if err != nil {
		return "", "", fmt.Errorf("tstable %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String(), nil
}

// Commands run as processes of their own on one file at once, as scripts
// and people run them: readers (get, query pages followed by their
// continuation, filtered query --all and export, which scan on several
// cores) share the file while writers (insert, delete, merge, upsert,
// batch, import, staged into an empty table or sorted into one that is
// not) wait for it in turn within --wait. No process may fail or hang,
// every acknowledged write must read back as written, and check must find
// the file sound.
func TestProcessesShareTheFile(t *testing.T) {
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "shared.db")
	const seeded = 2000
	var seed strings.Builder
	for i := range seeded {
		fmt.Fprintf(&seed, "{\"PartitionKey\":\"p\",\"RowKey\":\"%05d\",\"N\":%d,\"V\":\"seed\"}\n", i, i)
	}
	if _, _, err := proc(bin, db, "", "table", "create", "Load"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := proc(bin, db, seed.String(), "import", "Load", "-"); err != nil {
		t.Fatal(err)
	}
	acked := map[string]string{}
	for i := range seeded {
		acked[fmt.Sprintf("p/%05d", i)] = "seed"
	}
	s := loadtest.New(acked)
	procWriters(s, bin, db)
	procReaders(s, bin, db, seeded)
	d := 8 * time.Second
	if testing.Short() || raceEnabled {
		d = 2 * time.Second
	}
	t.Logf("%d commands", s.Run(t, d))

	out, _, err := proc(bin, db, "", "export", "Load", "-o", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s.ReadBack(t, exportedValues(t, out))
	if _, _, err := proc(bin, db, "", "check"); err != nil {
		t.Error(err)
	}
}

// procWriters starts the loops of writing processes.
func procWriters(s *loadtest.Load, bin, db string) {
	s.Loop("insert", func(i int) error { // insert, then delete or merge
		rk := fmt.Sprintf("i%06d", i)
		if _, _, err := proc(bin, db, "", "insert", "Load", fmt.Sprintf(`{"PartitionKey":"q","RowKey":"%s","V":"ins"}`, rk)); err != nil {
			return err
		}
		s.Ack("q", rk, "ins")
		switch i % 3 {
		case 1:
			if _, _, err := proc(bin, db, "", "delete", "Load", "q", rk); err != nil {
				return err
			}
			s.Ack("q", rk, "")
		case 2:
			if _, _, err := proc(bin, db, "", "merge", "Load", fmt.Sprintf(`{"PartitionKey":"q","RowKey":"%s","V":"merged"}`, rk)); err != nil {
				return err
			}
			s.Ack("q", rk, "merged")
		}
		return nil
	})
	s.Loop("upsert", func(i int) error {
		rk, v := fmt.Sprintf("%05d", (i*7)%2000), fmt.Sprintf("u%d", i)
		if _, _, err := proc(bin, db, "", "upsert", "Load", fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%s","V":"%s"}`, rk, v)); err != nil {
			return err
		}
		s.Ack("p", rk, v)
		return nil
	})
	s.Loop("batch", func(i int) error {
		pk := fmt.Sprintf("b%05d", i)
		var ops strings.Builder
		for j := range 20 {
			fmt.Fprintf(&ops, "{\"op\":\"upsert\",\"entity\":{\"PartitionKey\":\"%s\",\"RowKey\":\"%03d\",\"V\":\"batch\"}}\n", pk, j)
		}
		if _, _, err := proc(bin, db, ops.String(), "batch", "Load", "-"); err != nil {
			return err
		}
		for j := range 20 {
			s.Ack(pk, fmt.Sprintf("%03d", j), "batch")
		}
		return nil
	})
	s.Loop("import", func(i int) error {
		// Keys in descending order into the table (sorted, then written);
		// every other time, in ascending order into a new empty table too
		// (staged, then swapped in).
		pk := fmt.Sprintf("l%05d", i)
		var rows strings.Builder
		for j := 999; j >= 0; j-- {
			fmt.Fprintf(&rows, "{\"PartitionKey\":\"%s\",\"RowKey\":\"%04d\",\"V\":\"imp\"}\n", pk, j)
		}
		if _, _, err := proc(bin, db, rows.String(), "import", "Load", "-"); err != nil {
			return err
		}
		for j := range 1000 {
			s.Ack(pk, fmt.Sprintf("%04d", j), "imp")
		}
		if i%2 == 1 {
			return nil
		}
		name := fmt.Sprintf("Staged%d", i)
		if _, _, err := proc(bin, db, "", "table", "create", name); err != nil {
			return err
		}
		rows.Reset()
		for j := range 1000 {
			fmt.Fprintf(&rows, "{\"PartitionKey\":\"s\",\"RowKey\":\"%04d\"}\n", j)
		}
		_, _, err := proc(bin, db, rows.String(), "import", name, "-", "--mode", "insert")
		return err
	})
}

// procReaders starts the loops of reading processes.
func procReaders(s *loadtest.Load, bin, db string, seeded int) {
	s.Loop("get", func(i int) error {
		_, _, err := proc(bin, db, "", "get", "Load", "p", fmt.Sprintf("%05d", (i*13)%seeded), "-o", "jsonl")
		return err
	})
	s.Loop("query pages", func(int) error { // the whole table, page by page, in key order
		args, last, rows := []string{"query", "Load", "--page-size", "700", "-o", "jsonl"}, "", 0
		for {
			out, errOut, err := proc(bin, db, "", args...)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var e struct{ PartitionKey, RowKey string }
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					return fmt.Errorf("page after %q: %q: %v", last, line, err)
				}
				if k := e.PartitionKey + "\x00" + e.RowKey; k <= last {
					return fmt.Errorf("page after %q: key %q out of order", last, k)
				} else {
					last = k
				}
				rows++
			}
			token, more := strings.CutPrefix(strings.TrimSpace(errOut), "continuation: ")
			if !more {
				if rows < seeded {
					return fmt.Errorf("the pages held %d entities, fewer than the %d seeded", rows, seeded)
				}
				return nil
			}
			args = []string{"query", "Load", "--page-size", "700", "-o", "jsonl", "--continuation", token}
		}
	})
	s.Loop("query --all --filter", func(i int) error {
		lo := (i * 37) % seeded
		out, _, err := proc(bin, db, "", "query", "Load", "--all", "--filter", fmt.Sprintf("N ge %d and N lt %d", lo, lo+10), "-o", "jsonl")
		if err == nil && strings.Count(out, "\n") != min(10, seeded-lo) {
			err = fmt.Errorf("query --all from %d found %d entities, want %d", lo, strings.Count(out, "\n"), min(10, seeded-lo))
		}
		return err
	})
	s.Loop("export", func(int) error {
		out, _, err := proc(bin, db, "", "export", "Load", "-o", "jsonl")
		if err == nil && strings.Count(out, "\n") < seeded {
			err = fmt.Errorf("export wrote %d entities, fewer than the %d seeded", strings.Count(out, "\n"), seeded)
		}
		return err
	})
}

// tstable export A | tstable import B - on one file: the export holds the
// file (reading) until its output is read, so the import reads its whole
// input before it takes the file, rather than waiting for the export
// while the export waits for it (the import failed with DatabaseLocked
// after --wait, the export with a broken pipe). The export's output is
// larger than a pipe holds.
func TestExportPipedIntoImportOnOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "pipe.db")
	const rows = 20000
	var seed strings.Builder
	for i := range rows {
		fmt.Fprintf(&seed, "{\"PartitionKey\":\"p%02d\",\"RowKey\":\"%06d\",\"Note\":\"%s\"}\n", i%10, i, strings.Repeat("x", 60))
	}
	for _, args := range [][]string{{"table", "create", "From"}, {"table", "create", "Into"}, {"import", "From", "-"}} {
		if _, _, err := proc(bin, db, seed.String(), args...); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), procTimeout)
	defer cancel()
	pipeline := fmt.Sprintf("%q --db %q --wait 2s export From -o jsonl | %q --db %q --wait 2s import Into -", bin, db, bin, db)
	sh := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", pipeline)
	var errOut bytes.Buffer
	sh.Stderr = &errOut
	if err := sh.Run(); err != nil || strings.Contains(errOut.String(), "error") {
		t.Fatalf("export | import on one file: %v\n%s", err, errOut.String())
	}
	out, _, err := proc(bin, db, "", "stats", "Into", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Entities int }
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Entities != rows {
		t.Fatalf("Into holds %d entities (%v), want %d", st.Entities, err, rows)
	}
	if _, _, err := proc(bin, db, "", "check"); err != nil {
		t.Fatal(err)
	}
}

// exportedValues is the V of each entity an export wrote as JSON lines,
// by "PartitionKey/RowKey", as loadtest's ReadBack takes them.
func exportedValues(t *testing.T, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct{ PartitionKey, RowKey, V string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		got[e.PartitionKey+"/"+e.RowKey] = e.V
	}
	return got
}
