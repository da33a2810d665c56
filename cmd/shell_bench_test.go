package cmd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// BenchmarkShellLines is a script of point gets through the shell in
// line mode (tstable shell < gets.txt), per line: what a script of many
// small commands costs after the process has started.
func BenchmarkShellLines(b *testing.B) {
	db := filepath.Join(b.TempDir(), "b.db")
	s, err := store.Open(db, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateTable(ctx, "Bench"); err != nil {
		b.Fatal(err)
	}
	ops := make([]backend.Operation, 100)
	for i := range ops {
		e := &odata.Entity{PartitionKey: "p1", RowKey: fmt.Sprintf("%04d", i)}
		e.Set("LastName", odata.String("Cao"))
		e.Set("Age", odata.Int32(int32(i)))
		ops[i] = backend.Operation{Kind: backend.OpInsert, Entity: e}
	}
	if _, err := s.Batch(ctx, "Bench", ops); err != nil {
		b.Fatal(err)
	}
	s.Close()
	var script strings.Builder
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(&script, "get Bench p1 %04d -o jsonl\n", i%100)
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(script.String())
	b.ReportAllocs()
	b.ResetTimer()
	args := []string{"--db", db, "shell"}
	if st := Execute(ctx, newRootFor(&Factory{IO: ios}, args), args, ios); st != ExitOK {
		b.Fatalf("status %d: %s", st, errOut)
	}
	b.StopTimer()
	if n := strings.Count(out.String(), "\n"); n != b.N {
		b.Fatalf("%d lines out of %d gets", n, b.N)
	}
}

// BenchmarkShellLineFloor is what the command-line library costs a line
// before any work: tstable's root (its global flags, its output set up)
// and a command taking get's arguments and flag, built and run through
// cobra as the shell runs each line, doing nothing. BenchmarkShellLines
// less this is tstable's own work on a line.
func BenchmarkShellLineFloor(b *testing.B) {
	ios, _, _, errOut := iostreams.Test()
	ctx := context.Background()
	args := []string{"--db", "unused.db", "get", "Bench", "p1", "0001", "-o", "jsonl"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f := &Factory{IO: ios}
		root := newRootWith(f, false)
		var sel string
		c := &cobra.Command{Use: "get TABLE PK RK", RunE: func(*cobra.Command, []string) error { return nil }}
		c.Flags().StringVar(&sel, "select", "", "")
		root.AddCommand(c)
		if st := execute(ctx, root, args, ios, true); st != ExitOK {
			b.Fatalf("status %d: %s", st, errOut)
		}
	}
}
