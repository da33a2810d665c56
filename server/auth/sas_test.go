package auth

import (
	"context"
	cryptotls "crypto/tls"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// accountSASClient is an SDK client on an account SAS the SDK made.
func accountSASClient(t *testing.T, srv *httptest.Server, rt aztables.AccountSASResourceTypes, p aztables.AccountSASPermissions, start, expiry time.Time) (*aztables.ServiceClient, string) {
	t.Helper()
	sasURL, err := sharedKeyClient(t, srv, WellKnownAccount, WellKnownKey).GetAccountSASURL(rt, p, start, expiry)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewServiceClientWithNoCredential(sasURL, clientOptions(srv))
	if err != nil {
		t.Fatal(err)
	}
	return c, sasURL
}

var allResources = aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true}

func TestSDKAccountSAS(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	all := aztables.AccountSASPermissions{Read: true, Write: true, Delete: true, List: true, Add: true, Create: true, Update: true}
	c, sasURL := accountSASClient(t, srv, allResources, all, now.Add(-time.Minute), now.Add(time.Hour))
	if !strings.Contains(sasURL, "/devstoreaccount1/?") || !strings.Contains(sasURL, "spr=https") {
		t.Fatalf("the SDK made %s", sasURL)
	}
	tc := c.NewClient("Orders")
	entity := []byte(`{"PartitionKey":"a","RowKey":"b"}`)
	for name, do := range map[string]func() error{
		"create table":   func() error { _, err := c.CreateTable(ctx, "Orders", nil); return err },
		"list tables":    func() error { _, err := c.NewListTablesPager(nil).NextPage(ctx); return err },
		"add entity":     func() error { _, err := tc.AddEntity(ctx, entity, nil); return err },
		"get entity":     func() error { _, err := tc.GetEntity(ctx, "a", "b", nil); return err },
		"query":          func() error { _, err := tc.NewListEntitiesPager(nil).NextPage(ctx); return err },
		"upsert":         func() error { _, err := tc.UpsertEntity(ctx, entity, nil); return err },
		"delete entity":  func() error { _, err := tc.DeleteEntity(ctx, "a", "b", nil); return err },
		"get properties": func() error { _, err := c.GetProperties(ctx, nil); return err },
		"set properties": func() error { _, err := c.SetProperties(ctx, aztables.ServiceProperties{}, nil); return err },
		"delete table":   func() error { _, err := c.DeleteTable(ctx, "Orders", nil); return err },
	} {
		if err := do(); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if o := f.last(); o.credential != "account SAS" {
			t.Errorf("%s: recorded %+v", name, o)
		}
	}
	// Neither kind of SAS reaches a table's access policy.
	_, err := tc.GetAccessPolicy(ctx, nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
}

func TestSDKAccountSASExpiredAndNotYetValid(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	read := aztables.AccountSASPermissions{List: true}

	c, _ := accountSASClient(t, srv, allResources, read, now.Add(-2*time.Hour), now.Add(-time.Hour))
	_, err := c.NewListTablesPager(nil).NextPage(ctx)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "expired") {
		t.Errorf("expired: %q", o.message)
	}

	c, _ = accountSASClient(t, srv, allResources, read, now.Add(time.Hour), now.Add(2*time.Hour))
	_, err = c.NewListTablesPager(nil).NextPage(ctx)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "not valid yet") {
		t.Errorf("not yet valid: %q", o.message)
	}

	// The same token is good once the clock reaches its start.
	f.now = func() time.Time { return now.Add(90 * time.Minute) }
	_, err = c.NewListTablesPager(nil).NextPage(ctx)
	wantAllowed(t, f, err, "account SAS")
}

