package odata

import (
	"math"
	"strconv"
	"strings"
)

// Explanation is what tstable tells a user about a query it ran: the class,
// what was read, how much was scanned and returned, and the design advice.
// It is also the JSON shape of "explain -o json".
type Explanation struct {
	Class    QueryClass `json:"class"`             // point | range | partition-scan | table-scan
	Ranges   []string   `json:"ranges"`            // KeyRange.String of each range read
	Scanned  int64      `json:"scanned"`           // entities read; -1 when unknown (remote)
	Returned int64      `json:"returned"`          // entities returned
	Pages    int        `json:"pages"`             // pages (requests) it took
	Density  float64    `json:"density,omitempty"` // returned/scanned; omitted when unknown (see MarshalJSON)
	// Diagnosis is the stable id of why the class is what it is
	// (diagnosis.go): scripts match on it, not on Reason's words.
	Diagnosis Diagnosis `json:"diagnosis"`
	Reason    string    `json:"reason"` // why the class is what it is
	Advice    string    `json:"advice"` // what a table designer could do
}

// The headers in which tstable serve explains a query to its client: its
// class, how many entities the store read to answer it, and how many it
// returned. The server writes them; the remote backend reads them.
const (
	HeaderQueryClass = "x-tstable-query-class"
	HeaderScanned    = "x-tstable-scanned"
	HeaderReturned   = "x-tstable-returned"
)

// Explain builds the explanation of a plan that scanned and returned the
// given numbers of entities in the given number of pages. Pass scanned -1
// when the count is unknown (the service does not report it); Density is
// then left zero, as it is when nothing was scanned.
func Explain(p *Plan, scanned, returned int64, pages int) *Explanation {
	if p == nil {
		p = PlanQuery(nil)
	}
	x := &Explanation{
		Class:     p.Class,
		Ranges:    []string{},
		Scanned:   scanned,
		Returned:  returned,
		Pages:     pages,
		Diagnosis: p.Diagnosis,
	}
	x.Reason, x.Advice = p.words()
	for _, r := range p.Ranges {
		x.Ranges = append(x.Ranges, r.String())
	}
	if scanned < 0 {
		x.Scanned = -1
	} else if scanned > 0 {
		x.Density = float64(returned) / float64(scanned)
	}
	return x
}

// Text renders the explanation as a short block for people, e.g.
//
//	range query · read PartitionKey = 'Sales', RowKey in ['S', 'T') · scanned 12, returned 12 (density 100%) · 1 page
//	why: PartitionKey is fixed by eq and RowKey is bounded, …
//	advice: Good shape: …
func (x *Explanation) Text() string {
	var b strings.Builder
	b.WriteString(x.Class.Text())
	b.WriteString(" · read ")
	if len(x.Ranges) == 0 {
		b.WriteString("nothing")
	} else {
		b.WriteString(strings.Join(x.Ranges, "; "))
	}
	b.WriteString(" · ")
	if x.Scanned < 0 {
		b.WriteString("scanned unknown (the service does not report it), returned " + strconv.FormatInt(x.Returned, 10))
	} else {
		b.WriteString("scanned " + strconv.FormatInt(x.Scanned, 10) + ", returned " + strconv.FormatInt(x.Returned, 10))
		if x.Scanned > 0 {
			b.WriteString(" (density " + percent(x.Density) + ")")
		}
	}
	b.WriteString(" · " + strconv.Itoa(x.Pages) + " page")
	if x.Pages != 1 {
		b.WriteString("s")
	}
	b.WriteString("\n")
	if x.Reason != "" {
		b.WriteString("why: " + x.Reason + "\n")
	}
	if x.Advice != "" {
		b.WriteString("advice: " + x.Advice + "\n")
	}
	return b.String()
}

// percent renders a ratio as a percentage: whole numbers from 1% up, one
// significant digit below (a table scan that finds a few rows shows 0.05%).
func percent(d float64) string {
	p := d * 100
	switch {
	case p == 0:
		return "0%"
	case p >= 1:
		return strconv.FormatFloat(math.Floor(p), 'f', 0, 64) + "%" // 99.6% is not 100%
	case p < 0.0001:
		return "<0.0001%"
	}
	decimals := int(math.Ceil(-math.Log10(p)))
	return strconv.FormatFloat(p, 'f', decimals, 64) + "%"
}

// MarshalJSON writes the explanation with its JSON tags, and writes density
// whenever it is known (something was scanned and the count is known), so a
// density of 0 — nothing returned — is not mistaken for an unknown one.
func (x Explanation) MarshalJSON() ([]byte, error) {
	type plain Explanation // no methods: no recursion
	p := plain(x)
	out := struct {
		*plain
		Density *float64 `json:"density,omitempty"`
	}{plain: &p}
	if x.Scanned > 0 {
		d := x.Density
		out.Density = &d
	}
	return MarshalJSON(out)
}
