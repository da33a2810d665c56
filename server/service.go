package server

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// The service's XML operations: Get/Set Table Service Properties
// (properties.go), Get Table Service Stats (here) and Get/Set Table ACL
// (acl.go). tstable keeps what clients set for as long as the server runs
// and answers it back in the service's shapes and element order; the CORS
// rules set are the ones CORS requests are answered by, and a table's
// stored access policies the ones a SAS naming them (si=) is checked
// against. Logging and metrics settings are kept and reported, not acted
// on: there is no log or metric to write.

// writeXML answers status with an XML document.
func (q *request) writeXML(status int, doc []byte) {
	q.w.Header().Set("Content-Type", "application/xml")
	q.w.WriteHeader(status)
	if q.r.Method != http.MethodHead {
		q.w.Write([]byte(xml.Header))
		q.w.Write(doc)
	}
}

// readXML reads and checks an XML request body into v; an empty body is
// an empty document.
func (q *request) readXML(v any) error {
	body, err := readLimited(q.r.Body, 1<<20)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := xml.Unmarshal(body, v); err != nil {
		return errorf(odata.CodeInvalidXMLDocument, "the XML body cannot be read: %v", err)
	}
	return nil
}

// serviceStats answers GET ?restype=service&comp=stats on the secondary
// endpoint (ACCOUNT-secondary): a live replica, synchronized now (there is
// only one copy, always current). The service answers it on the secondary
// location only; on the primary it is refused.
func (q *request) serviceStats(secondary bool) error {
	if err := q.allow(auth.OpServiceProperties, "", "", ""); err != nil {
		return err
	}
	if q.r.Method != http.MethodGet && q.r.Method != http.MethodHead {
		return q.badVerb("service stats", "GET")
	}
	if !secondary {
		return errorf(odata.CodeInvalidQueryParameterValue,
			"service statistics are answered on the secondary endpoint only, as the service answers them: use /%s-secondary/?restype=service&comp=stats", q.s.account)
	}
	doc := `<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>` +
		time.Now().UTC().Format(http.TimeFormat) + `</LastSyncTime></GeoReplication></StorageServiceStats>`
	q.writeXML(http.StatusOK, []byte(doc))
	return nil
}
