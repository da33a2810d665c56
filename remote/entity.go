package remote

import (
	"encoding/json"
	"time"

	"github.com/tstable/tstable/odata"
)

// encodeEntity writes e in the service's JSON, every non-default type
// annotated, without Timestamp (the service sets it).
func encodeEntity(e *odata.Entity) []byte {
	c := *e
	c.Timestamp = time.Time{}
	return odata.AppendEntityJSON(nil, withoutTimestamp(&c))
}

// decodeEntity reads an entity as the SDK hands it over (the service's
// JSON, re-encoded), with its Timestamp.
func decodeEntity(data []byte) (*odata.Entity, error) {
	e, err := odata.DecodeEntityJSON(data)
	if err != nil {
		return nil, odata.Errorf(odata.CodeInternalError, "the service sent an entity tstable cannot read: %v", err)
	}
	var meta struct {
		Timestamp string `json:"Timestamp"`
	}
	if json.Unmarshal(data, &meta) == nil && meta.Timestamp != "" {
		if ts, err := time.Parse(time.RFC3339Nano, meta.Timestamp); err == nil {
			e.Timestamp = ts.UTC()
		}
	}
	return e, nil
}
