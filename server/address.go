package server

import (
	"encoding/json"
	"os"
)

// While a server holds a database, it writes where it listens to a small
// file beside it, PATH.serve: {"url":…,"account":…,"key":…,"pid":…},
// readable by the file's owner only (whoever can read the database can
// read its data anyway). Another tstable process on the same database
// reads it and goes through the server instead. The file is removed when the server stops;
// one left by a server that was killed names a process that is gone, and
// ReadAddress ignores it.

// addressFile is the content of PATH.serve.
type addressFile struct {
	URL     string `json:"url"`
	Account string `json:"account"`
	Key     string `json:"key"`
	PID     int    `json:"pid"`
}

// AddressPath is the file beside the database that names its server.
func AddressPath(dbPath string) string { return dbPath + ".serve" }

// writeAddress writes the address file for this process.
func writeAddress(dbPath, url, account, key string) error {
	b, err := json.Marshal(addressFile{URL: url, Account: account, Key: key, PID: os.Getpid()})
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

// ServedAt returns, when a server holds the database at dbPath, the
// connection string to reach it with (its URL, account and key) and its
// URL.
func ServedAt(dbPath string) (connectionString, url string, ok bool) {
	a, ok := readAddress(dbPath)
	if !ok || a.Key == "" {
		return "", "", false
	}
	return "DefaultEndpointsProtocol=http;AccountName=" + a.Account + ";AccountKey=" + a.Key + ";TableEndpoint=" + a.URL + ";", a.URL, true
}

func readAddress(dbPath string) (addressFile, bool) {
	var a addressFile
	b, err := os.ReadFile(AddressPath(dbPath))
	if err != nil {
		return a, false
	}
	if json.Unmarshal(b, &a) != nil || a.URL == "" || a.PID <= 0 || !processAlive(a.PID) {
		return a, false
	}
	return a, true
}
