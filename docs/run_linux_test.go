//go:build linux

package docs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A session runs one document's examples, in order, as a reader would
// type them: each command line by bash, in a fresh home folder that is
// also the working folder (so the default database is
// ~/.local/share/tstable/tstable.db there), its output on a terminal 80
// columns wide, nothing on its standard input.
type session struct {
	t    *testing.T
	home string
	env  []string
	bg   []*background
}

// A background is a command the document leaves running (a line ending
// in &, as tstable serve): its output is gathered as it comes.
type background struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// home is how the documents name the reader's home folder; the session's
// own is shown so.
const home = "/home/me"

func newSession(t *testing.T, bin string) *session {
	home := t.TempDir()
	s := &session{t: t, home: home, env: []string{
		"HOME=" + home,
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"NO_COLOR=1", "PAGER=cat", "TERM=xterm", "LANG=C.UTF-8", "TZ=UTC",
	}}
	t.Cleanup(s.stop)
	return s
}

// run runs one command line to its end and returns what the terminal
// shows (home folder as /home/me) and its exit status.
func (s *session) run(line, stdin string) ([]string, int) {
	cmd, out, wait := s.start(line, stdin)
	if cmd == nil {
		return nil, -1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	go func() {
		<-ctx.Done()
		if ctx.Err() == context.DeadlineExceeded {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	err := cmd.Wait()
	wait()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		s.t.Errorf("%s: %v", line, err)
	}
	if ctx.Err() == context.DeadlineExceeded {
		s.t.Errorf("%s: still running after 3 minutes", line)
	}
	return s.shown(out.String()), status
}

// start starts a command line under bash, in its own process group, its
// output on a new terminal; wait waits until the terminal has given all
// it holds.
func (s *session) start(line, stdin string) (*exec.Cmd, *syncBuffer, func()) {
	master, slave, err := openTerminal(80, 24)
	if err != nil {
		s.t.Fatalf("a terminal for the examples: %v", err)
	}
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir, cmd.Env = s.home, s.env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	copied := make(chan struct{})
	go func() {
		io.Copy(out, master) // ends with EIO once no process holds the terminal
		close(copied)
	}()
	err = cmd.Start()
	slave.Close()
	if err != nil {
		master.Close()
		s.t.Errorf("%s: %v", line, err)
		return nil, nil, nil
	}
	return cmd, out, func() {
		select {
		case <-copied:
		case <-time.After(10 * time.Second):
			s.t.Errorf("%s: its output never ended (a process it started still holds the terminal)", line)
		}
		master.Close()
	}
}

// startBackground starts a command line that keeps running, and returns
// once its output begins as want shows (or after 20 seconds).
func (s *session) startBackground(line string, want []string) []string {
	cmd, out, wait := s.start(line, "")
	if cmd == nil {
		return nil
	}
	b := &background{cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		wait()
		close(b.done)
	}()
	s.bg = append(s.bg, b)
	ready := func(got []string) bool {
		if len(want) == 0 {
			return len(got) > 0
		}
		return hasPrefix(normalize(want), got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := normalize(s.shown(out.String()))
		select {
		case <-b.done:
			return got
		default:
		}
		if ready(got) || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop interrupts what is still running, as Ctrl-C would, then kills it.
func (s *session) stop() {
	for _, b := range s.bg {
		syscall.Kill(-b.cmd.Process.Pid, syscall.SIGINT)
		select {
		case <-b.done:
		case <-time.After(10 * time.Second):
			s.t.Errorf("%s: still running 10 s after Ctrl-C", strings.Join(b.cmd.Args, " "))
			syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
			<-b.done
		}
	}
	s.bg = nil
}

// shown is the terminal's text with the session's home folder as a
// reader's.
func (s *session) shown(raw string) []string {
	lines := screen(raw)
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, s.home, home)
	}
	return lines
}
