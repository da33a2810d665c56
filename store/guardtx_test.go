package store

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"testing"
)

// engineFiles are the files that hold the engine's transactions, buckets
// and cursors: the guarded transaction itself, the calls' frame (begin,
// commit, confirm), the scanners, which move over keys whose way down
// the guarded bucket has checked, and compact's copy of a file checked
// whole first (bbolt's Compact, made to stop on an interrupt).
var engineFiles = []string{"guardtx.go", "op.go", "commit.go", "confirm.go", "scan.go", "pscan.go", "compactcopy.go"}

// Outside engineFiles, the store reaches the file only through a gtx and
// its gbuckets, which have the way to every key they touch checked: no
// expression there is one of the engine's transactions, buckets or
// cursors. A new read or write path cannot forget the guard.
func TestOnlyTheGuardedTransactionHoldsTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package from source")
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := conf.Check(pkg.ImportPath, fset, files, info); err != nil {
		t.Fatal(err)
	}
	for expr, tv := range info.Types {
		pos := fset.Position(expr.Pos())
		if slices.Contains(engineFiles, filepath.Base(pos.Filename)) || !engineHandle(tv.Type) {
			continue
		}
		t.Errorf("%s: %s is the engine's %s, outside the guarded transaction (use a gtx and its gbuckets)", pos, types.ExprString(expr), tv.Type)
	}
}

// engineHandle reports whether t is one of the engine's transactions,
// buckets or cursors.
func engineHandle(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "go.etcd.io/bbolt" {
		return false
	}
	switch n.Obj().Name() {
	case "Tx", "Bucket", "Cursor":
		return true
	}
	return false
}
