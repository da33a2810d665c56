package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// The Go SDK signs every request of every operation with SharedKeyLite
// (it has no SharedKey signer), path-style, the account twice in the
// canonicalized resource.
func TestSDKSharedKeyLiteEveryOperation(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	svc := sharedKeyClient(t, srv, WellKnownAccount, WellKnownKey)
	tc := svc.NewClient("Orders")
	entity := []byte(`{"PartitionKey":"p'1","RowKey":"r/1 é","Qty":3}`)

	steps := []struct {
		name string
		do   func() error
	}{
		{"create table", func() error { _, err := svc.CreateTable(ctx, "Orders", nil); return err }},
		{"list tables", func() error { _, err := svc.NewListTablesPager(nil).NextPage(ctx); return err }},
		{"add entity", func() error { _, err := tc.AddEntity(ctx, entity, nil); return err }},
		{"get entity", func() error { _, err := tc.GetEntity(ctx, "p'1", "r/1 é", nil); return err }},
		{"query entities", func() error {
			_, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("PartitionKey eq 'p''1'")}).NextPage(ctx)
			return err
		}},
		{"update entity", func() error {
			_, err := tc.UpdateEntity(ctx, entity, &aztables.UpdateEntityOptions{IfMatch: to.Ptr(azcore.ETagAny), UpdateMode: aztables.UpdateModeMerge})
			return err
		}},
		{"upsert entity", func() error { _, err := tc.UpsertEntity(ctx, entity, nil); return err }},
		{"delete entity", func() error { _, err := tc.DeleteEntity(ctx, "p'1", "r/1 é", nil); return err }},
		{"get properties", func() error { _, err := svc.GetProperties(ctx, nil); return err }},
		{"set properties", func() error { _, err := svc.SetProperties(ctx, aztables.ServiceProperties{}, nil); return err }},
		{"get access policy", func() error { _, err := tc.GetAccessPolicy(ctx, nil); return err }},
		{"delete table", func() error { _, err := svc.DeleteTable(ctx, "Orders", nil); return err }},
	}
	for _, s := range steps {
		err := s.do()
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		o := f.last()
		if o.scheme != "SharedKeyLite" || o.credential != "SharedKeyLite" {
			t.Errorf("%s: recorded %+v, want allowed by SharedKeyLite", s.name, o)
		}
	}
	// A batch is one request to /devstoreaccount1/$batch.
	if _, err := tc.SubmitTransaction(ctx, []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: entity}}, nil); err != nil {
		t.Errorf("batch: %v", err)
	}
	if o := f.last(); o.path != "/devstoreaccount1/$batch" || o.credential != "SharedKeyLite" {
		t.Errorf("batch: recorded %+v, want /devstoreaccount1/$batch allowed by SharedKeyLite", o)
	}
}

func TestSDKWrongKey(t *testing.T) {
	f := newFakeService(t)
	srv := f.start(true)
	_, err := sharedKeyClient(t, srv, WellKnownAccount, otherKey).CreateTable(context.Background(), "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	o := f.last()
	for _, want := range []string{"signature does not match", "/devstoreaccount1/devstoreaccount1/Tables"} {
		if !strings.Contains(o.message, want) {
			t.Errorf("message %q lacks %q", o.message, want)
		}
	}
	if strings.Contains(o.message, otherKey) {
		t.Errorf("message holds the client's key: %s", o.message)
	}
}

func TestSDKWrongAccount(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)

	// Signed for another account, sent to this one's URL.
	_, err := sharedKeyClient(t, srv, "otheraccount", WellKnownKey).CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, `signed for account "otheraccount"`) {
		t.Errorf("message %q does not name the account signed for", o.message)
	}

	// Signed for another account and sent to its URL.
	cred, _ := aztables.NewSharedKeyCredential("otheraccount", WellKnownKey)
	c, err := aztables.NewServiceClientWithSharedKey(srv.URL+"/otheraccount/", cred, clientOptions(srv))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, `this server answers for account "devstoreaccount1"`) {
		t.Errorf("message %q does not name the server's account", o.message)
	}
}

// tamper changes a request after the SDK signed it.
type tamper func(*http.Request)

func (f tamper) Do(req *policy.Request) (*http.Response, error) {
	f(req.Raw())
	return req.Next()
}

