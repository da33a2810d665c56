package remote

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/tstable/tstable/odata"
)

// Config says which account to reach and how to authenticate.
type Config struct {
	// ConnectionString is an account connection string (with AccountKey or
	// SharedAccessSignature), or "UseDevelopmentStorage=true" for Azurite.
	ConnectionString string
	// AccountURL is a table endpoint, reached with the Azure SDK's default
	// credential chain (environment, managed identity, Azure CLI login)
	// when ConnectionString is empty.
	AccountURL string
	// MaxRetries is how many times a throttled (429, 503) or failed
	// request is retried, with exponential backoff; 0 means the default, 5.
	MaxRetries int32
	// Parallel bounds how many transactions Load sends at once; 0 means 8.
	Parallel int
	// Transport replaces the HTTP client (tests: a stub service).
	Transport policy.Transporter
	// TrustCertFile is a PEM file of certificates to trust besides the
	// system's: the one a tstable serve over HTTPS serves (its address
	// file names it). Ignored when Transport is set.
	TrustCertFile string
	// Served says the account is tstable serve over a local file: queries
	// then page by the store's own keys (QueryResult.Next and
	// QueryRequest.Start are keys, as the local store's are), read from
	// and written into the server's continuation headers, so that a query
	// goes on the same whether the file is served or not.
	Served bool
}

// azuriteConnectionString is what UseDevelopmentStorage=true stands for.
const azuriteConnectionString = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;" +
	"AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;" +
	"TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;"

// connectionParts splits a connection string into its settings.
func connectionParts(cs string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(cs, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("the connection string has a part without '=' (expected Name=value pairs separated by ';')")
		}
		out[k] = v
	}
	return out, nil
}

// endpointAndAccount returns the table endpoint and account name a
// connection string or URL points to, for people to read.
func endpointAndAccount(cfg Config) (endpoint, account string, err error) {
	if cfg.ConnectionString == "" {
		u, err := url.Parse(cfg.AccountURL)
		if err != nil || u.Host == "" {
			return "", "", fmt.Errorf("--account-url %q is not a URL such as https://ACCOUNT.table.core.windows.net", Scrub(cfg.AccountURL))
		}
		account = accountOf(u)
		u.RawQuery = ""
		return u.String(), account, nil
	}
	parts, err := connectionParts(cfg.ConnectionString)
	if err != nil {
		return "", "", err
	}
	if strings.EqualFold(parts["UseDevelopmentStorage"], "true") {
		return "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1", nil
	}
	account = parts["AccountName"]
	endpoint = parts["TableEndpoint"]
	if endpoint == "" && account != "" {
		proto := parts["DefaultEndpointsProtocol"]
		if proto == "" {
			proto = "https"
		}
		suffix := parts["EndpointSuffix"]
		if suffix == "" {
			suffix = "core.windows.net"
		}
		endpoint = proto + "://" + account + ".table." + suffix
	}
	if endpoint == "" {
		return "", "", fmt.Errorf("the connection string names no account: give AccountName (and AccountKey or SharedAccessSignature) or TableEndpoint")
	}
	if account == "" {
		if u, err := url.Parse(endpoint); err == nil {
			account = accountOf(u)
		}
	}
	return endpoint, account, nil
}

// Compiled on first use, not at every start of the program.
var secretRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(AccountKey=|SharedAccessSignature=|[?&]sig=|sig%3D|Authorization:\s*SharedKey\s+[^:\s]+:)[^;&"'\s]*`)
})

// Scrub replaces account keys and SAS signatures in s with <redacted>.
func Scrub(s string) string {
	return secretRE().ReplaceAllString(s, "${1}<redacted>")
}

// accountOf names the account of an endpoint: the first label of the host
// (ACCOUNT.table.core.windows.net), or the first path segment for a
// loopback emulator (http://127.0.0.1:10002/devstoreaccount1).
func accountOf(u *url.URL) string {
	host := u.Hostname()
	if host == "127.0.0.1" || host == "localhost" || host == "::1" {
		seg, _, _ := strings.Cut(strings.Trim(u.Path, "/"), "/")
		return seg
	}
	account, _, _ := strings.Cut(host, ".")
	return account
}

// Where names the account and table endpoint cfg points to, without
// connecting and without any secret.
func (cfg Config) Where() (account, endpoint string, err error) {
	endpoint, account, err = endpointAndAccount(cfg)
	if err != nil {
		return "", "", odata.Errorf(odata.CodeInvalidInput, "%s", Scrub(err.Error()))
	}
	return account, endpoint, nil
}
