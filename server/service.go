package server

import (
	"encoding/xml"
	"net/http"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
)

// The service's XML operations: Get/Set Table Service Properties, Get
// Table Service Stats and Get/Set Table ACL. tstable has no logging,
// metrics or CORS of its own to configure and no replica to report, so it
// keeps what clients set (for as long as the server runs) and answers it
// back in the service's shapes, which is what SDKs and Storage Explorer need.

// retention is a RetentionPolicy element.
type retention struct {
	Enabled bool `xml:"Enabled"`
	Days    *int `xml:"Days,omitempty"`
}

// metrics is an HourMetrics or MinuteMetrics element.
type metrics struct {
	Version     string    `xml:"Version"`
	Enabled     bool      `xml:"Enabled"`
	IncludeAPIs *bool     `xml:"IncludeAPIs,omitempty"`
	Retention   retention `xml:"RetentionPolicy"`
}

// corsRule is one CorsRule element.
type corsRule struct {
	AllowedOrigins  string `xml:"AllowedOrigins"`
	AllowedMethods  string `xml:"AllowedMethods"`
	AllowedHeaders  string `xml:"AllowedHeaders"`
	ExposedHeaders  string `xml:"ExposedHeaders"`
	MaxAgeInSeconds int    `xml:"MaxAgeInSeconds"`
}

// serviceProperties is the StorageServiceProperties document.
type serviceProperties struct {
	XMLName xml.Name `xml:"StorageServiceProperties"`
	Logging *struct {
		Version   string    `xml:"Version"`
		Delete    bool      `xml:"Delete"`
		Read      bool      `xml:"Read"`
		Write     bool      `xml:"Write"`
		Retention retention `xml:"RetentionPolicy"`
	} `xml:"Logging"`
	HourMetrics   *metrics `xml:"HourMetrics"`
	MinuteMetrics *metrics `xml:"MinuteMetrics"`
	Cors          *struct {
		Rules []corsRule `xml:"CorsRule"`
	} `xml:"Cors"`
}

// defaultServiceProperties is what a new account reports: nothing enabled.
const defaultServiceProperties = `<StorageServiceProperties>` +
	`<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>` +
	`<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>` +
	`<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>` +
	`<Cors></Cors></StorageServiceProperties>`

// writeXML answers status with an XML document.
func (q *request) writeXML(status int, doc []byte) {
	q.w.Header().Set("Content-Type", "application/xml")
	q.w.WriteHeader(status)
	if q.r.Method != http.MethodHead {
		q.w.Write([]byte(xml.Header))
		q.w.Write(doc)
	}
}

// readXML reads and checks an XML request body into v.
func (q *request) readXML(v any) ([]byte, error) {
	body, err := readLimited(q.r.Body, 1<<20)
	if err != nil {
		return nil, err
	}
	if err := xml.Unmarshal(body, v); err != nil {
		return nil, errorf(odata.CodeInvalidXMLDocument, "the XML body cannot be read: %v", err)
	}
	return body, nil
}

// serviceProperties answers GET and PUT ?restype=service&comp=properties.
func (q *request) serviceProperties() error {
	if err := q.allow(auth.OpServiceProperties, "", "", ""); err != nil {
		return err
	}
	switch q.r.Method {
	case http.MethodGet, http.MethodHead:
		q.s.mu.Lock()
		doc := q.s.props
		q.s.mu.Unlock()
		if doc == nil {
			doc = []byte(defaultServiceProperties)
		}
		q.writeXML(http.StatusOK, doc)
		return nil
	case http.MethodPut:
		var p serviceProperties
		if _, err := q.readXML(&p); err != nil {
			return err
		}
		if p.Cors != nil && len(p.Cors.Rules) > 5 {
			return errorf(odata.CodeInvalidXMLDocument, "at most 5 CORS rules are allowed; this document has %d", len(p.Cors.Rules))
		}
		q.s.mu.Lock()
		var cur serviceProperties
		xml.Unmarshal(orDefault(q.s.props), &cur)
		// A Set replaces only the elements it gives, as the service does.
		if p.Logging != nil {
			cur.Logging = p.Logging
		}
		if p.HourMetrics != nil {
			cur.HourMetrics = p.HourMetrics
		}
		if p.MinuteMetrics != nil {
			cur.MinuteMetrics = p.MinuteMetrics
		}
		if p.Cors != nil {
			cur.Cors = p.Cors
		}
		doc, err := xml.Marshal(cur)
		if err == nil {
			q.s.props = doc
		}
		q.s.mu.Unlock()
		if err != nil {
			return err
		}
		q.w.WriteHeader(http.StatusAccepted)
		return nil
	}
	return q.badVerb("service properties", "GET, PUT")
}

