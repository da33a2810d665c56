package tstabletest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/tstabletest"
)

// An application written for Microsoft Entra ID builds its client from an
// account URL and a TokenCredential; its test does the same against
// NewTLSServer: tables, entities and queries work over HTTPS.
func TestTokenCredentialOverHTTPS(t *testing.T) {
	s := tstabletest.NewTLSServer(t)
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") {
		t.Fatalf("URL %s", s.URL())
	}
	client, err := aztables.NewServiceClient(s.URL(), s.Credential(), s.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := client.CreateTable(ctx, "Orders", nil); err != nil {
		t.Fatal(err)
	}
	orders := client.NewClient("Orders")
	for i, status := range []string{"open", "shipped", "open"} {
		e, _ := json.Marshal(aztables.EDMEntity{
			Entity:     aztables.Entity{PartitionKey: "customer-1", RowKey: "order-000" + string(rune('1'+i))},
			Properties: map[string]any{"Status": status},
		})
		if _, err := orders.AddEntity(ctx, e, nil); err != nil {
			t.Fatal(err)
		}
	}
	filter := "Status eq 'open'"
	pager := orders.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &filter})
	n := 0
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Entities)
	}
	if n != 2 {
		t.Errorf("%d open orders, want 2", n)
	}
	if _, err := orders.GetEntity(ctx, "customer-1", "order-0002", nil); err != nil {
		t.Errorf("GetEntity: %v", err)
	}
}

// Tokens the service would refuse are refused with its answer: expired,
// for another audience. (The Go SDK sends version 2019-02-02, answered
// 403 AuthenticationFailed.)
func TestRefusedTokens(t *testing.T) {
	s := tstabletest.NewTLSServer(t)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		cred   tstabletest.TokenCredential
		detail string
	}{
		{"expired", tstabletest.TokenCredential{Lifetime: -10 * time.Minute}, "The token is expired"},
		{"another audience", tstabletest.TokenCredential{Audience: "https://vault.azure.net"}, "Audience did not match"},
	} {
		client, err := aztables.NewServiceClient(s.URL(), c.cred, s.ClientOptions())
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.CreateTable(ctx, "Orders", nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden || re.ErrorCode != "AuthenticationFailed" || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// The account key and SAS work over HTTPS as they do over HTTP.
func TestKeyAndSASOverHTTPS(t *testing.T) {
	s := tstabletest.NewTLSServer(t)
	ctx := context.Background()
	if !strings.HasPrefix(s.ConnectionString(), "DefaultEndpointsProtocol=https;") {
		t.Errorf("connection string %s", s.ConnectionString())
	}
	keyed, err := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), s.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keyed.CreateTable(ctx, "Orders", nil); err != nil {
		t.Fatalf("shared key over HTTPS: %v", err)
	}
	sasURL, err := keyed.GetAccountSASURL(aztables.AccountSASResourceTypes{Object: true}, aztables.AccountSASPermissions{Read: true, Add: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := aztables.NewServiceClientWithNoCredential(sasURL, s.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NewClient("Orders").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
		t.Errorf("account SAS over HTTPS: %v", err)
	}
	if resp, err := s.Client().Get(s.URL() + "/Tables"); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("an anonymous request through Client: %v %v", resp, err)
	}
}
