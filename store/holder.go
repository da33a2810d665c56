package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// holder is a process that holds a lock on a database file.
type holder struct {
	pid     int
	command string // its command line, shortened; "" when unknown
}

func (h holder) String() string {
	if h.command == "" {
		return fmt.Sprintf("process %d", h.pid)
	}
	return fmt.Sprintf("%s (pid %d)", h.command, h.pid)
}

// describeHolders names the processes holding a file for a message:
// "tstable import People big.jsonl (pid 4711)", two or three of them
// joined with "and", or "another process" when none is known.
func describeHolders(hs []holder) string {
	switch len(hs) {
	case 0:
		return "another process"
	case 1:
		return hs[0].String()
	}
	var parts []string
	for i, h := range hs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(hs)-3))
			break
		}
		parts = append(parts, h.String())
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// renderCommand renders a process's arguments for a message: the
// program's base name (without Windows' ".exe") and its arguments, quoted
// when they hold spaces, cut at about 60 characters.
func renderCommand(args []string) string {
	if len(args) == 0 || args[0] == "" {
		return ""
	}
	args = slices.Clone(args)
	args[0] = filepath.Base(args[0])
	if ext := filepath.Ext(args[0]); strings.EqualFold(ext, ".exe") {
		args[0] = strings.TrimSuffix(args[0], ext)
	}
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"") {
			args[i] = fmt.Sprintf("%q", a)
		}
	}
	s := strings.Join(args, " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}
