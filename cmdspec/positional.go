package cmdspec

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Positionals returns the words of a command line after c's path that are
// positional arguments, as cobra will see them: flags and their values are
// left out, and everything after "--" is positional.
func Positionals(c *cobra.Command, words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			return append(out, words[i+1:]...)
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			out = append(out, w)
			continue
		}
		if f := LookupFlag(c, w); f != nil && TakesValue(f) && !strings.Contains(w, "=") {
			i++ // its value
		}
	}
	return out
}

// LookupFlag finds the flag a word names ("--filter", "-o", "--top=3"),
// local or inherited, or nil.
func LookupFlag(c *cobra.Command, word string) *pflag.Flag {
	name, _, _ := strings.Cut(word, "=")
	fs := c.Flags()
	inherited := c.InheritedFlags()
	if strings.HasPrefix(name, "--") {
		if f := fs.Lookup(name[2:]); f != nil {
			return f
		}
		return inherited.Lookup(name[2:])
	}
	if len(name) == 2 && name[0] == '-' {
		if f := fs.ShorthandLookup(name[1:]); f != nil {
			return f
		}
		return inherited.ShorthandLookup(name[1:])
	}
	return nil
}

// TakesValue reports whether a flag needs a value (it is not a boolean).
func TakesValue(f *pflag.Flag) bool { return f.NoOptDefVal == "" }
