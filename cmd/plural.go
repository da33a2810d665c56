package cmd

import "strconv"

// plural writes a count with its noun: "1 page", "3 pages", "2 entities".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case noun[len(noun)-1] == 'y':
		noun = noun[:len(noun)-1] + "ies"
	default:
		noun += "s"
	}
	return strconv.FormatInt(n, 10) + " " + noun
}
