package cmd

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// azuriteServer is tstable serve started as a process, with the lines it
// wrote on standard error.
type azuriteServer struct {
	cmd     *exec.Cmd
	mu      sync.Mutex
	stderr  []string
	path    string            // the database it serves
	conns   map[string]string // account → connection string
	stopped chan struct{}
}

var (
	servingRE = regexp.MustCompile(`^serving (.+) at (\S+)$`)
	connRE    = regexp.MustCompile(`^connection string(?: of (\w+))?: (.*AccountName=(\w+);.*)$`)
)

// startServe runs bin serve args with env added, until its banner is
// written (the line "(Ctrl-C to stop)").
func startServe(t *testing.T, bin string, env []string, args ...string) *azuriteServer {
	t.Helper()
	s := &azuriteServer{cmd: exec.Command(bin, append([]string{"serve"}, args...)...), conns: map[string]string{}, stopped: make(chan struct{})}
	s.cmd.Env = append(os.Environ(), env...)
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		defer close(s.stopped)
		sc := bufio.NewScanner(pipe)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.stderr = append(s.stderr, line)
			if m := servingRE.FindStringSubmatch(line); m != nil {
				s.path = m[1]
			}
			if m := connRE.FindStringSubmatch(line); m != nil {
				s.conns[m[3]] = m[2]
			}
			s.mu.Unlock()
			if line == "(Ctrl-C to stop)" {
				once.Do(func() { close(ready) })
			}
		}
		once.Do(func() { close(ready) })
	}()
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("serve %v did not start:\n%s", args, s.output())
	}
	if s.path == "" {
		t.Fatalf("serve %v did not start:\n%s", args, s.output())
	}
	return s
}

// output is what the server wrote on standard error so far.
func (s *azuriteServer) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.stderr, "\n")
}

// stop sends sig and waits for the process to end.
func (s *azuriteServer) stop(t *testing.T, sig os.Signal) {
	t.Helper()
	s.cmd.Process.Signal(sig)
	<-s.stopped
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("serve after %v: %v\n%s", sig, err, s.output())
	}
}

// service is a Go SDK client of the account's connection string.
func (s *azuriteServer) service(t *testing.T, account string) *aztables.ServiceClient {
	t.Helper()
	s.mu.Lock()
	cs, ok := s.conns[account]
	s.mu.Unlock()
	if !ok {
		t.Fatalf("no connection string for %s in:\n%s", account, s.output())
	}
	return serviceOf(t, cs)
}

func serviceOf(t *testing.T, cs string) *aztables.ServiceClient {
	t.Helper()
	c, err := aztables.NewServiceClientFromConnectionString(cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tableNames lists the tables c sees.
func tableNames(t *testing.T, c *aztables.ServiceClient) []string {
	t.Helper()
	var names []string
	p := c.NewListTablesPager(nil)
	for p.More() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatalf("list tables: %v", err)
		}
		for _, tb := range page.Tables {
			names = append(names, *tb.Name)
		}
	}
	return names
}

