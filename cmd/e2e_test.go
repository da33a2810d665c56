package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// buildBinary builds cmd/tstable once per test binary.
func buildBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tstable-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "tstable")
		c := exec.Command("go", "build", "-o", binPath, "./cmd/tstable")
		c.Dir = ".."
		buildOut, buildErr = c.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

// cli runs the built binary against one database, or, with no binary,
// the same command lines in-process through Execute.
type cli struct {
	t   testing.TB
	bin string
	db  string
}

// run returns stdout, stderr and the exit status.
func (c *cli) run(stdin string, args ...string) (string, string, int) {
	c.t.Helper()
	if c.bin == "" {
		return run(context.Background(), c.db, stdin, args...)
	}
	cmd := exec.Command(c.bin, append([]string{"--db", c.db}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("%v: %v", args, err)
	}
	return out.String(), errOut.String(), status
}

// ok runs a command that must succeed and returns its stdout.
func (c *cli) ok(stdin string, args ...string) (string, string) {
	c.t.Helper()
	out, errOut, status := c.run(stdin, args...)
	if status != 0 {
		c.t.Fatalf("tstable %s: exit %d\n%s", strings.Join(args, " "), status, errOut)
	}
	return out, errOut
}

var stampPrefix = regexp.MustCompile(`"odata\.etag":"[^"\\]*(?:\\.[^"\\]*)*",|,"Timestamp":"[^"]*"`)

// withoutStamps drops the etag and Timestamp the store sets.
func withoutStamps(s string) string { return stampPrefix.ReplaceAllString(s, "") }

// TestEndToEnd runs the script with the built binary.
func TestEndToEnd(t *testing.T) {
	endToEnd(t, &cli{t: t, bin: buildBinary(t), db: filepath.Join(t.TempDir(), "e2e.db")})
}

// TestEndToEndInProcess runs the same script through Execute, against the
// store this test binary uses (memBackend until the bbolt store is built in).
func TestEndToEndInProcess(t *testing.T) {
	endToEnd(t, &cli{t: t, db: filepath.Join(t.TempDir(), "e2e.db")})
}

// endToEnd is the script: create a table, import the employees, the four
// query classes, paging, a failing batch, and export → import → export.
func endToEnd(t *testing.T, c *cli) {
	c.ok("", "table", "create", "Employees")
	_, errOut := c.ok("", "import", "Employees", employeesPath)
	if errOut != "imported 480 entities into Employees\n" {
		t.Errorf("import said %q", errOut)
	}
	out, _ := c.ok("", "table", "list", "-o", "jsonl")
	if out != "{\"TableName\":\"Employees\"}\n" {
		t.Errorf("table list: %q", out)
	}

	// The four query classes, explained.
	explain := func(filter string) (class string, scanned, returned int64) {
		out, _ := c.ok("", "explain", "Employees", "--filter", filter, "-o", "json")
		var x struct {
			Class             string
			Scanned, Returned int64
		}
		if err := json.Unmarshal([]byte(out), &x); err != nil {
			t.Fatalf("explain %s: %v\n%s", filter, err, out)
		}
		return x.Class, x.Scanned, x.Returned
	}
	for _, tc := range []struct {
		filter            string
		class             string
		scanned, returned int64
	}{
		{"PartitionKey eq 'Sales' and RowKey eq '100111'", "point", 1, 1},
		{"PartitionKey eq 'Sales' and RowKey ge '105000' and RowKey lt '110000'", "range", -1, -1},
		{"PartitionKey eq 'Sales' and Age gt 40", "partition-scan", 120, -1},
		{"Age gt 40", "table-scan", 480, -1},
	} {
		class, scanned, returned := explain(tc.filter)
		if class != tc.class || (tc.scanned >= 0 && scanned != tc.scanned) || (tc.returned >= 0 && returned != tc.returned) {
			t.Errorf("%s: got %s scanned %d returned %d; want %s scanned %d returned %d", tc.filter, class, scanned, returned, tc.class, tc.scanned, tc.returned)
		}
		if tc.class == "range" && (scanned != returned || returned == 0) {
			t.Errorf("range query scanned %d for %d returned", scanned, returned)
		}
		// query --explain says the same on standard error in jsonl mode.
		out, errOut := c.ok("", "query", "Employees", "--filter", tc.filter, "--explain", "--all", "-o", "jsonl")
		if n := int64(strings.Count(out, "\n")); n != returned {
			t.Errorf("%s: query returned %d lines, explain said %d", tc.filter, n, returned)
		}
		if !strings.Contains(errOut, "scanned "+itoa(scanned)+", returned "+itoa(returned)) {
			t.Errorf("%s: query --explain said %q", tc.filter, errOut)
		}
	}

	// Paging through every page with tokens gives what --all gives.
	all, _ := c.ok("", "query", "Employees", "--all", "-o", "jsonl")
	var paged strings.Builder
	args := []string{"query", "Employees", "--page-size", "100", "-o", "jsonl"}
	pages := 0
	for {
		out, errOut := c.ok("", args...)
		paged.WriteString(out)
		pages++
		tok, found := strings.CutPrefix(strings.TrimSpace(errOut), "continuation: ")
		if !found {
			break
		}
		args = []string{"query", "Employees", "--page-size", "100", "-o", "jsonl", "--continuation", tok}
	}
	if pages != 5 || paged.String() != all || strings.Count(all, "\n") != 480 {
		t.Errorf("%d pages; paged output equals --all: %v; --all has %d lines", pages, paged.String() == all, strings.Count(all, "\n"))
	}

	// A failing batch changes nothing.
	before, _ := c.ok("", "export", "Employees")
	batch := `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"999999","Age":30}}
{"op":"merge","entity":{"PartitionKey":"Sales","RowKey":"100111","Age":31}}
{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"100259"}}
`
	_, errOut, status := c.run(batch, "batch", "Employees")
	if status != 1 || !strings.HasPrefix(errOut, "error: operation 2: EntityAlreadyExists: ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("failing batch: exit %d, %q", status, errOut)
	}
	if after, _ := c.ok("", "export", "Employees"); after != before {
		t.Error("the failed batch changed the table")
	}

	// export | import into a new table | export: the same entities.
	c.ok("", "table", "create", "Copy")
	c.ok(before, "import", "Copy", "-")
	copied, _ := c.ok("", "export", "Copy")
	if withoutStamps(copied) != withoutStamps(before) {
		t.Error("export → import → export changed the entities")
	}
	if strings.Contains(withoutStamps(before), "odata.etag") {
		t.Error("withoutStamps left an etag")
	}

	// Errors are one line with the service's code, and the right status.
	_, errOut, status = c.run("", "get", "Employees", "Sales", "nope")
	if status != 1 || !strings.HasPrefix(errOut, "error: ResourceNotFound: ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("get missing: exit %d, %q", status, errOut)
	}
	_, errOut, status = c.run("", "query", "Employees", "--filter", "Age gt")
	if status != 2 || !strings.HasPrefix(errOut, "error: InvalidInput: --filter: column ") {
		t.Errorf("bad filter: exit %d, %q", status, errOut)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
