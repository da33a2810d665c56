package cmd

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/server"
)

// servedCert is the certificate a server over HTTPS serves, as the start
// banner tells of it.
type servedCert struct {
	file      string    // the PEM file clients trust
	made      bool      // made by this start (--tls)
	local     bool      // tstable's own self-signed certificate
	until     time.Time // its expiry
	temporary bool      // a PEM copy of a PFX's certificates, removed at exit
}

// localCertDir is where tstable serve --tls keeps its certificate: with
// tstable's other state, in tls/ of its state folder (appdirs.State).
func localCertDir() string { return filepath.Join(stateDir(), "tls") }

// serveTLS checks the HTTPS flags and sets cfg's certificate; nil when
// the server serves plain HTTP.
func (fl serveFlags) serveTLS(c *cobra.Command, cfg *server.Config) (*servedCert, error) {
	switch {
	case fl.tls && (fl.certFile != "" || fl.keyFile != ""):
		return nil, usageErrorf(c, "--tls serves tstable's own certificate, --cert and --key yours: give one or the other")
	case fl.az.pwd != "" && (fl.certFile == "" || fl.keyFile != ""):
		return nil, usageErrorf(c, "--pwd is the password of a PFX certificate: give it with --cert FILE.pfx and no --key")
	case fl.az.pwd != "" || isPFX(fl.certFile):
		return fl.servePFX(c, cfg)
	case (fl.certFile == "") != (fl.keyFile == ""):
		return nil, usageErrorf(c, "--cert FILE and --key FILE go together: the PEM certificate and its private key")
	case fl.tls:
		file, tc, made, err := server.LocalCertificate(localCertDir())
		if err != nil {
			return nil, fmt.Errorf("cannot make or read the certificate for --tls in %s: %w", localCertDir(), err)
		}
		cfg.TLS, cfg.CertFile = tc, file
		return &servedCert{file: file, made: made, local: true, until: certExpiry(file)}, nil
	case fl.certFile != "":
		host, _, _ := net.SplitHostPort(fl.addr)
		tc, err := server.LoadCertificate(fl.certFile, fl.keyFile, host)
		if err != nil {
			return nil, usageErrorf(c, "%v", err)
		}
		cfg.TLS, cfg.CertFile = tc, absPath(fl.certFile)
		return &servedCert{file: cfg.CertFile, until: certExpiry(fl.certFile)}, nil
	}
	return nil, nil
}

// isPFX tells whether file is named as a PFX (PKCS #12) file is.
func isPFX(file string) bool {
	ext := strings.ToLower(filepath.Ext(file))
	return ext == ".pfx" || ext == ".p12"
}

// servePFX sets cfg's certificate from the PFX file of --cert and --pwd,
// and writes its certificates as PEM to a file for clients to trust
// (removed when the server stops: cfg.CertFile, named in the address
// file).
func (fl serveFlags) servePFX(c *cobra.Command, cfg *server.Config) (*servedCert, error) {
	host, _, _ := net.SplitHostPort(fl.addr)
	tc, pemCerts, err := server.LoadPFX(fl.certFile, fl.az.pwd, host)
	if err != nil {
		return nil, usageErrorf(c, "%v", err)
	}
	f, err := os.CreateTemp("", "tstable-cert-*.pem")
	if err != nil {
		return nil, fmt.Errorf("cannot write the PEM of %s for clients to trust: %w", fl.certFile, err)
	}
	defer f.Close()
	if _, err := f.Write(pemCerts); err != nil {
		return nil, fmt.Errorf("cannot write the PEM of %s for clients to trust: %w", fl.certFile, err)
	}
	cfg.TLS, cfg.CertFile = tc, f.Name()
	return &servedCert{file: f.Name(), until: tc.Certificates[0].Leaf.NotAfter, temporary: true}, nil
}

// certExpiry is the expiry of the first certificate in a PEM file (zero
// when it cannot be read).
func certExpiry(file string) time.Time {
	b, err := os.ReadFile(file)
	if err != nil {
		return time.Time{}
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return time.Time{}
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return time.Time{}
	}
	return cert.NotAfter
}

// printStart tells where the server is, how to connect, and how to trust
// its certificate, in notes.
func (fl serveFlags) printStart(f *Factory, path string, run *server.Running, cert *servedCert) {
	w := f.printer.NoteWriter()
	fmt.Fprintf(w, "serving %s at %s\naccount URL: %s\nconnection string: %s\n", path, run.URL(), run.URL(), run.ConnectionString())
	names, strs := run.Accounts(), run.ConnectionStrings()
	for i := 1; i < len(names); i++ {
		fmt.Fprintf(w, "connection string of %s: %s\n", names[i], strs[i])
	}
	fmt.Fprintf(w, "console: %s\n", run.ConsoleURL())
	if fl.az.inMemory {
		fmt.Fprintln(w, "in memory (--inMemoryPersistence): the file is removed when the server stops")
	}
	if note := run.HeaderNote(); note != "" {
		fmt.Fprintf(w, "note: %s\n", note)
	}
	if cert != nil {
		printTrust(w, cert)
	}
	if fl.noAuth {
		fmt.Fprintln(w, "every request is allowed (--no-auth): serve on loopback only")
	}
	if fl.oauth != "" {
		fmt.Fprintln(w, "Microsoft Entra ID tokens are taken (--oauth basic) when well-formed, unexpired, for https://storage.azure.com and from an Entra ID issuer; their signature is NOT checked, so any such token grants the whole account")
	}
	fmt.Fprintln(w, "(Ctrl-C to stop)")
}

// printTrust prints the certificate's line and how each runtime trusts it.
func printTrust(w io.Writer, cert *servedCert) {
	fmt.Fprintf(w, "certificate: %s\n", cert.file)
	switch {
	case cert.made:
		fmt.Fprintf(w, "  (made now: self-signed for localhost, 127.0.0.1 and ::1, valid until %s; trust it once, it is reused)\n", cert.until.Format(time.DateOnly))
	case cert.local:
		fmt.Fprintf(w, "  (self-signed for localhost, 127.0.0.1 and ::1, valid until %s)\n", cert.until.Format(time.DateOnly))
	}
	fmt.Fprintf(w, "  trust it in Node.js:          NODE_EXTRA_CA_CERTS=%s\n", cert.file)
	fmt.Fprintf(w, "  in Python, Go, OpenSSL tools: SSL_CERT_FILE=%s (Python requests: REQUESTS_CA_BUNDLE=%s); either replaces the system's list for that process\n", cert.file, cert.file)
	fmt.Fprintf(w, "  in the OS store (for every program): %s\n", osTrustCommand(cert.file))
}

// osTrustCommand is how to add a certificate to this system's store.
func osTrustCommand(file string) string {
	switch runtime.GOOS {
	case "darwin":
		return "sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain " + file
	case "windows":
		return "certutil -user -addstore Root " + file
	}
	return "sudo cp " + file + " /usr/local/share/ca-certificates/tstable.crt && sudo update-ca-certificates (Debian, Ubuntu; Fedora: sudo trust anchor " + file + ")"
}
