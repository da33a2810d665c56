package remote

import (
	"encoding/json"
	"time"

	"github.com/tstable/tstable/odata"
)

// encodeEntity writes e in the service's JSON, every non-default type
// annotated, without Timestamp (the service sets it).
func encodeEntity(e *odata.Entity) []byte {
	return odata.AppendEntityJSON(nil, withoutTimestamp(e.Unversioned()))
}

// decodeEntity reads an entity as the SDK hands it over (the service's
// JSON, re-encoded), with its Timestamp and the service's own ETag: an
// If-Match must carry that text, which Azurite compares exactly.
func decodeEntity(data []byte) (*odata.Entity, error) {
	e, err := odata.DecodeEntityJSON(data)
	if err != nil {
		return nil, odata.Errorf(odata.CodeInternalError, "the service sent an entity tstable cannot read: %v", err)
	}
	var meta struct {
		Timestamp string `json:"Timestamp"`
		ETag      string `json:"odata.etag"`
	}
	if json.Unmarshal(data, &meta) != nil {
		return e, nil
	}
	if ts, err := time.Parse(time.RFC3339Nano, meta.Timestamp); err == nil {
		e.Timestamp = ts.UTC()
	}
	e.GivenETag = meta.ETag
	return e, nil
}
