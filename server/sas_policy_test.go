package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/tstabletest"
)

// signTableSAS signs a table SAS by the documented string-to-sign with
// the emulator's key; empty fields are left out of the query.
func signTableSAS(fields map[string]string) string {
	key, _ := base64.StdEncoding.DecodeString(server.DevelopmentKey)
	toSign := strings.Join([]string{fields["sp"], fields["st"], fields["se"], "/table/devstoreaccount1/" + strings.ToLower(fields["tn"]),
		fields["si"], "", "", "2019-02-02", "", "", "", ""}, "\n")
	m := hmac.New(sha256.New, key)
	io.WriteString(m, toSign)
	q := url.Values{"sv": {"2019-02-02"}, "sig": {base64.StdEncoding.EncodeToString(m.Sum(nil))}}
	for k, v := range fields {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q.Encode()
}

func statusOf(t *testing.T, method, u string, body string) int {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	req.Header.Set("Accept", "application/json;odata=nometadata")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// A table SAS naming a stored access policy (si=) is honoured as the
// table's ACL says, at the time of each request; a SAS parameter given
// twice is refused (Azurite's SAS tests 9 and 12).
func TestSASWithStoredAccessPolicy(t *testing.T) {
	s := tstabletest.NewServer(t)
	ctx := context.Background()
	svc, err := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(ctx, "Pol", nil); err != nil {
		t.Fatal(err)
	}
	tc := svc.NewClient("Pol")
	if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1"}`), nil); err != nil {
		t.Fatal(err)
	}
	setPolicy := func(perm string) {
		start := time.Now().Add(-time.Hour)
		ids := []*aztables.SignedIdentifier{}
		if perm != "" {
			ids = append(ids, &aztables.SignedIdentifier{ID: to.Ptr("readers"),
				AccessPolicy: &aztables.AccessPolicy{Start: &start, Expiry: to.Ptr(start.Add(2 * time.Hour)), Permission: to.Ptr(perm)}})
		}
		if _, err := tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: ids}); err != nil {
			t.Fatal(err)
		}
	}
	sas := signTableSAS(map[string]string{"tn": "Pol", "si": "readers"})
	query, insert := s.URL()+"/Pol()?"+sas, s.URL()+"/Pol?"+sas
	if got := statusOf(t, "GET", query, ""); got != 403 {
		t.Errorf("before the policy exists: %d", got)
	}
	setPolicy("r")
	if got := statusOf(t, "GET", query, ""); got != 200 {
		t.Errorf("query under the policy: %d", got)
	}
	if got := statusOf(t, "POST", insert, `{"PartitionKey":"p","RowKey":"2"}`); got != 403 {
		t.Errorf("insert under a read policy: %d", got)
	}
	setPolicy("ra")
	if got := statusOf(t, "POST", insert, `{"PartitionKey":"p","RowKey":"2"}`); got != 201 {
		t.Errorf("insert once the policy allows it: %d", got)
	}
	setPolicy("")
	if got := statusOf(t, "GET", query, ""); got != 403 {
		t.Errorf("after the policy is removed: %d", got)
	}
	own := signTableSAS(map[string]string{"tn": "Pol", "sp": "r", "se": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	if got := statusOf(t, "GET", s.URL()+"/Pol()?"+own, ""); got != 200 {
		t.Errorf("a SAS of its own: %d", got)
	}
	sig := own[strings.Index(own, "sig="):]
	sig = sig[:strings.IndexByte(sig+"&", '&')]
	if got := statusOf(t, "GET", s.URL()+"/Pol()?"+own+"&"+sig, ""); got != 403 {
		t.Errorf("sig twice: %d", got)
	}
}
