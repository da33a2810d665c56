package cmd

import (
	"context"
	"strings"
	"testing"
)

// The command line says which line was too long, with the code of a
// request too large, without echoing it, and imports nothing.
func TestImportLongLineError(t *testing.T) {
	db := t.TempDir() + "/t.db"
	seed(t, db)
	long := strings.Repeat("x", maxEntityInput+1)
	for _, c := range []struct{ format, in, want string }{
		{"jsonl", "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"a\",\"RowKey\":\"2\",\"V\":\"" + long + "\"}\n",
			"error: RequestBodyTooLarge: standard input line 2: the line is longer than 8388608 bytes, the most tstable reads for one row (an entity is at most 1 MiB); --continue-on-error skips bad rows\n"},
		{"csv", "PartitionKey,RowKey,V\na,1,x\na,2," + long + "\n",
			"error: RequestBodyTooLarge: standard input line 3: the line is longer than 8388608 bytes, the most tstable reads for one row (an entity is at most 1 MiB), and the import cannot go on past it\n"},
	} {
		before := mustRun(t, db, "", "export", "People")
		_, errOut, st := run(context.Background(), db, c.in, "import", "People", "--format", c.format)
		if st != ExitFailed || !strings.HasSuffix(errOut, c.want) || !strings.HasPrefix(errOut, "nothing was imported into People") || len(errOut) > 1000 {
			t.Errorf("%s: exit %d\n%.2000s", c.format, st, errOut)
		}
		if after := mustRun(t, db, "", "export", "People"); after != before {
			t.Errorf("%s: the table changed", c.format)
		}
	}
}
