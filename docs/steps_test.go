package docs

import (
	"regexp"
	"strconv"
	"strings"
)

// A step is one command line of a document's example, with what the
// document says of it.
type step struct {
	line       int      // where it is in the document
	command    string   // for bash
	want       []string // the output the document shows
	check      bool     // whether the document shows the output (a $ transcript), so it is compared
	exit       int      // the exit status: 0 unless the command's comment says exit N
	background bool     // the line ends with &: it keeps running (tstable serve)
}

var (
	exitRE    = regexp.MustCompile(`\s#\s.*?\bexit (\d+)\b`)
	commentRE = regexp.MustCompile(`\s+#\s.*$`)
)

// shSteps reads an sh block. In a transcript, lines beginning with "$ "
// are commands and the lines after each, up to the next, its output;
// otherwise every line is a command (comment lines and blank ones apart)
// whose output is not shown. A command ending with a backslash goes on
// on the next line.
func shSteps(b block) []step {
	transcript := false
	for _, l := range b.lines {
		if strings.HasPrefix(l, "$ ") {
			transcript = true
		}
	}
	var steps []step
	for i := 0; i < len(b.lines); i++ {
		l := b.lines[i]
		if transcript && !strings.HasPrefix(l, "$ ") {
			if len(steps) > 0 {
				steps[len(steps)-1].want = append(steps[len(steps)-1].want, l)
			}
			continue
		}
		l = strings.TrimPrefix(l, "$ ")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		st := step{line: b.line + 1 + i, check: transcript}
		for strings.HasSuffix(l, `\`) && i+1 < len(b.lines) {
			i++
			l += "\n" + b.lines[i]
		}
		st.command = l
		if m := exitRE.FindStringSubmatch(l); m != nil {
			st.exit, _ = strconv.Atoi(m[1])
		}
		if code := strings.TrimSpace(commentRE.ReplaceAllString(l, "")); strings.HasSuffix(code, "&") {
			st.background, st.command = true, strings.TrimSpace(strings.TrimSuffix(code, "&"))
		}
		steps = append(steps, st)
	}
	return steps
}

// promptRE is the shell's prompt, with the backend and the table in use
// when it shows them: tstable>, tstable:Employees>, tstable[served t.db]>.
var promptRE = regexp.MustCompile(`^tstable(\[[^\]]*\])?(:[A-Za-z0-9]+)?> `)

// isShellTranscript reports whether a text block is a session of the
// shell: its first line begins with the prompt.
func isShellTranscript(b block) bool {
	return b.lang == "text" && len(b.lines) > 0 && promptRE.MatchString(b.lines[0])
}

// shellLines splits a shell transcript into what is typed after each
// prompt and what the shell shows.
func shellLines(b block) (typed, shown []string) {
	for _, l := range b.lines {
		if loc := promptRE.FindStringIndex(l); loc != nil {
			typed = append(typed, l[loc[1]:])
		} else {
			shown = append(shown, l)
		}
	}
	return typed, shown
}

// runnable are the languages of examples a reader would run: each such
// block is run by the test unless a comment just above it says why not.
var runnable = map[string]bool{"sh": true, "bash": true, "console": true, "powershell": true, "js": true, "javascript": true, "python": true, "go": true}

func itoa(n int) string { return strconv.Itoa(n) }

// isSynopsis reports whether a text block is a summary of commands: each
// line begins with "tstable " (or continues the one before, indented).
func isSynopsis(b block) bool {
	if b.lang != "text" || len(b.lines) == 0 {
		return false
	}
	for _, l := range b.lines {
		if !strings.HasPrefix(l, "tstable ") && !strings.HasPrefix(l, " ") && l != "" {
			return false
		}
	}
	return true
}

// synopsisLines are the lines of a summary of commands, an indented line
// joined to the one before, comments cut, each split into its
// alternatives.
func synopsisLines(b block) [][]string {
	var lines []string
	for _, l := range b.lines {
		l = commentRE.ReplaceAllString(l, "")
		if strings.HasPrefix(l, " ") && len(lines) > 0 {
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
		} else if l != "" {
			lines = append(lines, l)
		}
	}
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Split(l, " | ")
	}
	return out
}
