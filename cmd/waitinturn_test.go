package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tstable/tstable/loadtest"
)

// procDefaultWait runs the built binary on db as proc does, but with the
// default wait for the file (no --wait): a process that fails, DatabaseLocked
// among others, is an error. It returns the output and how long it ran.
func procDefaultWait(bin, db, stdin string, args ...string) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), procTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--db", db}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		err = fmt.Errorf("still running after %s", procTimeout)
	}
	if err == nil && strings.Contains(errOut.String(), "error") {
		err = fmt.Errorf("it said %q", errOut.String())
	}
	if err != nil {
		return "", took, fmt.Errorf("tstable %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), took, nil
}

// Nine processes on one file, six importing a few thousand rows each and
// three reading (two of them the whole table each time), all with the
// default wait: they take the file in turn, so none fails with
// DatabaseLocked, every import's rows are there and check finds the file
// sound. TSTABLE_LONG_TEST=1 runs it for a minute.
func TestNineProcessesWaitInTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nine processes at once for 15 s")
	}
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "turns.db")
	if _, _, err := procDefaultWait(bin, db, "", "table", "create", "Turns"); err != nil {
		t.Fatal(err)
	}
	// The table starts with as many rows as a minute of imports brings
	// it to, so that the whole-table reads hold the file for seconds from
	// the start.
	const seed = 300_000
	var in strings.Builder
	for j := range seed {
		fmt.Fprintf(&in, "{\"PartitionKey\":\"seed-%03d\",\"RowKey\":\"%06d\",\"V\":\"seed\",\"N\":%d}\n", j%500, j, j)
	}
	if _, _, err := procDefaultWait(bin, db, in.String(), "import", "Turns", "-"); err != nil {
		t.Fatal(err)
	}
	const rows = 3000
	s := loadtest.New(map[string]string{})
	var mu sync.Mutex
	var longest time.Duration
	imports, queries := 0, 0
	note := func(took time.Duration, imp bool) {
		mu.Lock()
		defer mu.Unlock()
		longest = max(longest, took)
		if imp {
			imports++
		} else {
			queries++
		}
	}
	for w := range 6 {
		s.Loop(fmt.Sprintf("import %d", w), func(i int) error {
			pk := fmt.Sprintf("w%d-%05d", w, i)
			var in strings.Builder
			for j := range rows {
				fmt.Fprintf(&in, "{\"PartitionKey\":\"%s\",\"RowKey\":\"%05d\",\"V\":\"imp\",\"N\":%d}\n", pk, j, j)
			}
			_, took, err := procDefaultWait(bin, db, in.String(), "import", "Turns", "-")
			if err != nil {
				return err
			}
			note(took, true)
			for j := range rows {
				s.Ack(pk, fmt.Sprintf("%05d", j), "imp")
			}
			return nil
		})
	}
	for r := range 3 {
		s.Loop(fmt.Sprintf("query %d", r), func(i int) error {
			// An entity, a filter that reads every key of the growing
			// table and matches none, and the whole table exported: the
			// last two hold the file longer the larger it grows, and
			// take turns with the writers waiting for it.
			pk := fmt.Sprintf("w%d-%05d", i%6, i%3)
			args := [][]string{
				{"query", "Turns", "--filter", fmt.Sprintf("PartitionKey eq '%s' and RowKey eq '%05d'", pk, (i*13)%rows), "-o", "jsonl"},
				{"query", "Turns", "--all", "--filter", fmt.Sprintf("N lt 0 or V eq 'none%d'", i), "-o", "jsonl"},
				{"export", "Turns", "-o", "jsonl"},
			}[r]
			_, took, err := procDefaultWait(bin, db, "", args...)
			if err == nil {
				note(took, false)
			}
			return err
		})
	}
	d := 15 * time.Second
	if os.Getenv("TSTABLE_LONG_TEST") != "" {
		d = time.Minute
	}
	s.Run(t, d)
	t.Logf("%s: %d imports, %d queries, the longest process %s", d, imports, queries, longest.Round(time.Millisecond))

	out, _, err := procDefaultWait(bin, db, "", "export", "Turns", "-o", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s.ReadBack(t, exportedValues(t, out))
	if _, _, err := procDefaultWait(bin, db, "", "check"); err != nil {
		t.Error(err)
	}
}
