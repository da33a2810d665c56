package cmdspec

import (
	"strings"

	"github.com/spf13/cobra"
)

// Find returns what root.Find(args) returns: the command args name and
// the arguments left for it. A line of a script usually names a command
// of the root that has no subcommands, after nothing but flags written
// with their values (--db=FILE): then the answer is read off the root's
// list of commands, without cobra's search, which merges every command's
// flag sets on the way twice (a tenth of a point get's time in a script,
// run twice a line). Anything else is cobra's to find.
func Find(root *cobra.Command, args []string) (*cobra.Command, []string, error) {
	if c, rest, ok := findLeaf(root, args); ok {
		return c, rest, nil
	}
	return root.Find(args)
}

// findLeaf finds, as cobra's Find would, the command of root that args
// name when before its name there are only flags of the form -x=v or
// --name=v (which cobra's search passes over whatever they are), and
// that command has no subcommands, is named by its name (an alias is
// left to cobra, which records the name a command was called by) and
// checks its own arguments. ok is false otherwise.
func findLeaf(root *cobra.Command, args []string) (c *cobra.Command, rest []string, ok bool) {
	if cobra.EnablePrefixMatching || cobra.EnableCaseInsensitive {
		return nil, nil, false
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") {
				return nil, nil, false // the flag may take the next word, or end the flags ("--")
			}
			continue
		}
		if a == "" {
			return nil, nil, false
		}
		for _, sub := range root.Commands() {
			if sub.Name() == a {
				if sub.HasSubCommands() || sub.Args == nil || sub.CalledAs() != "" && sub.CalledAs() != a {
					return nil, nil, false
				}
				rest = make([]string, 0, len(args)-1)
				rest = append(append(rest, args[:i]...), args[i+1:]...)
				return sub, rest, true
			}
		}
		return nil, nil, false
	}
	return nil, nil, false
}
