package cmd

import (
	"runtime/debug"
	"strings"
)

// version is tstable's version as the build recorded it: the module's
// version when installed with go install, else the commit it was built
// from ("devel 1a2b3c4d5e6f (2026-11-23)", "+dirty" with local changes).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at, _, _ = strings.Cut(s.Value, "T")
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	out := "devel " + rev[:min(12, len(rev))] + dirty
	if at != "" {
		out += " (" + at + ")"
	}
	return out
}
