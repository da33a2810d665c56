package backend

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tstable/tstable/"

// deps maps each package of the module (without the module's prefix) to
// the packages of the module it links, directly or not.
func deps(t *testing.T) map[string][]string {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Deps \" \"}}", module+"...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, list, _ := strings.Cut(line, ":")
		pkg := strings.TrimPrefix(path, module)
		m[pkg] = []string{}
		for _, d := range strings.Fields(list) {
			if rest, ok := strings.CutPrefix(d, module); ok {
				m[pkg] = append(m[pkg], rest)
			}
		}
	}
	return m
}

// Only what chooses an engine or opens a local file links the local
// engine: the command line, the server (serve opens its file) and what
// starts them. Everything else talks to a Backend it is given, so the
// remote backend, the shell, completion, design, transfer and the
// contract's suite know the contract, not the engine.
func TestOnlyWhatChoosesAnEngineLinksStore(t *testing.T) {
	chooses := func(pkg string) bool {
		return pkg == "cmd" || pkg == "server" || pkg == "store" ||
			strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "tstabletest") ||
			strings.HasPrefix(pkg, "scripts/") || strings.HasPrefix(pkg, "store/")
	}
	all := deps(t)
	for _, pkg := range []string{"remote", "design", "transfer", "completions", "shell", "storetest"} {
		if _, ok := all[pkg]; !ok {
			t.Errorf("package %s is not in the module", pkg)
		}
	}
	for pkg, ds := range all {
		if !chooses(pkg) && slices.Contains(ds, "store") {
			t.Errorf("%s links the local engine (store): it should name the contract (backend) only", pkg)
		}
	}
}

// The contract stands apart from every engine: of tstable's own code it
// links only the service's data model and rules (odata).
func TestTheContractLinksOnlyOdata(t *testing.T) {
	ds := deps(t)["backend"]
	for _, d := range ds {
		if d != "odata" {
			t.Errorf("backend links %s; the contract depends on odata alone", d)
		}
	}
}

// The store's rooms point one way: its encodings (store/internal/values)
// are pure code, linking no engine, no store and no room above them; check
// and recover (store/internal/repair) read a damaged file through the
// page reader and the encodings, never through the engine, and write the
// new file through a narrow interface the store implements, so they link
// neither the engine nor the store; the bulk loader (store/internal/bulk)
// reaches the file through interfaces the store implements too.
func TestTheStoresRoomsPointOneWay(t *testing.T) {
	rules := []struct {
		pkg    string
		allows []string // the module's packages it may link
	}{
		{"store/internal/values", []string{"odata", "backend", "store/internal/boltfile"}},
		{"store/internal/repair", []string{"odata", "backend", "store/internal/boltfile", "store/internal/dictcopy", "store/internal/values"}},
		{"store/internal/bulk", []string{"odata", "backend", "store/internal/boltfile", "store/internal/values"}},
	}
	all := deps(t)
	for _, r := range rules {
		ds, ok := all[r.pkg]
		if !ok {
			t.Errorf("package %s is not in the module", r.pkg)
			continue
		}
		for _, d := range ds {
			if !slices.Contains(r.allows, d) {
				t.Errorf("%s links %s; it may link only %s", r.pkg, d, strings.Join(r.allows, ", "))
			}
		}
		out, err := exec.Command("go", "list", "-deps", module+r.pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		for _, d := range strings.Fields(string(out)) {
			if strings.HasPrefix(d, "go.etcd.io/bbolt") {
				t.Errorf("%s links the engine (%s)", r.pkg, d)
			}
		}
	}
}
