//go:build windows

package completions

// BackslashEscapes is false on Windows: a backslash is an ordinary
// character, the separator of paths (C:\data\rows.jsonl), as in
// PowerShell and cmd.exe; quotes still group.
const BackslashEscapes = false
