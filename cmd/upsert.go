package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
)

func newUpsertCmd(f *Factory) *cobra.Command {
	var replace bool
	c := newWriteCmd(f, "upsert", "Insert an entity, or merge into (--replace: replace) the existing one",
		`Insert an entity, or update it if it exists: InsertOrMerge keeps the
existing properties the JSON does not name; with --replace, InsertOrReplace
swaps the whole entity. No ETag condition applies.`,
		`  tstable upsert Employees '{"PartitionKey":"Sales","RowKey":"empid_000001","Age":24}'
  tstable upsert Employees --replace '{"PartitionKey":"Sales","RowKey":"empid_000001"}'`,
		func() (backend.OpKind, string) {
			if replace {
				return backend.OpInsertOrReplace, ""
			}
			return backend.OpInsertOrMerge, ""
		})
	c.Flags().BoolVar(&replace, "replace", false, "replace the whole entity instead of merging (InsertOrReplace)")
	return c
}
