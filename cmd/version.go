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
// else the one it recorded: a release's tag ("1.2.3"), else the commit it
// was built from and that commit's date ("devel 1a2b3c4d5e6f (2026-11-23)",
// "+dirty" after the commit with local changes), else "devel". A build
// between releases says the same whether the go command stamped it with a
// pseudo-version (VCS stamping, Go's default in a git checkout, or go
// install of a commit), with vcs settings only, or with neither.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return versionOf(info)
}

// versionOf is version's reading of a build's recorded information.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		if rev, day, dirty, ok := pseudoVersion(v); ok {
			return devel(rev, day, dirty)
		}
		return strings.TrimPrefix(v, "v")
	}
	var rev, day, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			day, _, _ = strings.Cut(s.Value, "T")
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	return devel(rev, day, dirty)
}

// devel words a build between releases: "devel", then the commit's first
// twelve hex digits and dirty, then the commit's day in brackets.
func devel(rev, day, dirty string) string {
	if rev == "" {
		return "devel"
	}
	out := "devel " + rev[:min(12, len(rev))] + dirty
	if day != "" {
		out += " (" + day + ")"
	}
	return out
}

// pseudoVersion reads a Go pseudo-version — vX.Y.Z-yyyymmddhhmmss-abcdefabcdef,
// or vX.Y.Z-pre.0.yyyymmddhhmmss-abcdefabcdef, optionally with "+dirty" —
// into its commit, the commit's day (yyyy-mm-dd, UTC) and "+dirty" if so.
// ok is false for any other version (a release's tag).
func pseudoVersion(v string) (rev, day, dirty string, ok bool) {
	if base, found := strings.CutSuffix(v, "+dirty"); found {
		v, dirty = base, "+dirty"
	}
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 || !isHex(v[i+1:]) {
		return "", "", "", false
	}
	rev, v = v[i+1:], v[:i]
	stamp := v[max(0, len(v)-14):]
	if len(stamp) != 14 || !isDigits(stamp) || len(v) < 15 || (v[len(v)-15] != '-' && v[len(v)-15] != '.') {
		return "", "", "", false
	}
	return rev, stamp[:4] + "-" + stamp[4:6] + "-" + stamp[6:8], dirty, true
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
