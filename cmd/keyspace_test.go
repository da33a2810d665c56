package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/design"
)

// explain --draw draws the key space of the sample orders four ways: a
// point query is one mark, a range a stretch of one partition, a
// partition scan one whole partition, a table scan everything.
func TestExplainDrawsTheFourClasses(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "sample", "load", "orders")
	cases := []struct{ name, filter string }{
		{"point", "PartitionKey eq 'cust_00001' and RowKey eq '2024-02-25_000172'"},
		{"range", "PartitionKey eq 'ordersbydate_2024-04' and RowKey ge '2024-04-10' and RowKey lt '2024-04-20'"},
		{"partition", "PartitionKey eq 'cust_00050'"},
		{"table", "Status eq 'shipped'"},
	}
	var pictures []string
	for _, c := range cases {
		args := []string{"explain", "Orders", "--filter", c.filter, "--draw"}
		out, errOut, status := run(context.Background(), db, "", args...)
		if status != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, status, errOut)
		}
		if !strings.Contains(out, "key space of Orders: 1,344 entities in 112 partitions") {
			t.Errorf("%s: no picture in\n%s", c.name, out)
		}
		checkGolden(t, "explain_draw_"+c.name, transcript(args, "", out, errOut, status))
		pictures = append(pictures, out[strings.Index(out, "key space"):])
	}
	for i := range pictures {
		for j := i + 1; j < len(pictures); j++ {
			if pictures[i] == pictures[j] {
				t.Errorf("%s and %s draw the same picture", cases[i].name, cases[j].name)
			}
		}
	}
}

// Off a terminal explain does not draw unless asked; --no-draw wins over
// nothing, and --draw with --no-draw is a usage error; the C locale
// draws in ASCII.
func TestExplainDrawsOnlyWhenAsked(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "sample", "load", "orders")
	f := "PartitionKey eq 'cust_00050'"
	out, _, _ := run(context.Background(), db, "", "explain", "Orders", "--filter", f, "-o", "table")
	if strings.Contains(out, "key space") {
		t.Errorf("drawn off a terminal without --draw:\n%s", out)
	}
	out, _, _ = run(context.Background(), db, "", "explain", "Orders", "--filter", f, "--no-draw", "-o", "table")
	if strings.Contains(out, "key space") {
		t.Errorf("drawn with --no-draw:\n%s", out)
	}
	_, errOut, status := run(context.Background(), db, "", "explain", "Orders", "--filter", f, "--draw", "--no-draw")
	if status != 2 || !strings.Contains(errOut, "--draw and --no-draw") {
		t.Errorf("--draw --no-draw: exit %d, %s", status, errOut)
	}
	out, _, _ = run(context.Background(), db, "", "explain", "Orders", "--filter", f, "-o", "json", "--draw")
	if strings.Contains(out, "key space") || !strings.HasPrefix(out, "{") {
		t.Errorf("-o json --draw wrote a picture:\n%s", out)
	}
	t.Setenv("LANG", "C")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	out, _, _ = run(context.Background(), db, "", "explain", "Orders", "--filter", f, "--draw")
	if !strings.Contains(out, "|...|") || strings.Contains(out, "│") {
		t.Errorf("the C locale drew more than ASCII:\n%s", out)
	}
}

// drawSession is a shell session with explain draw.
type drawSession struct{ testSession }

func (drawSession) ExplainDraw() bool { return true }

// With the shell's explain draw, a query's result is followed by the
// picture of the key space; with explain on alone, it is not.
func TestShellExplainDrawDrawsUnderTheQuery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "sample", "load", "orders")
	args := []string{"query", "Orders", "--filter", "PartitionKey eq 'cust_00050'", "-o", "table"}
	out, errOut, status := runWith(context.Background(), &Factory{Session: &drawSession{testSession{explain: true}}}, db, "", args...)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	if !strings.Contains(out, "partition scan · scanned 7") || !strings.Contains(out, "key space of Orders") || !strings.Contains(out, "reads 'cust_00050'") {
		t.Errorf("no picture under the footer:\n%s", out)
	}
	out, _, _ = runWith(context.Background(), &Factory{Session: &testSession{explain: true}}, db, "", args...)
	if strings.Contains(out, "key space") {
		t.Errorf("drawn with explain on:\n%s", out)
	}
}

// stats --draw draws the sample orders' partitions, largest shares and
// properties; lint --draw flags the partitions its findings are about.
func TestStatsAndLintDraw(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "sample", "load", "orders")
	mustRun(t, db, "", "sample", "load", "bad")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"stats_draw_orders", []string{"stats", "Orders", "--draw"}, "largest partitions, by share of the table:"},
		{"lint_draw_bad", []string{"lint", "BadDesign", "--draw"}, "flagged: '2024-06-08'"},
	} {
		out, errOut, status := run(context.Background(), db, "", c.args...)
		if !strings.Contains(out, "key space of") || !strings.Contains(out, c.want) {
			t.Errorf("%s: no picture (%q) in\n%s%s", c.name, c.want, out, errOut)
		}
		checkGolden(t, c.name, transcript(c.args, "", out, errOut, status))
	}
	out, _, _ := run(context.Background(), db, "", "stats", "Orders", "-o", "table")
	if strings.Contains(out, "key space") {
		t.Errorf("stats drew without --draw:\n%s", out)
	}
}

// A finding's examples name its partitions: 'pk', ('pk', 'rk'), quotes
// doubled inside.
func TestPartitionsNamed(t *testing.T) {
	f := design.Finding{Evidence: design.Evidence{Examples: []string{"'a''b': 30 entities (2%)", "('c', 'r1')", "7 entities"}}}
	if got := strings.Join(partitionsNamed(f), "|"); got != "a'b|c" {
		t.Errorf("partitionsNamed = %q", got)
	}
}
