package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tstable/tstable/server"
)

// rowKeysOf is the RowKeys of the JSON lines out.
func rowKeysOf(t *testing.T, out string) []string {
	t.Helper()
	var keys []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var e map[string]any
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		keys = append(keys, e["RowKey"].(string))
	}
	return keys
}

// The command line and tstable serve order keys as the service does, by
// UTF-16 code units: 😀 (U+1F600) before U+E000 to U+FFFF, so RowKey gt
// '😀' finds them and RowKey gt '\uFFFD' does not find 😀.
func TestKeysInTheServicesOrder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "table", "create", "Keys")
	var rows []string
	for _, k := range []string{"\uFFFD", "a", "😀", "\uE000", "ｶ"} {
		rows = append(rows, `{"PartitionKey":"p","RowKey":"`+k+`","Name":"`+k+`"}`)
	}
	mustRun(t, db, strings.Join(rows, "\n")+"\n", "import", "Keys")
	queries := []struct {
		filter string
		want   []string
	}{
		{"", []string{"a", "😀", "\uE000", "ｶ", "\uFFFD"}},
		{"RowKey gt '😀'", []string{"\uE000", "ｶ", "\uFFFD"}},
		{"PartitionKey eq 'p' and RowKey gt '\uFFFD'", nil},
		{"Name lt '\uE000'", []string{"a", "😀"}},
	}
	ask := func(how string) {
		for _, q := range queries {
			args := []string{"query", "Keys", "--all", "-o", "jsonl"}
			if q.filter != "" {
				args = append(args, "--filter", q.filter)
			}
			if got := rowKeysOf(t, mustRun(t, db, "", args...)); !slices.Equal(got, q.want) {
				t.Errorf("%s: %q: %+q, want %+q", how, q.filter, got, q.want)
			}
		}
		if got := rowKeysOf(t, mustRun(t, db, "", "query", "Keys", "--page-size", "2", "--all", "-o", "jsonl")); !slices.Equal(got, queries[0].want) {
			t.Errorf("%s: by pages of 2: %+q", how, got)
		}
	}
	ask("the command line")
	srv, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	ask("through tstable serve")
}

// A file of format 1 answers as it did (its keys in code point order,
// its filters too) and says it is of an older format; tstable upgrade
// (compact) rewrites it in format 3, and from then on it answers in the
// service's order.
func TestUpgradeAFileOfFormat1(t *testing.T) {
	src, err := os.ReadFile("../store/testdata/format1.db")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(db, src, 0o644); err != nil {
		t.Fatal(err)
	}
	gt := []string{"query", "Types", "--all", "-o", "jsonl", "--filter", "PartitionKey eq 'p' and RowKey gt '\uFFFD'"}
	if got := rowKeysOf(t, mustRun(t, db, "", gt...)); !slices.Equal(got, []string{"😀"}) {
		t.Errorf("format 1: RowKey gt U+FFFD: %+q, want 😀 (as before)", got)
	}
	if out := mustRun(t, db, "", "status", "-o", "table"); !strings.Contains(out, "format   1") || !strings.Contains(out, "tstable compact rewrites it in format 3") {
		t.Errorf("status of a format-1 file:\n%s", out)
	}
	if out := mustRun(t, db, "", "check", "-o", "table"); !strings.Contains(out, "note: the file is in format 1") || !strings.Contains(out, "no problems") {
		t.Errorf("check of a format-1 file:\n%s", out)
	}
	before := mustRun(t, db, "", "export", "Types", "-o", "jsonl")
	if out := mustRun(t, db, "", "upgrade", "-o", "table"); !strings.Contains(out, "file format 1 → 3") {
		t.Errorf("upgrade says %q", out)
	}
	if got := rowKeysOf(t, mustRun(t, db, "", gt...)); len(got) != 0 {
		t.Errorf("format 2: RowKey gt U+FFFD: %+q, want none", got)
	}
	after := mustRun(t, db, "", "export", "Types", "-o", "jsonl")
	sorted := func(s string) []string { l := strings.Split(s, "\n"); slices.Sort(l); return l }
	if !slices.Equal(sorted(after), sorted(before)) || after == before {
		t.Errorf("the export after the upgrade is not the same lines in the new order:\n%s\nbefore:\n%s", after, before)
	}
	if out := mustRun(t, db, "", "status", "-o", "json"); !strings.Contains(out, `"format":3`) || strings.Contains(out, "note") {
		t.Errorf("status after the upgrade: %s", out)
	}
}
