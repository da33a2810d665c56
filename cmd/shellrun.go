package cmd

import (
	"context"
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/cmdspec"
)

// runReused runs args (expanded as execute expands them) on root, a tree
// the shell ran before and put back as new (lineTrees): what cobra's
// ExecuteC does, less what a tree needs only the first time it runs,
// which cobra would otherwise do on every line — build and add its
// completion command and look for it (a second search of the tree),
// take its help command out and put it back. What is left is cobra's
// own sequence for a command, step by step (Command.execute, v1.10):
// one search of the tree (cmdspec.Find), the flags parsed, the help flag, the
// arguments checked, the first persistent pre-run found up the tree,
// pre-run, required flags and flag groups, run, post-run, the first
// persistent post-run. tstable registers no cobra.OnInitialize or
// OnFinalize functions and sets no EnableTraverseRunHooks, which that
// sequence would also heed.
//
// Whatever that sequence does not cover goes to ExecuteC as before: a
// line whose command is not found or is the root, a command that cannot
// run (a group such as table alone, which prints its help), a deprecated
// one, one with a version flag, and a command this tree has not run
// through cobra yet (cobra marks a command as called only there).
func runReused(ctx context.Context, root *cobra.Command, args []string) error {
	root.SetArgs(args)
	c, flags, err := cmdspec.Find(root, args)
	if err != nil || c == root || !c.Runnable() || c.Deprecated != "" || c.Version != "" || c.CalledAs() == "" {
		return root.ExecuteContext(ctx)
	}
	root.SetContext(ctx)
	if c.Context() == nil {
		c.SetContext(ctx)
	}
	err = runFound(c, flags)
	if errors.Is(err, pflag.ErrHelp) {
		c.HelpFunc()(c, args) // as ExecuteC does
		return nil
	}
	return err
}

// runFound runs c, found in the tree with its flags and arguments a, as
// cobra's Command.execute does for a runnable command that is neither
// deprecated nor has a version flag.
func runFound(c *cobra.Command, a []string) error {
	// cobra adds the help flag here if the command has none yet (a tree
	// run before has it: the lookup spares a merge of the flag sets,
	// which ParseFlags does anyway); a command with no Version gets no
	// version flag.
	if c.Flags().Lookup("help") == nil {
		c.InitDefaultHelpFlag()
	}
	if err := c.ParseFlags(a); err != nil {
		return c.FlagErrorFunc()(c, err)
	}
	help, err := c.Flags().GetBool("help")
	if err != nil {
		c.Println("\"help\" flag declared as non-bool. Please correct your code")
		return err
	}
	if help {
		return pflag.ErrHelp
	}
	args := c.Flags().Args()
	if c.DisableFlagParsing {
		args = a
	}
	if err := c.ValidateArgs(args); err != nil {
		return err
	}
	if err := persistentPreRun(c, args); err != nil {
		return err
	}
	if c.PreRunE != nil {
		if err := c.PreRunE(c, args); err != nil {
			return err
		}
	} else if c.PreRun != nil {
		c.PreRun(c, args)
	}
	if err := c.ValidateRequiredFlags(); err != nil {
		return err
	}
	if err := c.ValidateFlagGroups(); err != nil {
		return err
	}
	if c.RunE != nil {
		if err := c.RunE(c, args); err != nil {
			return err
		}
	} else {
		c.Run(c, args)
	}
	if c.PostRunE != nil {
		if err := c.PostRunE(c, args); err != nil {
			return err
		}
	} else if c.PostRun != nil {
		c.PostRun(c, args)
	}
	return persistentPostRun(c, args)
}

// persistentPreRun runs the first persistent pre-run found from c up to
// the root.
func persistentPreRun(c *cobra.Command, args []string) error {
	for p := c; p != nil; p = p.Parent() {
		switch {
		case p.PersistentPreRunE != nil:
			return p.PersistentPreRunE(c, args)
		case p.PersistentPreRun != nil:
			p.PersistentPreRun(c, args)
			return nil
		}
	}
	return nil
}

// persistentPostRun runs the first persistent post-run found from c up
// to the root.
func persistentPostRun(c *cobra.Command, args []string) error {
	for p := c; p != nil; p = p.Parent() {
		switch {
		case p.PersistentPostRunE != nil:
			return p.PersistentPostRunE(c, args)
		case p.PersistentPostRun != nil:
			p.PersistentPostRun(c, args)
			return nil
		}
	}
	return nil
}
