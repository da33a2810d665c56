package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gofrs/flock"
	"software.sslmate.com/src/go-pkcs12"
)

// The self-signed certificate of tstable serve --tls: for the loopback
// names a local server is reached by, valid for as long as macOS and iOS
// trust a TLS server certificate (825 days, also for certificates a user
// trusts by hand), and made anew when less than renewBefore of that is
// left.
const (
	localCertLifetime = 825 * 24 * time.Hour
	renewBefore       = 30 * 24 * time.Hour
)

// localNames are the names the self-signed certificate is valid for.
var localNames = struct {
	dns []string
	ips []net.IP
}{[]string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}}

// Files of the self-signed certificate in its folder.
const (
	localCertName = "cert.pem"
	localKeyName  = "key.pem"
)

// LocalCertificate is the self-signed certificate kept in dir (tstable's
// state folder): made there on first use, reused while it is valid for
// the loopback names and not about to expire, made anew otherwise. It
// returns the PEM file of the certificate (what clients trust), the TLS
// configuration that serves it, and whether it was just made. Servers
// starting at once, in one process or several, end up with the same
// certificate: the one that makes or replaces it holds the lock beside
// the folder (lockLocal) while it does, and the others, waiting for that
// lock, then load what it made. A new certificate is made in a folder of
// its own and renamed into place, so a server that loads one without the
// lock finds a whole pair or none.
func LocalCertificate(dir string) (certFile string, cfg *tls.Config, made bool, err error) {
	certFile = filepath.Join(dir, localCertName)
	if cfg, err := loadLocal(dir); err == nil {
		return certFile, cfg, false, nil
	}
	unlock, err := lockLocal(dir)
	if err != nil {
		return "", nil, false, err
	}
	defer unlock()
	if cfg, err := loadLocal(dir); err == nil {
		return certFile, cfg, false, nil // made by another server while this one waited
	}
	if err := makeLocal(dir); err != nil {
		return "", nil, false, err
	}
	cfg, err = loadLocal(dir)
	if err != nil {
		return "", nil, false, fmt.Errorf("the certificate made in %s does not load: %w", dir, err)
	}
	return certFile, cfg, true, nil
}

// loadLocal loads the certificate in dir, refusing one that does not name
// the loopback addresses or expires within renewBefore.
func loadLocal(dir string) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, localCertName), filepath.Join(dir, localKeyName))
	if err != nil {
		return nil, err
	}
	leaf := pair.Leaf
	if leaf == nil {
		if leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
			return nil, err
		}
	}
	if time.Until(leaf.NotAfter) < renewBefore {
		return nil, errors.New("it expires soon")
	}
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		if leaf.VerifyHostname(name) != nil {
			return nil, errors.New("it does not name " + name)
		}
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

// lockWait bounds how long a server waits for another that is making
// the certificate (which takes milliseconds).
const lockWait = 10 * time.Second

// lockLocal takes the lock of the certificate's folder dir, a file beside
// it (dir.lock), making the folder's parent if need be, and returns what
// releases it. The lock is the system's own on that file, so a server
// that dies holding it holds it no more.
func lockLocal(dir string) (unlock func(), err error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make the folder %s for the certificate: %w", parent, err)
	}
	name := dir + ".lock"
	l := flock.New(name)
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 10*time.Millisecond)
	switch {
	case err != nil && !ok && ctx.Err() == nil:
		return nil, fmt.Errorf("cannot lock %s to make the certificate: %w", name, err)
	case !ok:
		return nil, fmt.Errorf("another tstable serve has held %s for %s while making the certificate; stop it, or start this one again", name, lockWait)
	}
	return func() { l.Unlock() }, nil
}

// makeLocal makes a new certificate and key and puts them in dir, in
// place of what is there. The caller holds lockLocal's lock.
func makeLocal(dir string) error {
	certPEM, keyPEM, err := NewLocalCertificate(time.Now())
	if err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	tmp, err := os.MkdirTemp(parent, ".tls-")
	if err != nil {
		return fmt.Errorf("cannot make the certificate in %s: %w", parent, err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, localKeyName), keyPEM, 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, localCertName), certPEM, 0o644); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		old := dir + ".old-" + strconv.Itoa(os.Getpid())
		if err := os.Rename(dir, old); err == nil {
			defer os.RemoveAll(old)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("cannot put the certificate in %s: %w", dir, err)
	}
	return nil
}

// NewLocalCertificate makes a self-signed certificate for localhost,
// 127.0.0.1 and ::1 (an ECDSA P-256 key), valid from an hour before now
// for 825 days, and returns it and its key in PEM.
func NewLocalCertificate(now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{Organization: []string{"tstable"}, CommonName: "tstable serve (localhost)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(localCertLifetime - time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              localNames.dns,
		IPAddresses:           localNames.ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), nil
}

// LoadCertificate is the TLS configuration serving the PEM certificate
// (with any intermediates after it) and key in certFile and keyFile, as
// tstable serve --cert --key takes them. host is the address clients
// will use; a certificate that does not name it is refused, since every
// client would refuse it too (an empty or unspecified host, 0.0.0.0 or
// ::, is not checked).
func LoadCertificate(certFile, keyFile, host string) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cannot use the certificate %s with the key %s: %w (both must be PEM, the key the certificate's)", certFile, keyFile, err)
	}
	leaf := pair.Leaf
	if leaf == nil {
		if leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
			return nil, fmt.Errorf("cannot read the certificate %s: %w", certFile, err)
		}
	}
	return serveCertificate(pair, leaf, certFile, host)
}

// LoadPFX reads a PFX (PKCS #12) file holding a certificate, its chain and
// its private key, encrypted with password, as Azurite's --cert and --pwd
// take one; it returns the TLS configuration serving it for host and the
// certificate and its chain as PEM, for clients to trust.
func LoadPFX(file, password, host string) (*tls.Config, []byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the PFX certificate %s: %w", file, err)
	}
	key, leaf, chain, err := pkcs12.DecodeChain(data, password)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the PFX certificate %s with the password of --pwd: %w (a PEM certificate goes with --key instead)", file, err)
	}
	pair := tls.Certificate{Certificate: [][]byte{leaf.Raw}, PrivateKey: key, Leaf: leaf}
	pemCerts := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Raw})
	for _, c := range chain {
		pair.Certificate = append(pair.Certificate, c.Raw)
		pemCerts = append(pemCerts, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
	}
	tc, err := serveCertificate(pair, leaf, file, host)
	return tc, pemCerts, err
}

// serveCertificate is the TLS configuration serving pair, whose
// certificate is leaf (read from certFile), for host: refused when it has
// expired or does not name host.
func serveCertificate(pair tls.Certificate, leaf *x509.Certificate, certFile, host string) (*tls.Config, error) {
	if time.Now().After(leaf.NotAfter) {
		return nil, fmt.Errorf("the certificate %s expired on %s: use a current one, or --tls for tstable's own", certFile, leaf.NotAfter.Format(time.DateOnly))
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
	}
	if err := leaf.VerifyHostname(host); err != nil {
		return nil, fmt.Errorf("the certificate %s is not valid for %s, the address served (%v): serve on a name it has with --addr, or use --tls for tstable's own", certFile, host, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}
