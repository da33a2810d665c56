package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
)

func newMergeCmd(f *Factory) *cobra.Command {
	return newIfMatchCmd(f, "merge", "Merge properties into an existing entity",
		`Merge the given properties into an existing entity, keeping the others.
It fails with ResourceNotFound when the entity does not exist, and with
UpdateConditionNotSatisfied when --if-match names another ETag than the
entity's ('*', the default, matches any).`,
		`  tstable merge Employees '{"PartitionKey":"Sales","RowKey":"empid_000001","Age":24}'`,
		backend.OpMerge)
}
