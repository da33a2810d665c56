package server_test

import (
	"crypto/tls"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/server"
	"software.sslmate.com/src/go-pkcs12"
)

// A PFX with its password serves its certificate, which clients can trust
// from the PEM returned; a wrong password is said.
func TestLoadPFX(t *testing.T) {
	dir := t.TempDir()
	certFile, tc, _, err := server.LocalCertificate(dir)
	if err != nil {
		t.Fatal(err)
	}
	pair := tc.Certificates[0]
	pfx, err := pkcs12.Modern.Encode(pair.PrivateKey, pair.Leaf, nil, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "cert.pfx")
	if err := os.WriteFile(file, pfx, 0o600); err != nil {
		t.Fatal(err)
	}
	got, pemCerts, err := server.LoadPFX(file, "s3cret", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Certificates) != 1 || got.MinVersion != tls.VersionTLS12 {
		t.Errorf("config: %d certificates, min version %x", len(got.Certificates), got.MinVersion)
	}
	want, _ := os.ReadFile(certFile)
	block, _ := pem.Decode(want)
	gotBlock, _ := pem.Decode(pemCerts)
	if gotBlock == nil || string(gotBlock.Bytes) != string(block.Bytes) {
		t.Errorf("the PEM of the PFX is not its certificate:\n%s", pemCerts)
	}
	if _, _, err := server.LoadPFX(file, "wrong", "127.0.0.1"); err == nil || !strings.Contains(err.Error(), "with the password of --pwd") {
		t.Errorf("a wrong password: %v", err)
	}
}