func orDefault(doc []byte) []byte {
	if doc == nil {
		return []byte(defaultServiceProperties)
	}
	return doc
}

// serviceStats answers GET ?restype=service&comp=stats: a live replica,
// synchronized now (there is only one copy, always current).
func (q *request) serviceStats() error {
	if err := q.allow(auth.OpServiceProperties, "", "", ""); err != nil {
		return err
	}
	if q.r.Method != http.MethodGet && q.r.Method != http.MethodHead {
		return q.badVerb("service stats", "GET")
	}
	doc := `<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>` +
		time.Now().UTC().Format(http.TimeFormat) + `</LastSyncTime></GeoReplication></StorageServiceStats>`
	q.writeXML(http.StatusOK, []byte(doc))
	return nil
}

// signedIdentifiers is a table's stored access policies.
type signedIdentifiers struct {
	XMLName     xml.Name `xml:"SignedIdentifiers"`
	Identifiers []struct {
		ID     string `xml:"Id"`
		Policy *struct {
			Start      string `xml:"Start,omitempty"`
			Expiry     string `xml:"Expiry,omitempty"`
			Permission string `xml:"Permission,omitempty"`
		} `xml:"AccessPolicy"`
	} `xml:"SignedIdentifier"`
}

// tableACL answers GET and PUT /T?comp=acl.
func (q *request) tableACL(table string) error {
	op := auth.OpRead
	if q.r.Method == http.MethodPut {
		op = auth.OpServiceProperties
	}
	if err := q.allow(op, table, "", ""); err != nil {
		return err
	}
	// The table must exist: read at most one entity of it.
	if _, err := q.s.b.Query(q.r.Context(), table, store.QueryRequest{PageSize: 1}, func(*odata.Entity) error { return nil }); err != nil {
		return err
	}
	key := strings.ToLower(table)
	switch q.r.Method {
	case http.MethodGet, http.MethodHead:
		q.s.mu.Lock()
		doc := q.s.acls[key]
		q.s.mu.Unlock()
		if doc == nil {
			doc = []byte("<SignedIdentifiers></SignedIdentifiers>")
		}
		q.writeXML(http.StatusOK, doc)
		return nil
	case http.MethodPut:
		var ids signedIdentifiers
		body, err := readLimited(q.r.Body, 1<<20)
		if err != nil {
			return err
		}
		if len(strings.TrimSpace(string(body))) > 0 {
			if err := xml.Unmarshal(body, &ids); err != nil {
				return errorf(odata.CodeInvalidXMLDocument, "the XML body cannot be read: %v", err)
			}
		}
		if len(ids.Identifiers) > 5 {
			return errorf(odata.CodeInvalidXMLDocument, "a table holds at most 5 stored access policies; this document has %d", len(ids.Identifiers))
		}
		for _, id := range ids.Identifiers {
			if id.ID == "" || len(id.ID) > 64 {
				return errorf(odata.CodeInvalidXMLDocument, "a signed identifier's Id must be 1 to 64 characters; %q is not", id.ID)
			}
		}
		doc, err := xml.Marshal(ids)
		if err != nil {
			return err
		}
		q.s.mu.Lock()
		q.s.acls[key] = doc
		q.s.mu.Unlock()
		q.w.WriteHeader(http.StatusNoContent)
		return nil
	}
	return q.badVerb("a table's ACL", "GET, PUT")
}
