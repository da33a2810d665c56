package server

import (
	"encoding/json"
	"os"

	"github.com/tstable/tstable/store"
)

// While a server holds a database, it writes where it listens to a small
// file beside it, PATH.serve: {"url":…,"account":…,"key":…,"cert":…,"pid":…},
// readable by the file's owner only on Unix (on Windows the folder's
// permissions decide; whoever can read the database can read its data
// anyway). Another tstable process on the same database reads it and goes
// through the server instead, trusting the certificate cert names (a PEM
// file) when the URL is https. The file is removed when the server stops;
// one left by a server that was killed names a process that is gone, and
// ReadAddress ignores it.

// addressFile is the content of PATH.serve.
type addressFile struct {
	URL     string `json:"url"`
	Account string `json:"account"`
	Key     string `json:"key"`
	Cert    string `json:"cert,omitempty"`
	PID     int    `json:"pid"`
}

// AddressPath is the file beside the database that names its server.
func AddressPath(dbPath string) string { return dbPath + ".serve" }

// writeAddress writes the address file for this process.
func writeAddress(dbPath string, a addressFile) error {
	a.PID = os.Getpid()
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	tmp := AddressPath(dbPath) + ".tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, AddressPath(dbPath))
}

// removeAddress removes the address file if it is still this process's.
func removeAddress(dbPath string) {
	b, err := os.ReadFile(AddressPath(dbPath))
	if err != nil {
		return
	}
	var a addressFile
	if json.Unmarshal(b, &a) == nil && a.PID == os.Getpid() {
		os.Remove(AddressPath(dbPath))
	}
}

// ReadAddress returns the URL (http://host:port/ACCOUNT) and account of the
// server that holds the database at dbPath. ok is false when no server
// holds it: no address file, an unreadable one, or one whose process is no
// longer running.
func ReadAddress(dbPath string) (url, account string, ok bool) {
	a, ok := readAddress(dbPath)
	return a.URL, a.Account, ok
}

// Served is how to reach the server holding a database.
type Served struct {
	// ConnectionString names its URL, account and key.
	ConnectionString string
	// URL is its table endpoint (http:// or https://host:port/ACCOUNT).
	URL string
	// CertFile is the PEM file of the certificate an https server serves,
	// for clients to trust; "" over plain HTTP.
	CertFile string
}

// ServedAt returns, when a server holds the database at dbPath, how to
// reach it.
func ServedAt(dbPath string) (Served, bool) {
	a, ok := readAddress(dbPath)
	if !ok || a.Key == "" {
		return Served{}, false
	}
	return Served{ConnectionString: connectionString(a.URL, a.Account, a.Key), URL: a.URL, CertFile: a.Cert}, true
}

func readAddress(dbPath string) (addressFile, bool) {
	var a addressFile
	b, err := os.ReadFile(AddressPath(dbPath))
	if err != nil {
		return a, false
	}
	if json.Unmarshal(b, &a) != nil || a.URL == "" || a.PID <= 0 || !store.ProcessAlive(a.PID) {
		return a, false
	}
	return a, true
}
