package docs

import (
	"encoding/json"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goImports are the packages a document's Go example may use, by the name
// it calls them.
var goImports = map[string]string{
	"context":     "context",
	"json":        "encoding/json",
	"errors":      "errors",
	"fmt":         "fmt",
	"http":        "net/http",
	"strings":     "strings",
	"testing":     "testing",
	"time":        "time",
	"azcore":      "github.com/Azure/azure-sdk-for-go/sdk/azcore",
	"azidentity":  "github.com/Azure/azure-sdk-for-go/sdk/azidentity",
	"aztables":    "github.com/Azure/azure-sdk-for-go/sdk/data/aztables",
	"tstabletest": "github.com/tstable/tstable/tstabletest",
}

var goTestRE = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\) \{`)

// Every Go example of the documents is a test of an application's code
// against tstabletest, and runs as one: the blocks are added to the
// tstabletest package's tests (through go test -overlay, nothing written
// into the tree) with the imports they use, and go test runs them.
func TestGoExamples(t *testing.T) {
	files, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	var src []string
	var names []string
	for _, f := range files {
		blocks, err := readBlocks(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if b.lang != "go" || b.notRun != "" {
				continue
			}
			code := strings.Join(b.lines, "\n")
			m := goTestRE.FindAllStringSubmatch(code, -1)
			if len(m) == 0 {
				t.Errorf("%s: a Go example that is no test function: make it func TestX(t *testing.T), or say why it is not run", b)
				continue
			}
			for _, n := range m {
				names = append(names, n[1])
			}
			src = append(src, "// "+b.String()+"\n"+code)
		}
	}
	if len(src) == 0 {
		t.Skip("no Go examples")
	}
	body := strings.Join(src, "\n\n")
	file := "package tstabletest_test\n\nimport (\n" + importsOf(t, body) + ")\n\n" + body + "\n"
	runOverlaid(t, file, names)
}

// importsOf is the import list of the packages code names.
func importsOf(t *testing.T, code string) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(code)), []byte(code), nil, 0)
	used := map[string]bool{}
	prev := ""
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.PERIOD && prev != "" {
			used[prev] = true
		}
		prev = ""
		if tok == token.IDENT {
			prev = lit
		}
	}
	var paths []string
	for name := range used {
		if p, ok := goImports[name]; ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var b strings.Builder
	for _, p := range paths {
		b.WriteString("\t\"" + p + "\"\n")
	}
	return b.String()
}

// runOverlaid runs the named tests of file, added to tstabletest's tests.
func runOverlaid(t *testing.T, file string, names []string) {
	dir := t.TempDir()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "docs_examples_test.go")
	if err := os.WriteFile(src, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(root, "tstabletest", "docs_examples_test.go"): src,
	}})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-overlay", ov, "-run", "^("+strings.Join(names, "|")+")$", "-v", "./tstabletest/")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the Go examples fail:\n%s\n%s", out, file)
	}
	for _, n := range names {
		if !strings.Contains(string(out), "--- PASS: "+n+" ") {
			t.Errorf("%s did not run:\n%s", n, out)
		}
	}
}
