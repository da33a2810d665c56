package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The contributors' guide's "How the code is laid out" and "Where a change
// goes" (docs/contributing.md) describe the code as it is: its packages
// in an order every import follows downwards, every package of the module
// in it, and every file and name it sends a reader to there.
func TestLayoutGuideIsTheCode(t *testing.T) {
	section := layoutGuide(t)
	rows := layoutRows(section)
	var order []string
	for _, r := range rows {
		order = append(order, r...)
	}
	if len(order) < 10 {
		t.Fatalf("found %d packages in the layout table", len(order))
	}
	rowOf := map[string]int{}
	for i, r := range rows {
		for _, p := range r {
			rowOf[p] = i
		}
	}
	const module = "github.com/tstable/tstable/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, ":")
		pkg := strings.TrimPrefix(path, module)
		if strings.HasPrefix(pkg, "scripts/") || pkg == "cmd/tstable" {
			continue
		}
		row, ok := rowOf[pkg]
		if !ok {
			t.Errorf("package %s is not in the layout table of %s", pkg, layoutDoc)
			continue
		}
		for _, imp := range strings.Fields(imports) {
			dep, ok := strings.CutPrefix(imp, module)
			if r, listed := rowOf[dep]; ok && listed && r < row {
				t.Errorf("%s imports %s, which the layout table lists above it: imports point down the list", pkg, dep)
			}
		}
	}
	checkLayoutNames(t, section, rows)
}

// layoutDoc is the guide that describes the code's layout.
const layoutDoc = "docs/contributing.md"

// layoutGuide is the guide's section on the layout, through "where a
// change goes".
func layoutGuide(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(layoutDoc)))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "## How the code is laid out")
	end := strings.Index(s, "## Tests")
	if start < 0 || end < start {
		t.Fatalf("%s has no section on the layout followed by one on the tests", layoutDoc)
	}
	return s[start:end]
}

// layoutRows are the packages of each row of the layout table, in order.
func layoutRows(section string) [][]string {
	var rows [][]string
	pkg := regexp.MustCompile("`([a-z/]+)/`")
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		var row []string
		for _, m := range pkg.FindAllStringSubmatch(first, -1) {
			row = append(row, m[1])
		}
		rows = append(rows, row)
	}
	return rows
}

// checkLayoutNames checks that each file the section names exists (a bare
// name in a row of the table, in that row's package) and that each Go name
// it names is declared in the code.
func checkLayoutNames(t *testing.T, section string, rows [][]string) {
	code := moduleSource(t)
	quoted := regexp.MustCompile("`([^`]+)`")
	ident := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$`)
	row := -1
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			row++
		} else if !strings.HasPrefix(line, "|") {
			row = -1
		}
		for _, m := range quoted.FindAllStringSubmatch(line, -1) {
			name := m[1]
			switch {
			case strings.HasPrefix(name, "_"): // a pattern of names, _windows.go
			case strings.HasSuffix(name, ".go"):
				path := name
				if !strings.Contains(name, "/") && row >= 0 {
					path = filepath.Join(rows[row][0], name)
				}
				if _, err := os.Stat(filepath.Join("..", path)); err != nil {
					t.Errorf("%s names %s, which is not there", layoutDoc, path)
				}
			case ident.MatchString(name) && (strings.ContainsAny(name, ".()") || strings.ToLower(name) != name):
				last := strings.TrimSuffix(name[strings.LastIndex(name, ".")+1:], "()")
				if name[len(name)-1] == ')' {
					last = strings.TrimSuffix(name, "()")
					last = last[strings.LastIndex(last, ".")+1:]
				}
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(last) + `\b`).MatchString(code) {
					t.Errorf("%s names %s, which no Go file declares", layoutDoc, name)
				}
			}
		}
	}
}

// moduleSource is the text of the module's non-test Go files.
func moduleSource(t *testing.T) string {
	var b strings.Builder
	filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains([]string{"third_party", "testdata", ".git"}, d.Name()) {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			src, _ := os.ReadFile(path)
			b.Write(src)
		}
		return nil
	})
	return b.String()
}
