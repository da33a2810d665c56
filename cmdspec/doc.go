// Package cmdspec is what the command line, the shell and completion all
// need to know about a command, declared once on its cobra command: the
// names of its positional arguments, which of them is a table (and whether
// the shell's `use` may supply it), whether it writes, and whether the
// shell offers it. It also holds the exit statuses and the usage error
// that every front end shares, and Find, cobra's search for the command a
// line names, answered without the search for a script's usual line.
//
// A command declares its shape with Args (and Writes, NamesTable,
// NotInShell) when it is built; everything else reads it with the
// functions here, never by parsing the command's Use line or by name.
package cmdspec