// Azurite's command line for tests, as scripts start azurite-table:
// served, in memory, and nothing left behind when stopped by SIGTERM or
// Ctrl-C; the options that mean nothing are said once.
func TestServeAzuriteInMemoryLeavesNothing(t *testing.T) {
	bin := buildBinary(t)
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(sig.String(), func(t *testing.T) {
			s := startServe(t, bin, nil, "--tableHost", "127.0.0.1", "--tablePort", "0", "--inMemoryPersistence", "--loose", "--skipApiVersionCheck", "-s")
			if _, err := os.Stat(s.path); err != nil {
				t.Fatalf("the in-memory file while serving: %v", err)
			}
			svc := s.service(t, "devstoreaccount1")
			if _, err := svc.CreateTable(context.Background(), "Orders", nil); err != nil {
				t.Fatalf("create table: %v\n%s", err, s.output())
			}
			tc := svc.NewClient("Orders")
			if _, err := tc.AddEntity(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"r","N":1}`), nil); err != nil {
				t.Fatal(err)
			}
			p := tc.NewListEntitiesPager(nil)
			page, err := p.NextPage(context.Background())
			if err != nil || len(page.Entities) != 1 {
				t.Fatalf("query: %v, %d entities", err, len(page.Entities))
			}
			s.stop(t, sig)
			out := s.output()
			if _, err := os.Stat(filepath.Dir(s.path)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after %v, the folder of the in-memory file %s is still there (%v)", sig, filepath.Dir(s.path), err)
			}
			if strings.Count(out, "--loose: accepted") != 1 {
				t.Errorf("--loose is not said once:\n%s", out)
			}
			if strings.Contains(out, "query Orders") {
				t.Errorf("-s still writes a line per query:\n%s", out)
			}
			if !strings.Contains(out, "in memory (--inMemoryPersistence)") {
				t.Errorf("the banner does not say the data is in memory:\n%s", out)
			}
		})
	}
}

// -l DIR keeps the database in DIR, across a restart.
func TestServeLocationKeepsDataAcrossRestart(t *testing.T) {
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "azurite")
	s := startServe(t, bin, nil, "--tablePort", "0", "-l", dir, "-d", filepath.Join(dir, "debug.log"))
	if want := filepath.Join(dir, "tstable.db"); s.path != want {
		t.Errorf("-l %s serves %s, want %s", dir, s.path, want)
	}
	svc := s.service(t, "devstoreaccount1")
	if _, err := svc.CreateTable(context.Background(), "Kept", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NewClient("Kept").AddEntity(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"r","V":"still here"}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NewClient("Kept").NewListEntitiesPager(nil).NextPage(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.stop(t, os.Interrupt)
	if log, err := os.ReadFile(filepath.Join(dir, "debug.log")); err != nil || !strings.Contains(string(log), "query Kept") {
		t.Errorf("-d FILE: %v\n%s", err, log)
	}

	s = startServe(t, bin, nil, "--tablePort", "0", "--location", dir)
	e, err := s.service(t, "devstoreaccount1").NewClient("Kept").GetEntity(context.Background(), "p", "r", nil)
	if err != nil || !strings.Contains(string(e.Value), "still here") {
		t.Fatalf("after a restart on -l %s: %v %s", dir, err, e.Value)
	}
	s.stop(t, syscall.SIGTERM)
}

// With AZURITE_ACCOUNTS, each account sees only its own tables, takes
// either of its keys, and not another account's key.
func TestServeAzuriteAccountsAreSeparate(t *testing.T) {
	bin := buildBinary(t)
	const k1, k2, k3 = "a2V5LW9uZQ==", "a2V5LXR3bw==", "a2V5LXRocmVl"
	db := filepath.Join(t.TempDir(), "accounts.db")
	s := startServe(t, bin, []string{"AZURITE_ACCOUNTS=alice:" + k1 + ";bob:" + k2 + ":" + k3}, "--db", db, "--addr", "127.0.0.1:0")
	alice, bob := s.service(t, "alice"), s.service(t, "bob")
	ctx := context.Background()
	for _, c := range []struct {
		svc   *aztables.ServiceClient
		table string
	}{{alice, "Orders"}, {alice, "Shared"}, {bob, "Invoices"}, {bob, "Shared"}} {
		if _, err := c.svc.CreateTable(ctx, c.table, nil); err != nil {
			t.Fatalf("create %s: %v", c.table, err)
		}
	}
	if _, err := alice.NewClient("Shared").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","Who":"alice"}`), nil); err != nil {
		t.Fatal(err)
	}
	if got := tableNames(t, alice); !slices.Equal(got, []string{"Orders", "Shared"}) {
		t.Errorf("alice sees %v, want [Orders Shared]", got)
	}
	if got := tableNames(t, bob); !slices.Equal(got, []string{"Invoices", "Shared"}) {
		t.Errorf("bob sees %v, want [Invoices Shared]", got)
	}
	// bob's Shared is his own, empty.
	if _, err := bob.NewClient("Shared").GetEntity(ctx, "p", "r", nil); status(err) != http.StatusNotFound {
		t.Errorf("bob reads alice's entity: %v", err)
	}
	// bob's tables by their name in the file are not alice's.
	if _, err := alice.NewClient("x03bobInvoices").GetEntity(ctx, "p", "r", nil); status(err) != http.StatusNotFound {
		t.Errorf("alice reaches bob's table by its stored name: %v", err)
	}
	if _, err := alice.CreateTable(ctx, "x03bobMine", nil); status(err) != http.StatusBadRequest {
		t.Errorf("alice creates a table in bob's names: %v", err)
	}
	// bob's second key opens bob; alice's key does not.
	base := strings.TrimSuffix(strings.SplitAfter(s.conns["bob"], "TableEndpoint=")[1], ";")
	withKey := func(account, key string) *aztables.ServiceClient {
		return serviceOf(t, "DefaultEndpointsProtocol=http;AccountName="+account+";AccountKey="+key+";TableEndpoint="+base+";")
	}
	if got := tableNames(t, withKey("bob", k3)); len(got) != 2 {
		t.Errorf("bob's second key: %v", got)
	}
	p := withKey("bob", k1).NewListTablesPager(nil)
	if _, err := p.NextPage(ctx); status(err) != http.StatusForbidden {
		t.Errorf("alice's key on bob: %v, want 403", err)
	}
	s.stop(t, syscall.SIGTERM)

	// The file: alice's tables by name, bob's with his prefix.
	out := mustRun(t, db, "", "table", "list", "-o", "csv")
	for _, want := range []string{"Orders", "Shared", "x03bobInvoices", "x03bobShared"} {
		if !strings.Contains(out, want) {
			t.Errorf("table list on the file: no %s in\n%s", want, out)
		}
	}
}

