package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyThePrinterWrites parses the command package and fails on any
// write to the standard streams outside the printer's files (isPrinterFile):
// the Printer is the only writer of command output (docs/contributing.md:
// "where a change goes"). A write
// is a use of a stream (X.Out, X.ErrOut, os.Stdout, os.Stderr), a print
// to standard output (fmt.Print*, print, println), a progress bar drawn
// on the streams directly (StartProgress, StartByteProgress), or handing
// cobra a stream to write to (SetOut, SetErr, SetOutput).
func TestOnlyThePrinterWrites(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if isPrinterFile(name) || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if what := streamWrite(n); what != "" {
				t.Errorf("%s: %s writes past the printer; hand the Printer a value instead (printer*.go)", fset.Position(n.Pos()), what)
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("only %d files checked: is the test in the command package?", checked)
	}
}

// isPrinterFile reports whether the file named is one of the printer's:
// printer.go and the files beside it named printer_*.go (one a format,
// the progress bars, the lists of entities, …).
func isPrinterFile(name string) bool {
	return name == "printer.go" || (strings.HasPrefix(name, "printer_") && strings.HasSuffix(name, ".go"))
}

// streamWrite names the write to a standard stream n is, or "".
func streamWrite(n ast.Node) string {
	switch n := n.(type) {
	case *ast.SelectorExpr:
		pkg, _ := n.X.(*ast.Ident)
		switch {
		case n.Sel.Name == "Out" || n.Sel.Name == "ErrOut":
			return "." + n.Sel.Name
		case pkg != nil && pkg.Name == "os" && (n.Sel.Name == "Stdout" || n.Sel.Name == "Stderr"):
			return "os." + n.Sel.Name
		case pkg != nil && pkg.Name == "fmt" && strings.HasPrefix(n.Sel.Name, "Print"):
			return "fmt." + n.Sel.Name
		}
	case *ast.CallExpr:
		switch fn := n.Fun.(type) {
		case *ast.Ident:
			if fn.Name == "print" || fn.Name == "println" {
				return fn.Name
			}
		case *ast.SelectorExpr:
			switch fn.Sel.Name {
			case "StartProgress", "StartByteProgress", "SetOut", "SetErr", "SetOutput":
				return fn.Sel.Name
			}
		}
	}
	return ""
}