func TestSDKTamperedRequest(t *testing.T) {
	cases := map[string]tamper{
		"x-ms-date moved a second": func(r *http.Request) {
			d, _ := http.ParseTime(r.Header.Get("x-ms-date"))
			r.Header.Set("x-ms-date", d.Add(time.Second).Format(http.TimeFormat))
		},
		"signature altered": func(r *http.Request) {
			h := r.Header.Get("Authorization")
			r.Header.Set("Authorization", h[:len(h)-4]+"AAA=")
		},
		"path changed": func(r *http.Request) {
			r.URL.Path = strings.Replace(r.URL.Path, "Orders", "Other", 1)
			r.URL.RawPath = ""
		},
		"comp added": func(r *http.Request) { r.URL.RawQuery = "comp=acl" },
	}
	for name, tp := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFakeService(t)
			srv := f.start(true)
			_, err := sharedKeyClient(t, srv, WellKnownAccount, WellKnownKey, tp).NewClient("Orders").GetEntity(context.Background(), "a", "b", nil)
			wantRefused(t, f, err, "AuthenticationFailed")
		})
	}
	// The same request untouched goes through: the cases above fail for
	// the change alone.
	f := newFakeService(t)
	srv := f.start(true)
	_, err := sharedKeyClient(t, srv, WellKnownAccount, WellKnownKey).NewClient("Orders").GetEntity(context.Background(), "a", "b", nil)
	wantAllowed(t, f, err, "SharedKeyLite")
}

// signLite signs r with SharedKeyLite by the documented Table service
// formula, written out here apart from the package: x-ms-date, then
// "/" + account + the encoded path, then ?comp= when there is one.
func signLite(r *http.Request, account string, key []byte) {
	cr := "/" + account + r.URL.EscapedPath()
	if c, ok := r.URL.Query()["comp"]; ok {
		cr += "?comp=" + c[0]
	}
	r.Header.Set("Authorization", "SharedKeyLite "+account+":"+hmacB64(key, r.Header.Get("x-ms-date")+"\n"+cr))
}

// signFull signs r with SharedKey by the documented Table service formula:
// VERB, Content-MD5, Content-Type, x-ms-date, canonicalized resource.
func signFull(r *http.Request, account string, key []byte) {
	cr := "/" + account + r.URL.EscapedPath()
	if c, ok := r.URL.Query()["comp"]; ok {
		cr += "?comp=" + c[0]
	}
	s := r.Method + "\n" + r.Header.Get("Content-MD5") + "\n" + r.Header.Get("Content-Type") + "\n" + r.Header.Get("x-ms-date") + "\n" + cr
	r.Header.Set("Authorization", "SharedKey "+account+":"+hmacB64(key, s))
}

// The hand-made SharedKeyLite header is the one the SDK sends for the same
// request: the documented formula and the SDK agree.
func TestSharedKeyLiteByHandMatchesSDK(t *testing.T) {
	var seen *http.Request
	capture := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Clone(r.Context())
		w.WriteHeader(204)
	}))
	defer capture.Close()
	cred, _ := aztables.NewSharedKeyCredential(WellKnownAccount, WellKnownKey)
	svc, _ := aztables.NewServiceClientWithSharedKey(capture.URL+"/"+WellKnownAccount+"/", cred, clientOptions(capture))
	svc.NewClient("Orders").DeleteEntity(context.Background(), "p'1", "r 1", nil)
	if seen == nil {
		t.Fatal("the SDK sent nothing")
	}
	sdkHeader := seen.Header.Get("Authorization")
	mine := seen.Clone(seen.Context())
	signLite(mine, WellKnownAccount, testKey)
	if got := mine.Header.Get("Authorization"); got != sdkHeader {
		t.Fatalf("by hand %q, SDK %q", got, sdkHeader)
	}
	if !strings.HasPrefix(sdkHeader, "SharedKeyLite devstoreaccount1:") {
		t.Fatalf("SDK header %q", sdkHeader)
	}
}

// newSigned is a request to the emulator account at now, not yet signed.
func newSigned(method, target, body string, now time.Time) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("x-ms-date", now.UTC().Format(http.TimeFormat))
	return r
}