// status is the HTTP status of an SDK error (0 when there is none).
func status(err error) int {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		return re.StatusCode
	}
	return 0
}

// AZURITE_ACCOUNTS as Azurite reads it, and what is refused.
func TestParseAzuriteAccounts(t *testing.T) {
	got, err := parseAzuriteAccounts("alice:k1;bob:k2:k3;")
	if err != nil || len(got) != 2 || got[0].name != "alice" || !slices.Equal(got[1].keys, []string{"k2", "k3"}) {
		t.Errorf("parse: %+v %v", got, err)
	}
	for v, says := range map[string]string{
		"":                  "names no account",
		"Alice:k1":          `account name "Alice" is not valid`,
		"alice":             "needs one or two keys",
		"alice:k1:k2:k3":    "needs one or two keys",
		"alice:k1;alice:k2": "names account alice twice",
		"ab:k1":             `account name "ab" is not valid`,
	} {
		if _, err := parseAzuriteAccounts(v); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want %q", v, err, says)
		}
	}
}

// Flags that say the same thing, or contradict, are refused.
func TestServeAzuriteFlagConflicts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--addr", "127.0.0.1:0", "--tablePort", "0"}, "--addr and --tableHost/--tablePort say the same"},
		{[]string{"--tablePort", "x"}, `--tablePort "x" is not a port`},
		{[]string{"--tablePort", "0", "-l", t.TempDir()}, "leave out --db"},
		{[]string{"--pwd", "secret"}, "--pwd is the password of a PFX certificate"},
	} {
		_, errOut, st := run(context.Background(), db, "", append([]string{"serve"}, c.args...)...)
		if st != ExitUsage || !strings.Contains(errOut, c.says) {
			t.Errorf("serve %v: exit %d, %s; want %q", c.args, st, errOut, c.says)
		}
	}
}
