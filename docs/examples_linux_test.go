//go:build linux

package docs

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// show logs what each command gives (go test ./docs -run TestExamples/NAME -v -args -show), to write it into a document.
var show = flag.Bool("show", false, "log each example's output")

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// buildTstable builds the command the examples run, once.
func buildTstable(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tstable-docs")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "tstable")
		c := exec.Command("go", "build", "-o", binPath, "./cmd/tstable")
		c.Dir = ".."
		if out, err := c.CombinedOutput(); err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binPath
}

// Every example of README and the guides runs as the document shows it:
// each document's sh blocks in order in a fresh home folder, the output
// compared where the document shows it (a $ transcript), the exit status
// 0 unless the command's comment says exit N; a shell session (a text
// block of prompts) through tstable shell, its output compared when the
// block shows any; a summary of commands (a text block of tstable lines)
// against their help; a block with file=NAME written to NAME first. A renamed flag or a changed message fails here, not in
// the reader's hands.
func TestExamples(t *testing.T) {
	files, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	bin := buildTstable(t)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".md"), func(t *testing.T) {
			t.Parallel()
			blocks, err := readBlocks(f)
			if err != nil {
				t.Fatal(err)
			}
			s := newSession(t, bin)
			for _, b := range blocks {
				runBlock(t, s, b)
			}
		})
	}
}

// runBlock runs one block in the document's session.
func runBlock(t *testing.T, s *session, b block) {
	if b.copyFrom != "" && b.notRun == "" {
		copyIntoSession(t, s, b)
	}
	switch {
	case b.notRun != "":
	case b.attr("file") != "":
		path := filepath.Join(s.home, b.attr("file"))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(strings.Join(b.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	case b.lang == "sh":
		for _, st := range shSteps(b) {
			runStep(t, s, b, st)
		}
	case isShellTranscript(b):
		typed, want := shellLines(b)
		got, status := s.run("tstable shell", strings.Join(typed, "\n")+"\n")
		if status != 0 || len(want) > 0 && !matches(normalize(want), normalize(got)) {
			t.Errorf("%s: the shell session shows\n%s\nbut it gives (exit %d)\n%s", b, strings.Join(want, "\n"), status, strings.Join(got, "\n"))
		}
	case b.lang == "text" && slices.Contains(b.attrs, "server"):
		checkServerOutput(t, s, b)
	case isSynopsis(b):
		checkSynopsis(t, s, b)
	case b.lang == "go":
		// run by TestGoExamples
	case runnable[b.lang] || b.lang == "":
		t.Errorf("%s: a %q block is not run: make it sh, or say why above it (<!-- not run: WHY -->)", b, b.lang)
	}
}

// copyIntoSession copies the repository's file a block names into the
// session's folder, as the document tells the reader to.
func copyIntoSession(t *testing.T, s *session, b block) {
	src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(b.copyFrom)))
	if err != nil {
		t.Errorf("%s: the file to copy from the repository: %v", b, err)
		return
	}
	dst := filepath.Join(s.home, filepath.FromSlash(b.copyTo))
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// exportRE is a line that sets a variable for the commands after it.
var exportRE = regexp.MustCompile(`^export ([A-Za-z_][A-Za-z0-9_]*)=([^\s'"$;&|]*)$`)

// runStep runs one command line and compares it with the document.
func runStep(t *testing.T, s *session, b block, st step) {
	where := b.file + ":" + itoa(st.line)
	if st.background {
		got := s.startBackground(st.command, st.want)
		if *show {
			t.Logf("%s: $ %s &\n%s", where, st.command, strings.Join(got, "\n"))
		}
		if st.check && !hasPrefix(normalize(st.want), got) {
			t.Errorf("%s: $ %s &\nshows\n%s\nbut it begins\n%s", where, st.command, strings.Join(st.want, "\n"), strings.Join(got, "\n"))
		}
		return
	}
	if m := exportRE.FindStringSubmatch(st.command); m != nil {
		s.env = append(s.env, m[1]+"="+m[2]) // the reader's shell keeps it for the commands after
		return
	}
	got, status := s.run(st.command, "")
	if *show {
		t.Logf("%s: $ %s   (exit %d)\n%s", where, st.command, status, strings.Join(got, "\n"))
	}
	if status != st.exit {
		t.Errorf("%s: $ %s\nexits %d, not %d:\n%s", where, st.command, status, st.exit, strings.Join(got, "\n"))
		return
	}
	if st.check && !matches(normalize(st.want), normalize(got)) {
		t.Errorf("%s: $ %s\nshows\n%s\nbut it gives\n%s", where, st.command, strings.Join(st.want, "\n"), strings.Join(got, "\n"))
	}
}

// checkSynopsis checks a summary of commands (a text block of lines
// beginning with "tstable "; alternatives split by " | "): each command
// named is one, and has each --flag its line gives it.
func checkSynopsis(t *testing.T, s *session, b block) {
	for i, alts := range synopsisLines(b) {
		var path []string
		for _, alt := range alts {
			words := strings.Fields(alt)
			if len(words) > 0 && words[0] == "tstable" {
				words, path = words[1:], nil
			}
			if len(words) > 0 && !strings.HasPrefix(words[0], "-") {
				path = nil
				for _, w := range words {
					if !commandWordRE.MatchString(w) {
						break
					}
					path = append(path, w)
				}
			}
			text, ok := helpOf(s, path)
			if !ok {
				t.Errorf("%s:%d: tstable %s is no command:\n%s", b.file, b.line+1+i, strings.Join(path, " "), text)
				continue
			}
			for _, flag := range flagRE.FindAllString(alt, -1) {
				if !regexp.MustCompile(regexp.QuoteMeta(flag) + `\b[^-]`).MatchString(text) {
					t.Errorf("%s:%d: tstable %s has no flag %s", b.file, b.line+1+i, strings.Join(path, " "), flag)
				}
			}
		}
	}
}

var (
	commandWordRE = regexp.MustCompile(`^[a-z]+$`)
	flagRE        = regexp.MustCompile(`--[a-z][a-z-]*`)
)

// helpOf is the help of the command at path, and whether there is one:
// its usage line names it (cobra shows the parent's help for an unknown
// command); "help TOPIC" is a help topic.
func helpOf(s *session, path []string) (string, bool) {
	if len(path) > 0 && path[0] == "help" {
		out, status := s.run("tstable "+strings.Join(path, " "), "")
		text := strings.Join(out, "\n")
		return text, status == 0 && !strings.Contains(text, "Unknown help topic")
	}
	out, status := s.run("tstable "+strings.Join(append(path, "--help"), " "), "")
	usage := "  " + strings.Join(append([]string{"tstable"}, path...), " ") + " "
	for _, l := range out {
		if status == 0 && strings.HasPrefix(l+" ", usage) {
			return strings.Join(out, "\n"), true
		}
	}
	return strings.Join(out, "\n"), false
}

// checkServerOutput checks a text block marked "server": what a command
// left running (started with &) has shown meanwhile, the block's lines in
// a row somewhere in its output.
func checkServerOutput(t *testing.T, s *session, b block) {
	if len(s.bg) == 0 {
		t.Errorf("%s: a server's output, but nothing runs in the background", b)
		return
	}
	want := normalize(b.lines)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var outs []string
		for _, bg := range s.bg {
			got := normalize(s.shown(bg.out.String()))
			for i := range got {
				if hasPrefix(want, got[i:]) {
					return
				}
			}
			outs = append(outs, strings.Join(got, "\n"))
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: the server shows\n%s\nbut what runs shows\n%s", b, strings.Join(b.lines, "\n"), strings.Join(outs, "\n--\n"))
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