func TestSharedKeyByHand(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	v := New(WellKnownAccount, testKey)
	build := func() *http.Request {
		r := newSigned("POST", "/devstoreaccount1/Orders", `{"PartitionKey":"a","RowKey":"b"}`, now)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Content-MD5", "Q2hlY2sgSW50ZWdyaXR5IQ==")
		return r
	}
	r := build()
	signFull(r, WellKnownAccount, testKey)
	g, err := v.Authorize(r, now)
	if err != nil || g.Credential() != "SharedKey" || !g.Allows(OpDeleteTable, "Anything", "", "") {
		t.Fatalf("good SharedKey: %v, %v", g, err)
	}

	// Each signed part, changed after signing, breaks the signature.
	for name, change := range map[string]func(*http.Request){
		"verb":         func(r *http.Request) { r.Method = "PUT" },
		"content-type": func(r *http.Request) { r.Header.Set("Content-Type", "application/xml") },
		"content-md5":  func(r *http.Request) { r.Header.Del("Content-MD5") },
		"x-ms-date":    func(r *http.Request) { r.Header.Set("x-ms-date", now.Add(time.Second).Format(http.TimeFormat)) },
		"path":         func(r *http.Request) { r.RequestURI = "/devstoreaccount1/Order" },
		"lite scheme": func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "SharedKey ", "SharedKeyLite ", 1))
		},
	} {
		r := build()
		signFull(r, WellKnownAccount, testKey)
		change(r)
		if _, err := v.Authorize(r, now); codeOf(err) != "AuthenticationFailed" || statusOfErr(err) != 403 {
			t.Errorf("%s changed: %v, want 403 AuthenticationFailed", name, err)
		} else {
			noKeyIn(t, err.Error())
		}
	}

	// Unsigned headers are free to change: x-ms-version, Accept, Date when
	// x-ms-date is there.
	r = build()
	signFull(r, WellKnownAccount, testKey)
	r.Header.Set("x-ms-version", "2019-02-02")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Date", "Tue, 01 Jan 2030 00:00:00 GMT")
	if _, err := v.Authorize(r, now); err != nil {
		t.Errorf("unsigned headers changed: %v", err)
	}
}

// A SharedKey request Azurite 3.37.0 accepted (GET of the table list, the
// header below, signed by the formula of signFull): the golden signature
// pins the string-to-sign to what the emulator checks.
func TestSharedKeyGoldenAcceptedByAzurite(t *testing.T) {
	const goldenSharedKeySig = "AKXIbHlEVjVwihp+m+i3ivOgvqG9FcrLBqVbqs4WlE8="
	const date = "Wed, 01 May 2024 12:00:00 GMT"
	const auth = "SharedKey devstoreaccount1:" + goldenSharedKeySig
	r := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	r.Header.Set("x-ms-date", date)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", auth)
	now, _ := http.ParseTime(date)
	g, err := New(WellKnownAccount, testKey).Authorize(r, now)
	if err != nil || g.Credential() != "SharedKey" {
		t.Fatalf("golden request refused: %v", err)
	}
	check := r.Clone(r.Context())
	signFull(check, WellKnownAccount, testKey)
	if check.Header.Get("Authorization") != auth {
		t.Fatalf("signFull gives %q, the golden header is %q", check.Header.Get("Authorization"), auth)
	}
}

func TestSharedKeyLiteByHand(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	v := New(WellKnownAccount, testKey)
	for _, target := range []string{
		"/devstoreaccount1/Tables",
		"/devstoreaccount1/Orders(PartitionKey='a%2Fb',RowKey='c%20d')",
		"/devstoreaccount1/$batch",
		"/devstoreaccount1/?restype=service&comp=properties",
		"/devstoreaccount1/Orders?comp=acl",
		"/devstoreaccount1/Orders()?$filter=PartitionKey%20eq%20'a'&$top=5",
	} {
		r := newSigned("GET", target, "", now)
		signLite(r, WellKnownAccount, testKey)
		if g, err := v.Authorize(r, now); err != nil || g.Credential() != "SharedKeyLite" {
			t.Errorf("%s: %v", target, err)
		}
		// comp is signed, other parameters are not.
		r2 := newSigned("GET", target, "", now)
		signLite(r2, WellKnownAccount, testKey)
		r2.URL.RawQuery += "&comp=list"
		if _, err := v.Authorize(r2, now); codeOf(err) != "AuthenticationFailed" && !strings.Contains(target, "comp=") {
			t.Errorf("%s with comp added: %v, want AuthenticationFailed", target, err)
		}
	}
}

