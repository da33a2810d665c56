package prompt

import (
	"strings"

	runewidth "github.com/mattn/go-runewidth"
)

// A Tab in the line (pasted: see paste.go) is shown as ^I, as cat -A and
// readline show control characters, so that every character of the line
// has a width the renderer can count; the line itself keeps the Tab.

// displayText is s as it is shown.
func displayText(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	return strings.ReplaceAll(s, "\t", "^I")
}

// displayWidth is the width of s as it is shown, in columns.
func displayWidth(s string) int {
	return runewidth.StringWidth(displayText(s))
}
