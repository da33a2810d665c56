package remote

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Query implements backend.Backend. The filter is sent as tstable writes it
// (the same language); the plan comes from tstable's planner, since the
// service does not say what it read. Scanned is -1 (unknown), except
// against tstable serve, whose responses say how many entities each page
// scanned (the x-tstable-scanned header): then it is their sum. Next
// carries the service's own NextPartitionKey and NextRowKey, which the
// command line wraps in its opaque token; a later call passes them back
// as Start. Against tstable serve (Config.Served), Next and Start are the
// store's keys instead, translated from and into its headers.
func (b *Backend) Query(ctx context.Context, table string, req backend.QueryRequest, fn func(*odata.Entity) error) (*backend.QueryResult, error) {
	if req.PageSize < 0 || req.PageSize > odata.MaxTop {
		return nil, odata.Errorf(odata.CodeInvalidInput, "page size %d is out of range: use 1 to 1000", req.PageSize)
	}
	res := &backend.QueryResult{Plan: odata.PlanQuery(req.Query.Filter), Scanned: -1}
	limit := req.PageSize
	if t := req.Query.Top; t > 0 && (limit == 0 || t < limit) {
		limit = t
	}
	opts := &aztables.ListEntitiesOptions{Format: to.Ptr(aztables.MetadataFormatFull)}
	if req.Query.Filter != nil {
		opts.Filter = to.Ptr(req.Query.Filter.String())
	}
	if len(req.Query.Select) > 0 {
		// The keys and Timestamp come back whatever is selected, as the
		// local store returns them.
		sel := append([]string{odata.PartitionKey, odata.RowKey, odata.Timestamp}, req.Query.Select...)
		opts.Select = to.Ptr(strings.Join(sel, ","))
	}
	if req.Start != nil {
		next := b.nextHeaders(*req.Start)
		opts.NextPartitionKey, opts.NextRowKey = &next.PartitionKey, &next.RowKey
	}
	c := b.svc.NewClient(table)
	var scanned int64
	known := true
	defer func() {
		if known {
			res.Scanned = scanned
		}
	}()
	for {
		top := odata.MaxTop
		if limit > 0 {
			top = min(top, limit-int(res.Returned))
		}
		opts.Top = to.Ptr(int32(top))
		pager := c.NewListEntitiesPager(opts)
		pctx, sink := withBodySink(ctx)
		page, err := pager.NextPage(pctx)
		res.Requests++
		if err != nil {
			return nil, mapError(err, table, nil)
		}
		raws := page.Entities
		if n, ok := scannedOf(sink.header); ok {
			scanned += n
		} else {
			known = false
		}
		if sink.body != nil {
			values, err := queryValues(sink.body)
			if err != nil {
				return nil, odata.Errorf(odata.CodeInternalError, "the service sent a page tstable cannot read: %v", err)
			}
			raws = raws[:0]
			for _, v := range values {
				raws = append(raws, v)
			}
		}
		for _, raw := range raws {
			e, err := decodeEntity(raw)
			if err != nil {
				return nil, err
			}
			res.Returned++
			if err := fn(odata.Project(e, req.Query.Select)); err != nil {
				return res, err
			}
		}
		more := page.NextPartitionKey != nil && *page.NextPartitionKey != ""
		if !more {
			res.Next = nil
			return res, nil
		}
		next := &odata.Key{PartitionKey: *page.NextPartitionKey}
		if page.NextRowKey != nil {
			next.RowKey = *page.NextRowKey
		}
		if limit > 0 && int(res.Returned) >= limit {
			res.Next = b.nextKey(*next)
			return res, nil
		}
		opts.NextPartitionKey, opts.NextRowKey = &next.PartitionKey, &next.RowKey
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
}

// scannedOf reads how many entities a page scanned, from tstable serve's
// x-tstable-scanned header; ok is false when the response has none.
func scannedOf(h http.Header) (int64, bool) {
	v := h.Get(odata.HeaderScanned)
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n >= 0
}

// nextHeaders is what to send as NextPartitionKey and NextRowKey to resume
// at k: k itself (the service's own values, given back), or against
// tstable serve the store's key k as the server writes keys.
func (b *Backend) nextHeaders(k odata.Key) odata.Key {
	if !b.served {
		return k
	}
	return odata.Key{PartitionKey: odata.EncodeNextKey(k.PartitionKey), RowKey: odata.EncodeNextKey(k.RowKey)}
}

// nextKey is the Next of a result from the service's continuation
// headers: as they are, or against tstable serve the store's key they
// carry (as they are if the server did not write them).
func (b *Backend) nextKey(h odata.Key) *odata.Key {
	if !b.served {
		return &h
	}
	pk, ok := odata.DecodeNextKey(h.PartitionKey)
	rk, ok2 := odata.DecodeNextKey(h.RowKey)
	if !ok || (!ok2 && h.RowKey != "") {
		return &h
	}
	return &odata.Key{PartitionKey: pk, RowKey: rk}
}
