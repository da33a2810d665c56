//go:build !windows

package completions

// BackslashEscapes tells whether a backslash escapes the next character
// on a command line, as in a POSIX shell.
const BackslashEscapes = true