func TestSharedKeyDate(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	v := New(WellKnownAccount, testKey)
	for _, c := range []struct {
		name   string
		setup  func(*http.Request)
		wantOK bool
		want   string
	}{
		{"now", func(r *http.Request) {}, true, ""},
		{"14 minutes old", func(r *http.Request) { r.Header.Set("x-ms-date", now.Add(-14*time.Minute).Format(http.TimeFormat)) }, true, ""},
		{"16 minutes old", func(r *http.Request) { r.Header.Set("x-ms-date", now.Add(-16*time.Minute).Format(http.TimeFormat)) }, false, "16m0s away"},
		{"16 minutes ahead", func(r *http.Request) { r.Header.Set("x-ms-date", now.Add(16*time.Minute).Format(http.TimeFormat)) }, false, "check the client's clock"},
		{"Date header alone", func(r *http.Request) { r.Header.Set("Date", r.Header.Get("x-ms-date")); r.Header.Del("x-ms-date") }, true, ""},
		{"no date", func(r *http.Request) { r.Header.Del("x-ms-date") }, false, "no x-ms-date or Date"},
		{"not a date", func(r *http.Request) { r.Header.Set("x-ms-date", "yesterday") }, false, "not an RFC 1123 date"},
	} {
		r := newSigned("GET", "/devstoreaccount1/Tables", "", now)
		c.setup(r)
		signFull(r, WellKnownAccount, testKey)
		if c.name == "Date header alone" {
			// signFull reads x-ms-date; sign with the Date value instead.
			s := "GET\n\n\n" + r.Header.Get("Date") + "\n/devstoreaccount1/devstoreaccount1/Tables"
			r.Header.Set("Authorization", "SharedKey devstoreaccount1:"+hmacB64(testKey, s))
		}
		_, err := v.Authorize(r, now)
		if c.wantOK != (err == nil) || (!c.wantOK && (codeOf(err) != "AuthenticationFailed" || !strings.Contains(err.Error(), c.want))) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestAuthorizationHeaderForms(t *testing.T) {
	now := time.Now()
	v := New(WellKnownAccount, testKey)
	for _, h := range []string{
		"SharedKey",
		"SharedKey devstoreaccount1",
		"SharedKey devstoreaccount1:",
		"SharedKey :abc",
		"SharedKey devstoreaccount1:not base64!",
		"Basic dXNlcjpwYXNz",
		"sharedkey devstoreaccount1:AAAA",
	} {
		r := newSigned("GET", "/devstoreaccount1/Tables", "", now)
		r.Header.Set("Authorization", h)
		if _, err := v.Authorize(r, now); codeOf(err) != "AuthenticationFailed" {
			t.Errorf("%q: %v, want AuthenticationFailed", h, err)
		}
	}
}

func TestEmptyKeyRefusesEverything(t *testing.T) {
	now := time.Now()
	v := New(WellKnownAccount, nil)
	r := newSigned("GET", "/devstoreaccount1/Tables", "", now)
	signFull(r, WellKnownAccount, nil)
	if _, err := v.Authorize(r, now); codeOf(err) != "AuthenticationFailed" {
		t.Fatalf("signed with the empty key: %v", err)
	}
}

func TestPathAccount(t *testing.T) {
	now := time.Now()
	v := New(WellKnownAccount, testKey)
	for target, want := range map[string]string{
		"/Tables":                        "this server answers for account",
		"/":                              "names no account",
		"/devstoreaccount2/Tables":       `"devstoreaccount2"`,
		"/devstoreaccount1x/Tables":      `"devstoreaccount1x"`,
		"/DevStoreAccount1/Tables":       `"DevStoreAccount1"`,
		"/devstoreaccount2-secondary/Ta": "-secondary",
	} {
		r := newSigned("GET", target, "", now)
		signFull(r, WellKnownAccount, testKey)
		if _, err := v.Authorize(r, now); codeOf(err) != "AuthenticationFailed" || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want AuthenticationFailed naming %s", target, err, want)
		}
	}
	// The bare account is the service itself; ACCOUNT-secondary is its
	// secondary endpoint, path-style as the emulators serve it.
	for _, target := range []string{"/devstoreaccount1?restype=service&comp=properties", "/devstoreaccount1-secondary/?restype=service&comp=stats"} {
		r := newSigned("GET", target, "", now)
		signFull(r, WellKnownAccount, testKey)
		if _, err := v.Authorize(r, now); err != nil {
			t.Errorf("%s: %v", target, err)
		}
	}
}

func TestNoCredentials(t *testing.T) {
	f := newFakeService(t)
	srv := f.start(true)
	c, err := aztables.NewServiceClientWithNoCredential(accountURL(srv)+"/", clientOptions(srv))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(context.Background(), "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "no credentials") {
		t.Errorf("message %q", o.message)
	}
}
