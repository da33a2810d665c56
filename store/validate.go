package store

import "github.com/tstable/tstable/odata"

// withoutTimestamp drops a user-supplied Timestamp property: the store sets it.
func withoutTimestamp(e *odata.Entity) *odata.Entity {
	for _, p := range e.Properties {
		if p.Name == odata.Timestamp {
			c := e.Clone()
			c.Delete(odata.Timestamp)
			return c
		}
	}
	return e
}
