package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// The SDK hands entities over re-encoded from a map, which turns a Double
// such as 3.0 into 3 (read back as an Int32) and loses the service's
// property order. rawBody keeps the service's own response body for the
// calls that read entities, so they are decoded exactly as sent.

type bodyKey struct{}

// bodySink receives the body and headers of the response to a request
// whose context carries it.
type bodySink struct {
	body   []byte
	header http.Header
}

func withBodySink(ctx context.Context) (context.Context, *bodySink) {
	s := &bodySink{}
	return context.WithValue(ctx, bodyKey{}, s), s
}

// rawBodyPolicy copies the response body into the request's bodySink.
type rawBodyPolicy struct{}

func (rawBodyPolicy) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if err != nil || resp == nil || resp.StatusCode >= 300 {
		return resp, err
	}
	sink, ok := req.Raw().Context().Value(bodyKey{}).(*bodySink)
	if !ok {
		return resp, err
	}
	body, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr != nil {
		return nil, rerr
	}
	sink.body = body
	sink.header = resp.Header
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// queryValues splits a query response body into its entities.
func queryValues(body []byte) ([]json.RawMessage, error) {
	var doc struct {
		Value []json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	return doc.Value, nil
}
