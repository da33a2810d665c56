package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
)

func newReplaceCmd(f *Factory) *cobra.Command {
	return newIfMatchCmd(f, "replace", "Replace an existing entity",
		`Replace an existing entity with the given one (the service's Update Entity).
It fails with ResourceNotFound when the entity does not exist, and with
UpdateConditionNotSatisfied when --if-match names another ETag than the
entity's ('*', the default, matches any).`,
		`  tstable replace Employees '{"PartitionKey":"Sales","RowKey":"empid_000001","Age":24}'`,
		backend.OpReplace)
}
