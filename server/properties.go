package server

import (
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// Get/Set Table Service Properties: the StorageServiceProperties document,
// its elements in the order the service writes them.

// retention is a RetentionPolicy element.
type retention struct {
	Enabled bool `xml:"Enabled"`
	Days    *int `xml:"Days,omitempty"`
}

// logging is the Logging element.
type logging struct {
	Version   string    `xml:"Version"`
	Read      bool      `xml:"Read"`
	Write     bool      `xml:"Write"`
	Delete    bool      `xml:"Delete"`
	Retention retention `xml:"RetentionPolicy"`
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
	AllowedMethods  string `xml:"AllowedMethods"`
	AllowedOrigins  string `xml:"AllowedOrigins"`
	AllowedHeaders  string `xml:"AllowedHeaders"`
	ExposedHeaders  string `xml:"ExposedHeaders"`
	MaxAgeInSeconds int    `xml:"MaxAgeInSeconds"`
}

// serviceProperties is the StorageServiceProperties document.
type serviceProperties struct {
	XMLName       xml.Name `xml:"StorageServiceProperties"`
	Logging       *logging `xml:"Logging"`
	HourMetrics   *metrics `xml:"HourMetrics"`
	MinuteMetrics *metrics `xml:"MinuteMetrics"`
	Cors          *struct {
		Rules []corsRule `xml:"CorsRule"`
	} `xml:"Cors"`
}

// Limits of the document, as the service checks them.
const (
	maxCORSRules     = 5
	maxRetentionDays = 365
)

// defaultServiceProperties is what a new account reports: nothing enabled.
func defaultServiceProperties() *serviceProperties {
	off := retention{}
	p := &serviceProperties{
		Logging:       &logging{Version: "1.0", Retention: off},
		HourMetrics:   &metrics{Version: "1.0", Retention: off},
		MinuteMetrics: &metrics{Version: "1.0", Retention: off},
	}
	p.Cors = &struct {
		Rules []corsRule `xml:"CorsRule"`
	}{}
	return p
}

// properties is the service properties as set, or the defaults.
func (s *Server) properties() *serviceProperties {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.props == nil {
		return defaultServiceProperties()
	}
	return s.props
}

// corsRules are the CORS rules set, in order.
func (s *Server) corsRules() []corsRule {
	if p := s.properties(); p.Cors != nil {
		return p.Cors.Rules
	}
	return nil
}

// serviceProperties answers GET and PUT ?restype=service&comp=properties.
func (q *request) serviceProperties() error {
	if err := q.allow(auth.OpServiceProperties, "", "", ""); err != nil {
		return err
	}
	switch q.r.Method {
	case http.MethodGet, http.MethodHead:
		doc, err := xml.Marshal(q.s.properties())
		if err != nil {
			return err
		}
		q.writeXML(http.StatusOK, doc)
		return nil
	case http.MethodPut:
		var p serviceProperties
		if err := q.readXML(&p); err != nil {
			return err
		}
		if err := p.check(); err != nil {
			return err
		}
		q.s.setProperties(&p)
		q.w.WriteHeader(http.StatusAccepted)
		return nil
	}
	return q.badVerb("service properties", "GET, PUT")
}

// setProperties replaces the elements p gives, as the service does; the
// others keep their values.
func (s *Server) setProperties(p *serviceProperties) {
	cur := *s.properties()
	s.mu.Lock()
	defer s.mu.Unlock()
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
		for i := range p.Cors.Rules {
			r := &p.Cors.Rules[i]
			r.AllowedHeaders, r.ExposedHeaders = headerList(r.AllowedHeaders), headerList(r.ExposedHeaders)
		}
		cur.Cors = p.Cors
	}
	s.props = &cur
}

// headerList writes a CORS rule's header list as the service keeps it:
// the exact names first, then the prefixes (x-ms-meta-*), each group in
// the order given.
func headerList(list string) string {
	var exact, prefixes []string
	for _, h := range strings.Split(list, ",") {
		switch h = strings.TrimSpace(h); {
		case h == "":
		case strings.HasSuffix(h, "*") && h != "*":
			prefixes = append(prefixes, h)
		default:
			exact = append(exact, h)
		}
	}
	return strings.Join(append(exact, prefixes...), ",")
}

// check refuses what the service refuses in a properties document, as it
// refuses it: 400 InvalidXmlDocument.
func (p *serviceProperties) check() error {
	if p.Cors != nil && len(p.Cors.Rules) > maxCORSRules {
		return errorf(odata.CodeInvalidXMLDocument, "at most %d CORS rules are allowed; this document has %d", maxCORSRules, len(p.Cors.Rules))
	}
	check := func(what string, r retention) error {
		if r.Enabled && (r.Days == nil || *r.Days < 1 || *r.Days > maxRetentionDays) {
			days := "none"
			if r.Days != nil {
				days = strconv.Itoa(*r.Days)
			}
			return errorf(odata.CodeInvalidXMLDocument, "%s keeps data for 1 to %d days when enabled; this document says %s", what, maxRetentionDays, days)
		}
		return nil
	}
	if p.Logging != nil {
		if err := check("Logging's RetentionPolicy", p.Logging.Retention); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		name string
		m    *metrics
	}{{"HourMetrics", p.HourMetrics}, {"MinuteMetrics", p.MinuteMetrics}} {
		if m.m != nil {
			if err := check(m.name+"'s RetentionPolicy", m.m.Retention); err != nil {
				return err
			}
		}
	}
	return nil
}
