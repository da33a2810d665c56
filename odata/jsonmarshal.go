package odata

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON is json.Marshal as the service writes JSON: <, > and & are
// written as they are, not as \u003c, \u003e and \u0026 (which
// encoding/json writes by default, for JSON embedded in HTML). Every JSON
// document tstable writes that is not an entity (reports, explanations,
// error bodies, logs) goes through it; entities go through
// AppendEntityJSON, which writes them the same way.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
