package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"syscall"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Backend is a backend.Backend over the table service.
type Backend struct {
	svc      *aztables.ServiceClient
	endpoint string
	account  string
	parallel int
	served   bool // tstable serve: paging by the store's keys (Config.Served)
}

var _ backend.Backend = (*Backend)(nil)

// Open connects to the account cfg names. It does not send a request:
// a wrong key or an unreachable endpoint shows at the first command
// (tstable status checks both).
func Open(cfg Config) (*Backend, error) {
	account, endpoint, err := cfg.Where()
	if err != nil {
		return nil, err
	}
	transport := cfg.Transport
	if transport == nil && cfg.TrustCertFile != "" {
		if transport, err = trustingClient(cfg.TrustCertFile); err != nil {
			return nil, err
		}
	}
	retries := cfg.MaxRetries
	if retries == 0 {
		retries = 5
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Retry: policy.RetryOptions{
			MaxRetries:    retries,
			RetryDelay:    200 * time.Millisecond,
			MaxRetryDelay: 10 * time.Second,
			// 429 and 503 are the service's "slow down"; 500, 502, 504 and
			// 408 are transient too. An endpoint that refuses connections or
			// does not resolve is not retried: it is down or mistyped, and
			// waiting ten seconds to say so helps nobody.
			ShouldRetry: shouldRetry,
		},
		PerCallPolicies: []policy.Policy{rawBodyPolicy{}},
		Transport:       transport,
	}}
	var svc *aztables.ServiceClient
	switch {
	case cfg.ConnectionString != "":
		cs := cfg.ConnectionString
		if parts, _ := connectionParts(cs); parts != nil && parts["UseDevelopmentStorage"] == "true" {
			cs = azuriteConnectionString
		}
		svc, err = aztables.NewServiceClientFromConnectionString(cs, opts)
	default:
		var cred *azidentity.DefaultAzureCredential
		cred, err = azidentity.NewDefaultAzureCredential(nil)
		if err == nil {
			svc, err = aztables.NewServiceClient(endpoint, cred, opts)
		}
	}
	if err != nil {
		return nil, odata.Errorf(odata.CodeInvalidInput, "cannot use the connection: %s", Scrub(err.Error()))
	}
	par := cfg.Parallel
	if par <= 0 {
		par = 8
	}
	return &Backend{svc: svc, endpoint: endpoint, account: account, parallel: par, served: cfg.Served}, nil
}

// Describe implements backend.Backend: "remote ACCOUNT (ENDPOINT)".
func (b *Backend) Describe() string { return "remote " + b.account + " (" + b.endpoint + ")" }

// Account is the account's name.
func (b *Backend) Account() string { return b.account }

// Close implements backend.Backend; there is nothing to release.
func (b *Backend) Close() error { return nil }

// CreateTable implements backend.Backend.
func (b *Backend) CreateTable(ctx context.Context, name string) error {
	if err := odata.ValidateTableName(name); err != nil {
		return err
	}
	_, err := b.svc.CreateTable(ctx, name, nil)
	return mapError(err, name, nil)
}

// DeleteTable implements backend.Backend.
func (b *Backend) DeleteTable(ctx context.Context, name string) error {
	_, err := b.svc.DeleteTable(ctx, name, nil)
	return mapError(err, name, nil)
}

// ListTables implements backend.Backend.
func (b *Backend) ListTables(ctx context.Context) ([]string, error) {
	var names []string
	pager := b.svc.NewListTablesPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, mapError(err, "", nil)
		}
		for _, t := range page.Tables {
			if t.Name != nil {
				names = append(names, *t.Name)
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// Get implements backend.Backend.
func (b *Backend) Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error) {
	ctx, sink := withBodySink(ctx)
	resp, err := b.svc.NewClient(table).GetEntity(ctx, pk, rk, &aztables.GetEntityOptions{Format: to.Ptr(aztables.MetadataFormatFull)})
	if err != nil {
		return nil, mapError(err, table, &odata.Key{PartitionKey: pk, RowKey: rk})
	}
	if sink.body != nil {
		return decodeEntity(sink.body)
	}
	return decodeEntity(resp.Value)
}

// Write implements backend.Backend.
func (b *Backend) Write(ctx context.Context, table string, op backend.Operation) (*odata.Entity, error) {
	if op.Entity == nil {
		return nil, odata.Errorf(odata.CodeInvalidInput, "the %s operation has no entity", op.Kind)
	}
	e := op.Entity
	key := &odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	if op.Kind != backend.OpDelete {
		if err := odata.ValidateEntity(withoutTimestamp(e)); err != nil {
			return nil, err
		}
	}
	c := b.svc.NewClient(table)
	body := encodeEntity(e)
	ifMatch := etagOf(op.IfMatch)
	var err error
	switch op.Kind {
	case backend.OpInsert:
		_, err = c.AddEntity(ctx, body, nil)
	case backend.OpReplace, backend.OpMerge:
		mode := aztables.UpdateModeReplace
		if op.Kind == backend.OpMerge {
			mode = aztables.UpdateModeMerge
		}
		_, err = c.UpdateEntity(ctx, body, &aztables.UpdateEntityOptions{IfMatch: &ifMatch, UpdateMode: mode})
	case backend.OpInsertOrReplace, backend.OpInsertOrMerge:
		mode := aztables.UpdateModeReplace
		if op.Kind == backend.OpInsertOrMerge {
			mode = aztables.UpdateModeMerge
		}
		_, err = c.UpsertEntity(ctx, body, &aztables.UpsertEntityOptions{UpdateMode: mode})
	case backend.OpDelete:
		_, err = c.DeleteEntity(ctx, e.PartitionKey, e.RowKey, &aztables.DeleteEntityOptions{IfMatch: &ifMatch})
		if err != nil {
			return nil, mapError(err, table, key)
		}
		return &odata.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey}, nil
	default:
		return nil, odata.Errorf(odata.CodeInvalidInput, "unknown operation %d", op.Kind)
	}
	if err != nil {
		return nil, mapError(err, table, key)
	}
	// The service answers a write with the new ETag only; read the entity
	// back for its Timestamp and, after a merge, its whole set of
	// properties.
	return b.Get(ctx, table, e.PartitionKey, e.RowKey)
}

func etagOf(ifMatch string) azcore.ETag {
	if ifMatch == "" {
		return azcore.ETagAny
	}
	return azcore.ETag(ifMatch)
}

// withoutTimestamp drops a Timestamp property given by the caller: the
// service sets it.
func withoutTimestamp(e *odata.Entity) *odata.Entity {
	if _, ok := e.Get(odata.Timestamp); !ok {
		return e
	}
	c := e.Clone()
	c.Delete(odata.Timestamp)
	return c
}

func describeKey(k *odata.Key) string {
	if k == nil {
		return ""
	}
	return fmt.Sprintf("(%q, %q)", k.PartitionKey, k.RowKey)
}

// retryStatus reports whether an answer is worth another try.
func retryStatus(code int) bool {
	switch code {
	case 408, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// shouldRetry decides for the SDK's retry policy: the statuses above, and
// transport errors other than a refused connection or an unknown host.
func shouldRetry(resp *http.Response, err error) bool {
	if err != nil {
		var dns *net.DNSError
		return !errors.Is(err, syscall.ECONNREFUSED) && !errors.As(err, &dns)
	}
	return retryStatus(resp.StatusCode)
}
