package transfer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// importInto imports input into table People of a new file (holding one
// entity, (a, 1)) under ictx, and returns the outcome, the error and the rejects.
func importInto(t *testing.T, ictx context.Context, input string, o ImportOptions, kind backend.OpKind) (*ImportOutcome, []int64, *file, error) {
	t.Helper()
	f := newFile(t, "t.db")
	db, err := f.open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.CreateTable(ctx, "People")
	if _, err := db.Write(ctx, "People", backend.Operation{Kind: backend.OpInsert, Entity: &odata.Entity{PartitionKey: "a", RowKey: "1"}}); err != nil {
		t.Fatal(err)
	}
	var rejected []int64
	o.Name = "rows"
	o.OnReject = func(line int64, err error) { rejected = append(rejected, line) }
	im, err := NewImport(strings.NewReader(input), o)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Close()
	out, err := im.Into(ictx, db, "People", kind)
	return out, rejected, f, err
}

// What an import did, as the outcome tells it: counts of committed and
// rejected rows, why it stopped, and the row it stopped at.
func TestImportOutcome(t *testing.T) {
	jsonl := `{"PartitionKey":"a","RowKey":"2"}` + "\n\n" + `{"PartitionKey":"a","RowKey":"1"}` + "\n" + `{"PartitionKey":"a","RowKey":"3"}` + "\n"
	csv := "PartitionKey,RowKey,Age@Int32\na,2,1\na,3,x\na,4,5\n"
	tests := []struct {
		name     string
		input    string
		o        ImportOptions
		kind     backend.OpKind
		written  int64
		rejected []int64
		stop     Stop
		row      *RowError // the row it stopped at
	}{
		{name: "upsert writes every row", input: jsonl, kind: backend.OpInsertOrMerge, written: 3},
		{name: "a key already there stops an insert at its line, writing nothing", input: jsonl, kind: backend.OpInsert,
			stop: StopBadRow, row: &RowError{Line: 3, Key: &odata.Key{PartitionKey: "a", RowKey: "1"}, Code: odata.CodeEntityAlreadyExists}},
		{name: "with KeepGoing the refused row is rejected and the rest written", input: jsonl, o: ImportOptions{KeepGoing: true}, kind: backend.OpInsert,
			written: 2, rejected: []int64{3}},
		{name: "a CSV cell of the wrong type stops the import at its line", input: csv, o: ImportOptions{Format: FormatCSV}, kind: backend.OpInsertOrMerge,
			stop: StopBadRow, row: &RowError{Line: 3, Code: odata.CodeInvalidInput}},
		{name: "with KeepGoing the bad CSV row is rejected", input: csv, o: ImportOptions{Format: FormatCSV, KeepGoing: true}, kind: backend.OpInsertOrMerge,
			written: 2, rejected: []int64{3}},
		{name: "a line that is not JSON stops the import", input: "{\n", kind: backend.OpInsertOrMerge,
			stop: StopBadRow, row: &RowError{Line: 1, Code: odata.CodeInvalidInput}},
		{name: "an empty input is an error", input: "\n\n", kind: backend.OpInsertOrMerge, stop: Finished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, rejected, _, err := importInto(t, ctx, tt.input, tt.o, tt.kind)
			if out.Written != tt.written || out.Stop != tt.stop || out.Rejected != int64(len(tt.rejected)) || len(rejected) != len(tt.rejected) {
				t.Fatalf("outcome %+v, rejected %v, %v", out, rejected, err)
			}
			for i := range rejected {
				if rejected[i] != tt.rejected[i] {
					t.Errorf("rejected lines %v, want %v", rejected, tt.rejected)
				}
			}
			var re *RowError
			switch {
			case tt.row != nil && !errors.As(err, &re):
				t.Fatalf("error %v, want the row it stopped at", err)
			case tt.row != nil && (re.Name != "rows" || re.Line != tt.row.Line || re.Code != tt.row.Code || (tt.row.Key == nil) != (re.Key == nil)):
				t.Fatalf("stopped at %+v, want %+v", re, tt.row)
			case tt.row != nil && tt.row.Key != nil && *re.Key != *tt.row.Key:
				t.Fatalf("stopped at key %v, want %v", re.Key, tt.row.Key)
			case tt.row == nil && tt.stop == Finished && tt.written == 0 && !odata.IsCode(err, odata.CodeInvalidInput):
				t.Fatalf("an empty input: %v, want InvalidInput", err)
			case tt.row == nil && tt.written > 0 && err != nil:
				t.Fatal(err)
			}
		})
	}
}

// A cancelled import says it was interrupted and counts what it committed.
func TestImportInterruptedOutcome(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		b.WriteString(`{"PartitionKey":"p","RowKey":"` + itoa(int64(i)) + `"}` + "\n")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	out, _, f, err := importInto(t, cctx, b.String(), ImportOptions{}, backend.OpInsertOrMerge)
	if err == nil || out.Stop != StopInterrupted {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if n := int64(len(f.keys("People"))) - 1; n != out.Written {
		t.Fatalf("the table holds %d imported entities, the outcome says %d", n, out.Written)
	}
}
