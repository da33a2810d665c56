package server_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/samples"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
	"github.com/tstable/tstable/storetest"
)

// The console as people see it, in headless Chromium (make test-browser):
// each view of the page over the sample orders, a query an application
// makes through the Azure SDK for JavaScript appearing in the log, and, with authentication on, no
// entity for a browser without the key. With TSTABLE_SCREENSHOTS=DIR it
// also writes the screenshots the docs show into DIR.
func TestConsoleInChromium(t *testing.T) {
	if os.Getenv("TSTABLE_BROWSER_TEST") == "" {
		t.Skip("set TSTABLE_BROWSER_TEST=1 (make test-browser) to drive headless Chromium")
	}
	browser := chromium(t)
	db := ordersDB(t)
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db, Authorizer: server.AllowAll{}})
	if err != nil {
		t.Fatal(err)
	}
	root := r.ConsoleURL()
	sdkQuery(t, r.ConnectionString(), "Orders", "Status eq 'shipped'")

	views := []struct {
		name, query string
		want        []string
		shot        bool // the docs show it
	}{
		{"console-tables", "", []string{`id="tables"`, ">Orders<", ">1,344<"}, false},
		{"console-query", "?table=Orders&filter=" + escape("PartitionKey eq 'cust_00050'"), []string{`id="class"`, ">partition scan<", "<svg", "ks-returned", `id="entities"`, "cust_00050"}, true},
		{"console-entities", "?table=Orders", []string{`id="entities"`, `id="next"`}, false},
		{"console-log", "?view=log", []string{`id="queries"`, "Status eq 'shipped'", ">table scan<"}, true},
		{"console-heat", "?view=heat&table=Orders", []string{`id="partitions"`, "<svg", "Status eq"}, true},
	}
	shots := os.Getenv("TSTABLE_SCREENSHOTS")
	for _, v := range views {
		url := root + v.query
		dom := dumpDOM(t, browser, url)
		for _, w := range v.want {
			if !strings.Contains(dom, w) {
				t.Errorf("%s (%s): no %q in the page:\n%s", v.name, url, w, cut(dom))
			}
		}
		if shots != "" && v.shot {
			screenshot(t, browser, url, filepath.Join(shots, v.name+".png"))
		}
	}
	r.Shutdown(context.Background())

	// With authentication on: the key form, and no entity.
	key, _ := auth.DecodeKey(server.DevelopmentKey)
	ra, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db, Authorizer: server.KeyAuthorizer(auth.New(server.DefaultAccount, key))})
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Shutdown(context.Background())
	dom := dumpDOM(t, browser, ra.ConsoleURL()+"?table=Orders")
	if !strings.Contains(dom, "Sign in to devstoreaccount1") || strings.Contains(dom, `id="entities"`) || strings.Contains(dom, "cust_000") {
		t.Errorf("without the key the page shows:\n%s", cut(dom))
	}
}

func escape(s string) string { return strings.NewReplacer(" ", "%20", "'", "%27").Replace(s) }

func cut(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// chromium is the headless browser's path, or the test fails saying how
// to install it (make test skips the test when it is absent).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium on the PATH: apt-get install -y chromium")
	return ""
}

func browserArgs(extra ...string) []string {
	return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
		"--virtual-time-budget=5000", "--window-size=1000,720", "--hide-scrollbars"}, extra...)
}

// dumpDOM is the page's DOM once its scripts have run.
func dumpDOM(t *testing.T, browser, url string) string {
	t.Helper()
	out, err := exec.Command(browser, browserArgs("--dump-dom", url)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v", url, err)
	}
	return string(out)
}

// screenshot writes the page as a PNG.
func screenshot(t *testing.T, browser, url, file string) {
	t.Helper()
	abs, _ := filepath.Abs(file)
	cmd := exec.Command(browser, browserArgs("--screenshot="+abs, url)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot %s: %v\n%s", url, err, out)
	}
}

// ordersDB is a database holding the sample orders.
func ordersDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orders.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ds, _ := samples.Lookup("orders")
	ctx := context.Background()
	for _, tb := range ds.Tables(ds.DefaultSize, "") {
		if err := db.CreateTable(ctx, tb.Name); err != nil {
			t.Fatal(err)
		}
		es := samples.Collect(tb)
		i := 0
		src := func() (*odata.Entity, error) {
			if i == len(es) {
				return nil, io.EOF
			}
			i++
			return es[i-1], nil
		}
		if _, err := db.Load(ctx, tb.Name, backend.OpInsertOrReplace, src, backend.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// sdkQuery reads the first page of filter's entities of table through the
// Azure SDK for JavaScript, as an application does (node and the SDK, as
// make test-serve-js installs them).
func sdkQuery(t *testing.T, conn, table, filter string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not installed: the console's log is checked with a query from the JavaScript SDK (apt-get install nodejs npm)")
	}
	mods := storetest.NodeModules(t)
	script := `const { TableClient } = require("@azure/data-tables");
(async () => {
  const client = TableClient.fromConnectionString(process.env.CONN, process.env.TABLE, { allowInsecureConnection: true });
  for await (const page of client.listEntities({ queryOptions: { filter: process.env.FILTER } }).byPage({ maxPageSize: 5 })) {
    console.log("entities " + page.length);
    break;
  }
})().catch((e) => { console.error(e); process.exit(1); });
`
	node := exec.Command("node", "-e", script)
	node.Env = append(os.Environ(), "NODE_PATH="+mods, "CONN="+conn, "TABLE="+table, "FILTER="+filter)
	out, err := node.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "entities 5") {
		t.Fatalf("a query through the JavaScript SDK: %v\n%s", err, out)
	}
}
