package remote

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"

	"github.com/tstable/tstable/odata"
)

// trustingClient is an HTTP client that trusts the certificates in the
// PEM file certFile besides the system's, as the SDK's default client
// does otherwise (proxy from the environment, HTTP/1.1 and 2).
func trustingClient(certFile string) (*http.Client, error) {
	pem, err := os.ReadFile(certFile)
	if err != nil {
		return nil, odata.Errorf(odata.CodeInvalidInput, "cannot read the certificate to trust %s: %v", certFile, err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, odata.Errorf(odata.CodeInvalidInput, "the certificate to trust %s holds no PEM certificate", certFile)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}, nil
}
