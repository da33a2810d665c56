package remote

import (
	"strings"
	"testing"
)

func TestScrub(t *testing.T) {
	in := `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net GET https://acct.table.core.windows.net/T?sv=2020&sig=abc%2Bdef&se=1`
	out := Scrub(in)
	if strings.Contains(out, "c2VjcmV0") || strings.Contains(out, "abc%2Bdef") {
		t.Errorf("secret left in %q", out)
	}
	if !strings.Contains(out, "AccountName=acct") || !strings.Contains(out, "sv=2020") {
		t.Errorf("too much removed: %q", out)
	}
}

func TestEndpointAndAccount(t *testing.T) {
	cases := []struct {
		cfg               Config
		endpoint, account string
	}{
		{Config{ConnectionString: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=k;EndpointSuffix=core.windows.net"}, "https://acct.table.core.windows.net", "acct"},
		{Config{ConnectionString: "UseDevelopmentStorage=true"}, "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1"},
		{Config{ConnectionString: "TableEndpoint=https://acct.table.core.windows.net/;SharedAccessSignature=sv=1&sig=x"}, "https://acct.table.core.windows.net/", "acct"},
		{Config{AccountURL: "http://127.0.0.1:10002/devstoreaccount1"}, "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1"},
	}
	for _, tc := range cases {
		e, a, err := endpointAndAccount(tc.cfg)
		if err != nil || e != tc.endpoint || a != tc.account {
			t.Errorf("%+v: %q %q %v", tc.cfg, e, a, err)
		}
	}
	if _, _, err := endpointAndAccount(Config{ConnectionString: "nonsense"}); err == nil {
		t.Error("a connection string without '=' was accepted")
	}
}
