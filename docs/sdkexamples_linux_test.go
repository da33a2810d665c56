//go:build linux

package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/storetest"
)

// sdkMarker names this test in the "not run" note of the blocks it runs.
const sdkMarker = "TestSDKExamples"

var (
	accountURLRE = regexp.MustCompile(`https://127\.0\.0\.1:\d+/devstoreaccount1`)
	serveTLSRE   = regexp.MustCompile(`^tstable serve .*--tls --oauth basic`)
)

// The documents' apps in other languages than Go run as written against
// tstable serve --tls --oauth basic, as TestExamples runs the rest: the
// documents' js and python blocks written to their files, the server
// started as the document starts it, then each command of the blocks
// whose "not run" note names this test, with the account URL the server
// printed, its output compared with what the document shows. A language
// whose runtime or SDK is not installed is skipped, saying so; with
// TSTABLE_SDK_TEST=1 the JavaScript SDK is installed with npm (as make
// test-serve-js does) and a missing one fails.
func TestSDKExamples(t *testing.T) {
	files, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	bin := buildTstable(t)
	for _, f := range files {
		blocks, err := readBlocks(f)
		if err != nil {
			t.Fatal(err)
		}
		var steps []step
		serveLine := ""
		for _, b := range blocks {
			if b.lang == "sh" && b.notRun == "" {
				for _, st := range shSteps(b) {
					if st.background && serveTLSRE.MatchString(st.command) {
						serveLine = st.command
					}
				}
			}
			if b.lang == "sh" && strings.Contains(b.notRun, sdkMarker) {
				steps = append(steps, shSteps(b)...)
			}
		}
		if len(steps) == 0 {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".md"), func(t *testing.T) {
			if serveLine == "" {
				t.Fatalf("%s: no tstable serve --tls --oauth basic & for the %s examples", f, sdkMarker)
			}
			s := newSession(t, bin)
			for _, b := range blocks {
				if name := b.attr("file"); name != "" && b.notRun == "" {
					if err := os.WriteFile(filepath.Join(s.home, name), []byte(strings.Join(b.lines, "\n")+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			url := startServed(t, s, serveLine)
			for _, st := range steps {
				t.Run(runtimeOf(st.command), func(t *testing.T) {
					if !sdkInstalled(t, s, st.command) {
						return
					}
					command := accountURLRE.ReplaceAllString(st.command, url)
					got, status := s.run(command, "")
					if status != 0 || !matches(normalize(st.want), normalize(got)) {
						t.Errorf("%s:%d: $ %s\nshows\n%s\nbut it gives (exit %d)\n%s", f, st.line, st.command, strings.Join(st.want, "\n"), status, strings.Join(got, "\n"))
					}
				})
			}
		})
	}
}

// runtimeOf is the program a command line runs: node, python3.
func runtimeOf(command string) string {
	for _, w := range strings.Fields(command) {
		if !strings.Contains(w, "=") {
			return w
		}
	}
	return command
}

// startServed starts the document's server in the session and returns
// the account URL it prints.
func startServed(t *testing.T, s *session, line string) string {
	s.startBackground(line, nil)
	bg := s.bg[len(s.bg)-1]
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if out := bg.out.String(); strings.Contains(out, "(Ctrl-C to stop)") {
			if u := accountURLRE.FindString(out); u != "" {
				return u
			}
			t.Fatalf("%s printed no account URL:\n%s", line, out)
		}
	}
	t.Fatalf("%s did not start:\n%s", line, bg.out.String())
	return ""
}

// sdkInstalled readies the session for the runtime command uses and
// reports whether it and its SDK are there; when not, the test is
// skipped with what to install.
func sdkInstalled(t *testing.T, s *session, command string) bool {
	install := os.Getenv("TSTABLE_SDK_TEST") != ""
	switch runtimeOf(command) {
	case "node":
		if _, err := exec.LookPath("node"); err != nil {
			if install {
				t.Fatal("Node.js is not installed: the JavaScript example cannot run")
			}
			t.Skip("Node.js is not installed: the JavaScript example is not run")
		}
		mods := filepath.Join(storetest.AzuriteDir(), "node_modules")
		if _, err := os.Stat(filepath.Join(mods, "@azure", "data-tables", "package.json")); err != nil {
			if !install {
				t.Skipf("@azure/data-tables is not installed in %s: the JavaScript example is not run (TSTABLE_SDK_TEST=1 installs it with npm, as make test-serve-js does)", mods)
			}
			mods = storetest.NodeModules(t)
		}
		// An ES module finds its packages in a node_modules folder beside it.
		link := filepath.Join(s.home, "node_modules")
		if _, err := os.Lstat(link); err != nil {
			if err := os.Symlink(mods, link); err != nil {
				t.Fatal(err)
			}
		}
		return true
	case "python3":
		for _, py := range []string{"python3", "/usr/bin/python3"} {
			path, err := exec.LookPath(py)
			if err != nil {
				continue
			}
			if exec.Command(path, "-c", "import azure.data.tables, azure.core").Run() == nil {
				s.env = append(s.env, "PATH="+filepath.Dir(path)+string(os.PathListSeparator)+pathOf(s.env))
				return true
			}
		}
		const why = "no python3 with azure-data-tables (pip install azure-data-tables azure-identity, or apt-get install python3-azure): the Python example is not run"
		if install { // make test-serve-js: the example must run
			t.Fatal(why)
		}
		t.Skip(why)
	}
	t.Fatalf("%s: no runtime known for this command", command)
	return false
}

// pathOf is the PATH of env.
func pathOf(env []string) string {
	p := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "PATH="); ok {
			p = v
		}
	}
	return p
}
