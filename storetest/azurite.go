package storetest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Azurite versions the harness installs (npm).
const (
	azuriteVersion    = "3.37.0"
	dataTablesVersion = "13.3.2"
)

// AzuriteKey is the emulator's well-known account key (Azurite's docs).
const AzuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// AzuriteDir is where Azurite is installed: $TSTABLE_AZURITE_DIR, else
// ~/.cache/tstable-azurite (outside the repository).
func AzuriteDir() string {
	if d := os.Getenv("TSTABLE_AZURITE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "tstable-azurite")
}

// StartAzurite installs Azurite when missing, starts its table service on
// a free loopback port with in-memory storage, stops it when the test
// ends, and returns its connection string.
func StartAzurite(t testing.TB) string {
	t.Helper()
	cs, _ := StartAzuriteProcess(t)
	return cs
}

// StartAzuriteProcess is StartAzurite, also returning the id of the
// process that serves (node), whose CPU time a benchmark reads.
func StartAzuriteProcess(t testing.TB) (connectionString string, pid int) {
	t.Helper()
	bin := filepath.Join(NodeModules(t), ".bin", "azurite-table")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "--tableHost", "127.0.0.1", "--tablePort", fmt.Sprint(port),
		"--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck")
	log, _ := os.Create(filepath.Join(t.TempDir(), "azurite.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start azurite: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	endpoint := fmt.Sprintf("http://127.0.0.1:%d/devstoreaccount1", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(endpoint + "/Tables")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(log.Name())
			t.Fatalf("azurite did not answer on port %d: %v\n%s", port, err, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + AzuriteKey + ";TableEndpoint=" + endpoint + ";", cmd.Process.Pid
}

// NodeModules installs Azurite and the Azure SDK for JavaScript
// (@azure/data-tables) into AzuriteDir with npm when they are missing, and
// returns the node_modules folder (for NODE_PATH).
func NodeModules(t testing.TB) string {
	t.Helper()
	dir := AzuriteDir()
	mods := filepath.Join(dir, "node_modules")
	_, errA := os.Stat(filepath.Join(mods, ".bin", "azurite-table"))
	_, errS := os.Stat(filepath.Join(mods, "@azure", "data-tables", "package.json"))
	if errA != nil || errS != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "azurite@"+azuriteVersion, "@azure/data-tables@"+dataTablesVersion)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install azurite and @azure/data-tables: %v\n%s", err, out)
		}
	}
	return mods
}

// NeedRemote skips the test unless TSTABLE_REMOTE_TEST=1 (make test-remote).
func NeedRemote(t testing.TB) {
	t.Helper()
	if os.Getenv("TSTABLE_REMOTE_TEST") == "" {
		t.Skip("set TSTABLE_REMOTE_TEST=1 (make test-remote) to run against Azurite")
	}
}
