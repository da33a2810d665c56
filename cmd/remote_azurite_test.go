package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/storetest"
)

// Against Azurite (make test-remote): the same commands on a remote
// account, a round trip local → remote → local with an interrupted and
// resumed copy, and a failing remote batch.
func TestRemoteAzuriteRoundTrip(t *testing.T) {
	storetest.NeedRemote(t)
	cs := storetest.StartAzurite(t)
	isolateState(t)
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", "")
	src := filepath.Join(t.TempDir(), "src.db")
	back := filepath.Join(t.TempDir(), "back.db")
	mustRun(t, src, "", "sample", "load", "employees", "--size", "3000")

	_, errOut, status := runWith(context.Background(), failSecondLoad(), src, "", "copy", "Employees", "--to-connection-string", cs)
	if status != 1 || !strings.Contains(errOut, "--resume") {
		t.Fatalf("interrupted copy: exit %d, %s", status, errOut)
	}
	if _, errOut, status = run(context.Background(), src, "", "copy", "Employees", "--to-connection-string", cs, "--resume"); status != 0 || !strings.Contains(errOut, "resumed after") {
		t.Fatalf("resumed copy: exit %d, %s", status, errOut)
	}
	if strings.Contains(errOut, storetest.AzuriteKey) {
		t.Fatal("the key was printed")
	}
	remoteExport, errOut, status := runArgs(context.Background(), "--connection-string", cs, "export", "Employees")
	if status != 0 {
		t.Fatalf("remote export: %s", errOut)
	}
	if _, errOut, status = runArgs(context.Background(), "--connection-string", cs, "copy", "Employees", "--to-db", back); status != 0 {
		t.Fatalf("copy back: %s", errOut)
	}
	local := canonical(t, mustRun(t, src, "", "export", "Employees"))
	if canonical(t, remoteExport) != local || canonical(t, mustRun(t, back, "", "export", "Employees")) != local {
		t.Fatal("the round trip local → Azurite → local changed the entities")
	}

	// The same query, the same answer (modulo Timestamp and ETag).
	q := []string{"query", "Employees", "--filter", "PartitionKey eq 'Sales' and Age gt 40", "--select", "FirstName,Age", "--all"}
	lo := mustRun(t, src, "", q...)
	ro, errOut, status := runArgs(context.Background(), append([]string{"--connection-string", cs}, q...)...)
	if status != 0 || canonical(t, lo) != canonical(t, ro) {
		t.Errorf("query differs: exit %d %s\nlocal:\n%s\nremote:\n%s", status, errOut, lo, ro)
	}

	// A failing batch names its operation, and changes nothing.
	batch := `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"zz1"}}
{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"department"}}
`
	ios, in, _, eo := testStreams()
	in.WriteString(batch)
	status = Execute(context.Background(), NewRoot(ios), []string{"--connection-string", cs, "batch", "Employees", "-"}, ios)
	if status != 1 || !strings.Contains(eo.String(), "operation 1: EntityAlreadyExists") {
		t.Errorf("failing batch: exit %d, %s", status, eo.String())
	}
	_, errOut, _ = runArgs(context.Background(), "--connection-string", cs, "get", "Employees", "Sales", "zz1")
	if !strings.Contains(errOut, "ResourceNotFound") {
		t.Errorf("the failed batch left its first insert: %s", errOut)
	}
	// A stale ETag is refused with 412's code.
	_, errOut, status = runArgs(context.Background(), "--connection-string", cs, "merge", "Employees", `{"PartitionKey":"Sales","RowKey":"department","X":1}`, "--if-match", `W/"datetime'2020-01-01T00%3A00%3A00.0000000Z'"`)
	if status != 1 || !strings.Contains(errOut, "UpdateConditionNotSatisfied") {
		t.Errorf("stale ETag: exit %d, %s", status, errOut)
	}
}
