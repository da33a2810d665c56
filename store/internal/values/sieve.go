package values

import (
	"bytes"

	"github.com/tstable/tstable/odata"
)

// TextSieve passes over, before the filter reads any property, the
// entities whose stored value lacks a text the filter requires
// (odata.Filter.TextsRequired): a string property equal to "Cao" holds the
// bytes of "Cao" in the value, so a value without them cannot match. A
// search for a few bytes in a value costs less than finding and comparing
// the property; most filtered scans throw most entities away.
type textSieve [][]byte

// NewTextSieve is the sieve of filter f on values of codec c: none (nil,
// which passes everything) unless the file's format stores every string
// as its bytes, as formats 2 and 3 do (appendPayload2). A format that
// stores strings otherwise must leave it out here
// (TestTextSieveLosesNoMatch fails until it does).
func NewTextSieve(c *Codec, f *odata.Filter) textSieve {
	if c == nil || c.L < 2 || c.L > 3 {
		return nil
	}
	var s textSieve
	for _, t := range f.TextsRequired() {
		s = append(s, []byte(t))
	}
	return s
}

// Rejects reports whether val lacks one of the texts, so that the filter
// cannot match its entity.
func (s textSieve) Rejects(val []byte) bool {
	for _, t := range s {
		if !bytes.Contains(val, t) {
			return true
		}
	}
	return false
}