func TestSDKAccountSASMissingPermission(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()

	// Read and list only: writes are refused for the permission.
	c, _ := accountSASClient(t, srv, allResources, aztables.AccountSASPermissions{Read: true, List: true}, time.Time{}, now.Add(time.Hour))
	tc := c.NewClient("Orders")
	_, err := tc.GetEntity(ctx, "a", "b", nil)
	wantAllowed(t, f, err, "account SAS")
	_, err = tc.AddEntity(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`), nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
	if o := f.last(); !strings.Contains(o.message, `sp=rl`) || !strings.Contains(o.message, "add entities") {
		t.Errorf("message %q", o.message)
	}
	_, err = c.CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
	_, err = c.SetProperties(ctx, aztables.ServiceProperties{}, nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
	_, err = c.GetProperties(ctx, nil)
	wantAllowed(t, f, err, "account SAS")

	// Objects only: listing tables is refused for the resource type.
	c, _ = accountSASClient(t, srv, aztables.AccountSASResourceTypes{Object: true}, aztables.AccountSASPermissions{Read: true, List: true}, time.Time{}, now.Add(time.Hour))
	_, err = c.NewListTablesPager(nil).NextPage(ctx)
	wantRefused(t, f, err, "AuthorizationResourceTypeMismatch")
	_, err = c.NewClient("Orders").GetEntity(ctx, "a", "b", nil)
	wantAllowed(t, f, err, "account SAS")
}

func TestSDKAccountSASProtocolAndTampering(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	tlsSrv := f.start(true)
	plain := f.start(false)
	now := time.Now()
	_, sasURL := accountSASClient(t, tlsSrv, allResources, aztables.AccountSASPermissions{Read: true, List: true}, time.Time{}, now.Add(time.Hour))
	u, _ := url.Parse(sasURL)

	// The SDK signs spr=https: over plain HTTP it is refused.
	c, err := aztables.NewServiceClientWithNoCredential(plain.URL+u.Path+"?"+u.RawQuery, clientOptions(plain))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.NewListTablesPager(nil).NextPage(ctx)
	wantRefused(t, f, err, "AuthorizationProtocolMismatch")

	// Widening the permissions in the URL breaks the signature.
	q := u.Query()
	q.Set("sp", "rwdlacu")
	c, _ = aztables.NewServiceClientWithNoCredential(tlsSrv.URL+u.Path+"?"+q.Encode(), clientOptions(tlsSrv))
	_, err = c.CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "signature (sig) does not match") {
		t.Errorf("message %q", o.message)
	}
}

// accountSAS signs an account SAS by the documented formula, apart from
// the package (and from the SDK, which signs only the older form).
func accountSAS(key []byte, sv, ss, srt, sp, st, se, sip, spr, ses string) string {
	fields := []string{WellKnownAccount, sp, ss, srt, st, se, sip, spr, sv}
	if sv >= "2020-12-06" {
		fields = append(fields, ses)
	}
	q := url.Values{"sv": {sv}, "ss": {ss}, "srt": {srt}, "sp": {sp}, "se": {se}, "sig": {hmacB64(key, strings.Join(fields, "\n")+"\n")}}
	for k, v := range map[string]string{"st": st, "sip": sip, "spr": spr, "ses": ses} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q.Encode()
}

func authorizeQuery(t *testing.T, method, target string, now time.Time, tls bool, remote string) (*Grant, error) {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	r.TLS = nil
	if tls {
		r.TLS = &cryptotls.ConnectionState{}
	}
	if remote != "" {
		r.RemoteAddr = remote
	}
	return New(WellKnownAccount, testKey).Authorize(r, now)
}

func TestAccountSASByHand(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	const st, se = "2024-05-01T00:00:00Z", "2024-07-01T00:00:00Z"
	for _, c := range []struct {
		name, query, remote string
		tls                 bool
		code                string // "" when allowed
	}{
		{"2019-02-02", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", st, se, "", "", ""), "", false, ""},
		{"2015-04-05", accountSAS(testKey, "2015-04-05", "bqtf", "c", "l", "", se, "", "https,http", ""), "", false, ""},
		{"2020-12-06 with encryption scope line", accountSAS(testKey, "2020-12-06", "t", "sco", "rl", st, se, "", "", ""), "", false, ""},
		{"2021-06-08 with a scope", accountSAS(testKey, "2021-06-08", "t", "sco", "rl", st, se, "", "", "myscope"), "", false, ""},
		{"date-only times", accountSAS(testKey, "2019-02-02", "t", "c", "l", "2024-05-01", "2024-07-01", "", "", ""), "", false, ""},
		{"minute times", accountSAS(testKey, "2019-02-02", "t", "c", "l", "2024-05-01T00:00Z", "2024-07-01T00:00Z", "", "", ""), "", false, ""},
		{"fractional times", accountSAS(testKey, "2019-02-02", "t", "c", "l", "2024-05-01T00:00:00.0000000Z", "2024-07-01T00:00:00.0000000Z", "", "", ""), "", false, ""},
		{"https over TLS", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "", "https", ""), "", true, ""},
		{"https over HTTP", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "", "https", ""), "", false, "AuthorizationProtocolMismatch"},
		{"in IP range", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "10.0.0.1-10.0.0.9", "", ""), "10.0.0.5:1234", false, ""},
		{"single IP", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "10.0.0.1", "", ""), "10.0.0.1:1234", false, ""},
		{"outside IP range", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "10.0.0.1-10.0.0.9", "", ""), "10.0.1.5:1234", false, "AuthorizationSourceIPMismatch"},
		{"IPv6 client, IPv4 range", accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "10.0.0.1-10.0.0.9", "", ""), "[::1]:1234", false, "AuthorizationSourceIPMismatch"},
		{"no table service", accountSAS(testKey, "2019-02-02", "bq", "sco", "rl", st, se, "", "", ""), "", false, "AuthorizationServiceMismatch"},
		{"2020-12-06 signed the old way", strings.Replace(accountSAS(testKey, "2019-02-02", "t", "sco", "rl", st, se, "", "", ""), "sv=2019-02-02", "sv=2020-12-06", 1), "", false, "AuthenticationFailed"},
		{"other key", accountSAS(mustKey(otherKey), "2019-02-02", "t", "sco", "rl", st, se, "", "", ""), "", false, "AuthenticationFailed"},
		{"expired", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "", "2024-05-31T23:59:59Z", "", "", ""), "", false, "AuthenticationFailed"},
		{"not yet valid", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "2024-06-01T00:00:01Z", se, "", "", ""), "", false, "AuthenticationFailed"},
		{"ends before it starts", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", se, st, "", "", ""), "", false, "AuthenticationFailed"},
		{"bad expiry", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "", "soon", "", "", ""), "", false, "AuthenticationFailed"},
		{"unknown permission", accountSAS(testKey, "2019-02-02", "t", "sco", "rlz", "", se, "", "", ""), "", false, "AuthenticationFailed"},
		{"unknown resource type", accountSAS(testKey, "2019-02-02", "t", "scx", "rl", "", se, "", "", ""), "", false, "AuthenticationFailed"},
		{"bad protocol", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "", se, "", "ftp", ""), "", false, "AuthenticationFailed"},
		{"bad IP range", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "", se, "ten", "", ""), "", false, "AuthenticationFailed"},
		{"old version", accountSAS(testKey, "2013-08-15", "t", "sco", "rl", "", se, "", "", ""), "", false, "AuthenticationFailed"},
		{"no version", "ss=t&srt=sco&sp=rl&se=2024-07-01&sig=AAAA", "", false, "AuthenticationFailed"},
		{"no expiry", "sv=2019-02-02&ss=t&srt=sco&sp=rl&sig=AAAA", "", false, "AuthenticationFailed"},
		{"neither kind", "sv=2019-02-02&sp=rl&se=2024-07-01&sig=AAAA", "", false, "AuthenticationFailed"},
		{"empty sig", "sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2024-07-01&sig=", "", false, "AuthenticationFailed"},
	} {
		g, err := authorizeQuery(t, "GET", "/devstoreaccount1/Tables?"+c.query, now, c.tls, c.remote)
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.code == "" && g.Credential() != "account SAS":
			t.Errorf("%s: granted by %q", c.name, g.Credential())
		case c.code != "" && (codeOf(err) != c.code || statusOfErr(err) != 403):
			t.Errorf("%s: %v, want 403 %s", c.name, err, c.code)
		case err != nil:
			noKeyIn(t, err.Error())
		}
	}
}

// A '+' of the signature sent unencoded reads as a space; it still matches.
func TestSASSignatureWithRawPlus(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 50; i++ {
		se := time.Date(2024, 7, 1, 0, 0, i, 0, time.UTC).Format(time.RFC3339)
		q := accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "", "", "")
		if !strings.Contains(q, "%2B") {
			continue
		}
		raw := strings.ReplaceAll(q, "%2B", "+")
		if _, err := authorizeQuery(t, "GET", "/devstoreaccount1/Tables?"+raw, now, false, ""); err != nil {
			t.Fatalf("raw '+': %v", err)
		}
		return
	}
	t.Fatal("no signature with a '+' among 50")
}

// SAS tokens the Azure SDK for JavaScript (@azure/data-tables 13.3.2) made,
// and Azurite 3.37.0 accepted; and an account SAS of version 2020-12-06
// (with the encryption scope line) that Azurite accepted while refusing
// the same token signed without that line.
func TestSASGoldens(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, target, credential string }{
		{"JS account SAS", "/devstoreaccount1/Tables?sv=2019-02-02&ss=t&srt=sco&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=rwla&sig=6MSiZeLraEG9tBQEChX5O7JrBZvic4WZA88pfD0VNAQ%3D", "account SAS"},
		{"JS table SAS", "/devstoreaccount1/Orders()?sv=2019-02-02&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=ra&sig=OzRCO8eU20R%2Blx2AvK05wgtFTgq4fl8q3R13zcdMTtg%3D&tn=Orders&srk=2&spk=b&epk=d", "table SAS"},
		{"2020-12-06 account SAS", "/devstoreaccount1/Tables?sv=2020-12-06&ss=t&srt=sco&sp=rl&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sig=6G7h7uWgitl3d2EpRPUOF0rT9MdrXesEO47vn7KnDhQ%3D", "account SAS"},
	} {
		g, err := authorizeQuery(t, "GET", c.target, now, false, "")
		if err != nil || g.Credential() != c.credential {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	g, _ := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?sv=2019-02-02&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=ra&sig=OzRCO8eU20R%2Blx2AvK05wgtFTgq4fl8q3R13zcdMTtg%3D&tn=Orders&srk=2&spk=b&epk=d", now, false, "")
	if spk, srk, epk, erk, ok := g.KeyRange(); !ok || spk != "b" || srk != "2" || epk != "d" || erk != "" {
		t.Errorf("JS table SAS range %q %q %q %q %v", spk, srk, epk, erk, ok)
	}
	const refused = "/devstoreaccount1/Tables?sv=2020-12-06&ss=t&srt=sco&sp=rl&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sig=lP1vMwQe7eI0ltS1GAOtAWQ2hbdv2t%2B97HBBZVPJpeI%3D"
	if _, err := authorizeQuery(t, "GET", refused, now, false, ""); codeOf(err) != "AuthenticationFailed" {
		t.Errorf("2020-12-06 without the scope line: %v", err)
	}
}

// tableSASClient is an SDK client on a table SAS the SDK made for table.
func tableSASClient(t *testing.T, srv *httptest.Server, table string, p aztables.SASPermissions, start, expiry time.Time) (*aztables.Client, string) {
	t.Helper()
	sasURL, err := sharedKeyClient(t, srv, WellKnownAccount, WellKnownKey).NewClient(table).GetTableSASURL(p, start, expiry)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewClientWithNoCredential(sasURL, clientOptions(srv))
	if err != nil {
		t.Fatal(err)
	}
	return c, sasURL
}

func TestSDKTableSAS(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	c, sasURL := tableSASClient(t, srv, "Orders", aztables.SASPermissions{Read: true, Add: true, Update: true, Delete: true}, now.Add(-time.Minute), now.Add(time.Hour))
	if !strings.Contains(sasURL, "/devstoreaccount1/Orders?") || !strings.Contains(sasURL, "tn=orders") {
		t.Fatalf("the SDK made %s", sasURL)
	}
	entity := []byte(`{"PartitionKey":"a","RowKey":"b"}`)
	for name, do := range map[string]func() error{
		"add":    func() error { _, err := c.AddEntity(ctx, entity, nil); return err },
		"get":    func() error { _, err := c.GetEntity(ctx, "a", "b", nil); return err },
		"query":  func() error { _, err := c.NewListEntitiesPager(nil).NextPage(ctx); return err },
		"upsert": func() error { _, err := c.UpsertEntity(ctx, entity, nil); return err },
		"delete": func() error { _, err := c.DeleteEntity(ctx, "a", "b", nil); return err },
	} {
		if err := do(); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if o := f.last(); o.credential != "table SAS" {
			t.Errorf("%s: recorded %+v", name, o)
		}
	}
	if _, _, _, _, ok := f.lastGrant().KeyRange(); ok {
		t.Error("a SAS without keys has a key range")
	}
	// Table-level operations are beyond a table SAS.
	_, err := c.CreateTable(ctx, nil)
	wantRefused(t, f, err, "AuthorizationFailure")
	_, err = c.Delete(ctx, nil)
	wantRefused(t, f, err, "AuthorizationFailure")
	_, err = c.GetAccessPolicy(ctx, nil)
	wantRefused(t, f, err, "AuthorizationFailure")
}

func TestSDKTableSASWrongTableAndCase(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	_, sasURL := tableSASClient(t, srv, "Orders", aztables.SASPermissions{Read: true}, time.Time{}, now.Add(time.Hour))
	u, _ := url.Parse(sasURL)
	for table, want := range map[string]string{"Orders": "", "orders": "", "ORDERS": "", "Invoices": "AuthorizationFailure", "Orders2": "AuthorizationFailure"} {
		c, err := aztables.NewClientWithNoCredential(srv.URL+"/devstoreaccount1/"+table+"?"+u.RawQuery, clientOptions(srv))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetEntity(ctx, "a", "b", nil)
		if want == "" {
			wantAllowed(t, f, err, "table SAS")
		} else {
			wantRefused(t, f, err, want)
			if o := f.last(); !strings.Contains(o.message, `is for table "orders"`) {
				t.Errorf("%s: message %q", table, o.message)
			}
		}
	}
}

func TestSDKTableSASPermissionsAndTimes(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	c, _ := tableSASClient(t, srv, "Orders", aztables.SASPermissions{Read: true}, time.Time{}, now.Add(time.Hour))
	_, err := c.GetEntity(ctx, "a", "b", nil)
	wantAllowed(t, f, err, "table SAS")
	_, err = c.AddEntity(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`), nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
	_, err = c.DeleteEntity(ctx, "a", "b", nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")
	// An upsert needs add and update; add alone is not enough.
	c, _ = tableSASClient(t, srv, "Orders", aztables.SASPermissions{Add: true}, time.Time{}, now.Add(time.Hour))
	_, err = c.UpsertEntity(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`), nil)
	wantRefused(t, f, err, "AuthorizationPermissionMismatch")

	c, _ = tableSASClient(t, srv, "Orders", aztables.SASPermissions{Read: true}, now.Add(-2*time.Hour), now.Add(-time.Hour))
	_, err = c.GetEntity(ctx, "a", "b", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	c, _ = tableSASClient(t, srv, "Orders", aztables.SASPermissions{Read: true}, now.Add(time.Hour), now.Add(2*time.Hour))
	_, err = c.GetEntity(ctx, "a", "b", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
}

func TestSDKTableSASKeyRange(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	p := aztables.SASPermissions{Read: true, Add: true, Update: true, Delete: true,
		StartPartitionKey: "b", StartRowKey: "2", EndPartitionKey: "d", EndRowKey: "5"}
	_, sasURL := tableSASClient(t, srv, "Orders", p, time.Time{}, now.Add(time.Hour))
	// aztables v1.4.1 signs the key range but leaves spk, srk, epk and erk
	// out of the URL it returns, so the service (and tstable) refuse its
	// token; with them added, the SDK's own signature holds.
	if strings.Contains(sasURL, "spk=") {
		t.Log("aztables now puts the key range in the URL: the workaround below is no longer needed")
	} else {
		broken, _ := aztables.NewClientWithNoCredential(sasURL, clientOptions(srv))
		_, err := broken.GetEntity(ctx, "c", "x", nil)
		wantRefused(t, f, err, "AuthenticationFailed")
		sasURL += "&spk=b&srk=2&epk=d&erk=5"
	}
	c, err := aztables.NewClientWithNoCredential(sasURL, clientOptions(srv))
	if err != nil {
		t.Fatal(err)
	}

	inside := [][2]string{{"b", "2"}, {"b", "9"}, {"c", ""}, {"c", "zzz"}, {"d", ""}, {"d", "5"}}
	outside := [][2]string{{"a", "9"}, {"b", "1"}, {"b", ""}, {"d", "6"}, {"e", "0"}, {"", ""}}
	for _, k := range inside {
		_, err := c.AddEntity(ctx, []byte(`{"PartitionKey":`+jsonString(k[0])+`,"RowKey":`+jsonString(k[1])+`}`), nil)
		wantAllowed(t, f, err, "table SAS")
		_, err = c.DeleteEntity(ctx, k[0], k[1], nil)
		wantAllowed(t, f, err, "table SAS")
	}
	for _, k := range outside {
		_, err := c.AddEntity(ctx, []byte(`{"PartitionKey":`+jsonString(k[0])+`,"RowKey":`+jsonString(k[1])+`}`), nil)
		wantRefused(t, f, err, "AuthorizationFailure")
		if o := f.last(); !strings.Contains(o.message, "outside the table SAS's key range from ('b', '2') to ('d', '5')") {
			t.Errorf("%v: message %q", k, o.message)
		}
		if k != [2]string{"", ""} {
			_, err = c.GetEntity(ctx, k[0], k[1], nil)
			wantRefused(t, f, err, "AuthorizationFailure")
		}
	}
	// Reading with no keys is a query, left for KeyRange to narrow; a point
	// read of the empty keys is told apart by InRange.
	g := f.lastGrant()
	if !g.Allows(OpRead, "Orders", "", "") || g.InRange("", "") || !g.InRange("c", "") {
		t.Error("OpRead without keys, or InRange, is wrong")
	}
	// A query is let through, to be narrowed by the range.
	_, err = c.NewListEntitiesPager(nil).NextPage(ctx)
	wantAllowed(t, f, err, "table SAS")
	g = f.lastGrant()
	if spk, srk, epk, erk, ok := g.KeyRange(); !ok || spk != "b" || srk != "2" || epk != "d" || erk != "5" {
		t.Errorf("KeyRange %q %q %q %q %v", spk, srk, epk, erk, ok)
	}
}

// tableSAS signs a table SAS by the documented formula, apart from the package.
func tableSAS(key []byte, tn, sp, st, se, si, spk, srk, epk, erk string) string {
	toSign := strings.Join([]string{sp, st, se, "/table/" + WellKnownAccount + "/" + strings.ToLower(tn), si, "", "", "2019-02-02", spk, srk, epk, erk}, "\n")
	q := url.Values{"sv": {"2019-02-02"}, "tn": {tn}, "sig": {hmacB64(key, toSign)}}
	for k, v := range map[string]string{"sp": sp, "st": st, "se": se, "si": si, "spk": spk, "srk": srk, "epk": epk, "erk": erk} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q.Encode()
}

func TestTableSASByHand(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	const se = "2024-07-01T00:00:00Z"
	for _, c := range []struct{ name, query, code string }{
		{"good", tableSAS(testKey, "Orders", "raud", "", se, "", "", "", "", ""), ""},
		{"partition only", tableSAS(testKey, "Orders", "r", "", se, "", "b", "", "b", ""), ""},
		{"stored policy, none known", tableSAS(testKey, "Orders", "", "", "", "policy1", "", "", "", ""), "AuthenticationFailed"},
		{"row key without partition", tableSAS(testKey, "Orders", "r", "", se, "", "", "2", "", ""), "AuthenticationFailed"},
		{"end row key without partition", tableSAS(testKey, "Orders", "r", "", se, "", "", "", "", "5"), "AuthenticationFailed"},
		{"account permission letter", tableSAS(testKey, "Orders", "rl", "", se, "", "", "", "", ""), "AuthenticationFailed"},
		{"other key", tableSAS(mustKey(otherKey), "Orders", "r", "", se, "", "", "", "", ""), "AuthenticationFailed"},
		{"no permissions", tableSAS(testKey, "Orders", "", "", se, "", "", "", "", ""), "AuthenticationFailed"},
		{"range widened", strings.Replace(tableSAS(testKey, "Orders", "r", "", se, "", "b", "", "b", ""), "epk=b", "epk=z", 1), "AuthenticationFailed"},
	} {
		g, err := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?"+c.query, now, false, "")
		switch {
		case c.code == "" && (err != nil || g.Credential() != "table SAS"):
			t.Errorf("%s: %v", c.name, err)
		case c.code != "" && codeOf(err) != c.code:
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}
	_, err := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?"+tableSAS(testKey, "Orders", "", "", "", "policy1", "", "", "", ""), now, false, "")
	if err == nil || !strings.Contains(err.Error(), "stored access policy") {
		t.Errorf("stored policy: %v", err)
	}
}

func TestNoSASNoAuthorization(t *testing.T) {
	// A query that merely has sv and se, with no sig, is no SAS: the request
	// has no credentials.
	_, err := authorizeQuery(t, "GET", "/devstoreaccount1/Tables?sv=2019-02-02&se=2099-01-01", time.Now(), false, "")
	if codeOf(err) != "AuthenticationFailed" || !strings.Contains(err.Error(), "no credentials") {
		t.Fatalf("%v", err)
	}
}
