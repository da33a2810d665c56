package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/tstabletest"
)

// With the account key (as tstabletest and tstable serve run by default),
// requests are authenticated as the service authenticates them.
func TestRequestsAreAuthenticated(t *testing.T) {
	s := tstabletest.NewServer(t)
	ctx := context.Background()
	c := &client{t: t, url: s.URL()}
	r := c.do("GET", "/Tables", nil)
	if r.status != 403 || r.errorCode() != "AuthenticationFailed" || r.header.Get("x-ms-error-code") != "AuthenticationFailed" {
		t.Errorf("unsigned request: %d %s", r.status, r.body)
	}
	wrong := strings.Replace(s.ConnectionString(), server.DevelopmentKey, "d3Jvbmcga2V5IGZvciB0aGUgYWNjb3VudA==", 1)
	svc, _ := aztables.NewServiceClientFromConnectionString(wrong, nil)
	_, err := svc.CreateTable(ctx, "Nope", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 403 || re.ErrorCode != "AuthenticationFailed" {
		t.Errorf("wrong key: %v", err)
	}
	// A CORS preflight needs no credentials, and the account's rules
	// decide: none, refused; one that allows the origin, answered, and the
	// answers (refusals included) carry CORS headers.
	r = c.do("OPTIONS", "/Tables", nil, "Origin", "http://localhost:3000", "Access-Control-Request-Method", "GET")
	if r.status != 403 || r.errorCode() != "CorsPreflightFailure" {
		t.Errorf("preflight without rules: %d %v", r.status, r.header)
	}
	good, _ := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil)
	if _, err := good.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{{AllowedOrigins: to.Ptr("http://localhost:3000"),
		AllowedMethods: to.Ptr("GET"), AllowedHeaders: to.Ptr("*"), ExposedHeaders: to.Ptr("*"), MaxAgeInSeconds: to.Ptr(int32(60))}}}, nil); err != nil {
		t.Fatal(err)
	}
	r = c.do("OPTIONS", "/Tables", nil, "Origin", "http://localhost:3000", "Access-Control-Request-Method", "GET")
	if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
	r = c.do("GET", "/Tables", nil, "Origin", "http://localhost:3000")
	if !strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "x-ms-error-code") {
		t.Errorf("CORS headers on an answer: %v", r.header)
	}
}

// A table SAS limited to a key range: queries are narrowed to it, point
// reads and writes outside it and writes without the permission refused.
func TestTableSASKeyRange(t *testing.T) {
	s := tstabletest.NewServer(t)
	ctx := context.Background()
	cred, err := aztables.NewSharedKeyCredential(server.DefaultAccount, server.DevelopmentKey)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := aztables.NewServiceClientWithSharedKey(s.URL()+"/", cred, nil) // the SDK appends the table to it as is
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(ctx, "Ranged", nil); err != nil {
		t.Fatal(err)
	}
	owner := svc.NewClient("Ranged")
	for _, pk := range []string{"a", "b", "c", "d"} {
		for _, rk := range []string{"1", "2"} {
			e, _ := json.Marshal(map[string]string{"PartitionKey": pk, "RowKey": rk})
			if _, err := owner.AddEntity(ctx, e, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	sasURL, err := owner.GetTableSASURL(aztables.SASPermissions{Read: true, StartPartitionKey: "b", StartRowKey: "2", EndPartitionKey: "c"},
		time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// The SDK signs the range but leaves it out of the URL: add it.
	sasURL += "&spk=b&srk=2&epk=c"
	reader, err := aztables.NewClientWithNoCredential(sasURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	pager := reader.NewListEntitiesPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatalf("query under the SAS: %v", err)
		}
		for _, raw := range page.Entities {
			var e struct{ PartitionKey, RowKey string }
			json.Unmarshal(raw, &e)
			keys = append(keys, e.PartitionKey+e.RowKey)
		}
	}
	sort.Strings(keys)
	if fmt.Sprint(keys) != "[b2 c1 c2]" {
		t.Errorf("the SAS's query saw %v, want [b2 c1 c2]", keys)
	}
	if _, err := reader.GetEntity(ctx, "c", "1", nil); err != nil {
		t.Errorf("point read inside the range: %v", err)
	}
	wantRefused := func(what string, err error, code string) {
		t.Helper()
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden || re.ErrorCode != code {
			t.Errorf("%s: %v, want 403 %s", what, err, code)
		}
	}
	// A point read outside the range finds nothing, as the live service
	// answers it: 404 ResourceNotFound, not a refusal (testdata/replay
	// holds no such read; its test_table_entity.test_sas_add_outside_range
	// holds the refusal of an insert outside the range, 403
	// AuthorizationFailure, which TestReplayRealService compares).
	_, err = reader.GetEntity(ctx, "a", "1", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound || re.ErrorCode != "ResourceNotFound" {
		t.Errorf("point read outside the range: %v, want 404 ResourceNotFound", err)
	}
	_, err = reader.GetEntity(ctx, "b", "1", nil) // the right partition, before the start row key
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound || re.ErrorCode != "ResourceNotFound" {
		t.Errorf("point read before the start row key: %v, want 404 ResourceNotFound", err)
	}
	e, _ := json.Marshal(map[string]string{"PartitionKey": "b", "RowKey": "9"})
	_, err = reader.AddEntity(ctx, e, nil)
	wantRefused("insert with a read-only SAS", err, "AuthorizationPermissionMismatch")
	_, err = reader.SubmitTransaction(ctx, []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: e}}, nil)
	if err == nil || !strings.Contains(err.Error(), "AuthorizationPermissionMismatch") {
		t.Errorf("a batch with a read-only SAS: %v", err)
	}
	if _, err := owner.GetEntity(ctx, "b", "9", nil); err == nil {
		t.Error("a refused write was written")
	}
}
