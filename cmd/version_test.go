package cmd

import (
	"runtime/debug"
	"testing"
)

// A build between releases is worded the same however the go command
// recorded it: a pseudo-version (VCS stamping, or go install of a commit),
// vcs settings alone, or nothing; a release's tag is stated as it is.
func TestVersionOfTheBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "2cf14e8c7bd3a1b2c3d4e5f60718293a4b5c6d7e"}, {Key: "vcs.time", Value: "2026-11-25T20:52:45Z"}}
	for _, c := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v0.0.0-20261125205245-2cf14e8c7bd3", vcs, "devel 2cf14e8c7bd3 (2026-11-25)"},
		{"v0.0.0-20261125205245-2cf14e8c7bd3+dirty", vcs, "devel 2cf14e8c7bd3+dirty (2026-11-25)"},
		{"v0.0.0-20261125205245-2cf14e8c7bd3", nil, "devel 2cf14e8c7bd3 (2026-11-25)"},
		{"v1.2.4-0.20261125205245-2cf14e8c7bd3", nil, "devel 2cf14e8c7bd3 (2026-11-25)"},
		{"v1.3.0-rc.1.0.20261125205245-2cf14e8c7bd3", nil, "devel 2cf14e8c7bd3 (2026-11-25)"},
		{"v1.2.3", vcs, "1.2.3"},
		{"v1.2.3-rc.1", nil, "1.2.3-rc.1"},
		{"(devel)", vcs, "devel 2cf14e8c7bd3 (2026-11-25)"},
		{"(devel)", append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "devel 2cf14e8c7bd3+dirty (2026-11-25)"},
		{"(devel)", nil, "devel"},
		{"", nil, "devel"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/tstable/tstable", Version: c.version}, Settings: c.settings}
		if got := versionOf(info); got != c.want {
			t.Errorf("version %q: %q, want %q", c.version, got, c.want)
		}
	}
}
