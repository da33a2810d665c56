package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
)

func newInsertCmd(f *Factory) *cobra.Command {
	return newWriteCmd(f, "insert", "Insert an entity (fails if it exists)",
		`Insert an entity given in the service's JSON, as an argument or on standard
input. It fails with EntityAlreadyExists when an entity with the same keys
exists. Prints the entity as stored, with its Timestamp and ETag.`,
		`  tstable insert Employees '{"PartitionKey":"Sales","RowKey":"00010","Age":23}'
  echo '{"PartitionKey":"Sales","RowKey":"00011"}' | tstable insert Employees`,
		func() (backend.OpKind, string) { return backend.OpInsert, "" })
}
