package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/tstabletest"
)

// The service's XML operations answer what the Go SDK expects: service
// properties set and read back, statistics, a table's access policies.
func TestServicePropertiesAndACLThroughSDK(t *testing.T) {
	s := tstabletest.NewServer(t)
	ctx := context.Background()
	svc, err := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props, err := svc.GetProperties(ctx, nil)
	if err != nil || props.Logging == nil || props.HourMetrics == nil {
		t.Fatalf("GetProperties: %+v, %v", props, err)
	}
	_, err = svc.SetProperties(ctx, aztables.ServiceProperties{
		Cors: []*aztables.CorsRule{{AllowedOrigins: to.Ptr("https://example.org"), AllowedMethods: to.Ptr("GET"),
			AllowedHeaders: to.Ptr("*"), ExposedHeaders: to.Ptr("*"), MaxAgeInSeconds: to.Ptr(int32(60))}},
	}, nil)
	if err != nil {
		t.Fatalf("SetProperties: %v", err)
	}
	props, err = svc.GetProperties(ctx, nil)
	if err != nil || len(props.Cors) != 1 || *props.Cors[0].AllowedOrigins != "https://example.org" || props.Logging == nil {
		t.Fatalf("after SetProperties: %+v, %v", props, err)
	}
	// Statistics come from the secondary endpoint only, as the service's.
	if _, err := svc.GetStatistics(ctx, nil); !strings.Contains(fmt.Sprint(err), "InvalidQueryParameterValue") {
		t.Fatalf("GetStatistics on the primary: %v", err)
	}
	secondary, err := aztables.NewServiceClientFromConnectionString(strings.Replace(s.ConnectionString(), "/devstoreaccount1;", "/devstoreaccount1-secondary;", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := secondary.GetStatistics(ctx, nil)
	if err != nil || stats.GeoReplication == nil || *stats.GeoReplication.Status != aztables.GeoReplicationStatusLive {
		t.Fatalf("GetStatistics: %+v, %v", stats, err)
	}
	if _, err := svc.CreateTable(ctx, "Acl", nil); err != nil {
		t.Fatal(err)
	}
	tc := svc.NewClient("Acl")
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err = tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{{
		ID: to.Ptr("readers"), AccessPolicy: &aztables.AccessPolicy{Start: &start, Expiry: to.Ptr(start.Add(time.Hour)), Permission: to.Ptr("r")},
	}}})
	if err != nil {
		t.Fatalf("SetAccessPolicy: %v", err)
	}
	acl, err := tc.GetAccessPolicy(ctx, nil)
	if err != nil || len(acl.SignedIdentifiers) != 1 || *acl.SignedIdentifiers[0].ID != "readers" || *acl.SignedIdentifiers[0].AccessPolicy.Permission != "r" {
		t.Fatalf("GetAccessPolicy: %+v, %v", acl, err)
	}
	if _, err := svc.NewClient("NoSuchTable").GetAccessPolicy(ctx, nil); err == nil {
		t.Error("the ACL of a missing table was answered")
	}
}

// Against tstable serve the remote backend reports what each query
// really scanned, not "unknown".
func TestRemoteBackendReadsScanned(t *testing.T) {
	s := tstabletest.NewServer(t)
	ctx := context.Background()
	b, err := remote.Open(remote.Config{ConnectionString: s.ConnectionString()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CreateTable(ctx, "Scan"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		e := &odata.Entity{PartitionKey: "p", RowKey: string(rune('a'+i%26)) + string(rune('0'+i/26))}
		e.Set("Even", odata.Bool(i%2 == 0))
		if _, err := b.Write(ctx, "Scan", backend.Operation{Kind: backend.OpInsert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := odata.ParseFilter("Even eq true")
	res, err := b.Query(ctx, "Scan", backend.QueryRequest{Query: odata.Query{Filter: f}, PageSize: 1000}, func(*odata.Entity) error { return nil })
	if err != nil || res.Scanned != 30 || res.Returned != 15 {
		t.Fatalf("query: %+v, %v; want scanned 30, returned 15", res, err)
	}
	if x := odata.Explain(res.Plan, res.Scanned, res.Returned, res.Requests); x.Scanned != 30 {
		t.Errorf("explain: %+v", x)
	}
}

// While a server holds a file, its address is beside it; after the
// server stops, or when the process named there is gone, it is not.
func TestAddressFile(t *testing.T) {
	s := tstabletest.NewServer(t)
	url, account, ok := server.ReadAddress(s.DBPath)
	if !ok || url != s.URL() || account != "devstoreaccount1" {
		t.Fatalf("ReadAddress = %q %q %v, want %q", url, account, ok, s.URL())
	}
	_, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: s.DBPath})
	if !odata.IsCode(err, odata.CodeDatabaseLocked) || !strings.Contains(err.Error(), "already served at "+s.URL()) {
		t.Errorf("a second server on the same file: %v", err)
	}
	s.Close()
	if _, _, ok := server.ReadAddress(s.DBPath); ok {
		t.Error("the address is still there after Close")
	}
}
