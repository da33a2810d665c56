package cmd

import (
	"runtime/debug"
	"strings"
)

// buildVersion is the version a release build states, from its tag or
// commit: make build and make dist set it with
// -ldflags "-X 'github.com/tstable/tstable/cmd.buildVersion=…'"
// (scripts/version.sh says what), since the go command records no commit
// when it builds in a git worktree.
var buildVersion string

// version is tstable's version: the one the build stated (buildVersion),
// else the one it recorded: the module's version when installed with go
// install, else the commit it was built from ("devel 1a2b3c4d5e6f
// (2026-11-23)", "+dirty" with local changes).
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
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
