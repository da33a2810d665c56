package server

import "testing"

// A header's value is written on one line, its line breaks made spaces as
// http.Header.Write makes them, from a string or from bytes alike; an
// empty value is left out.
func TestAppendHeader(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"http://h/a/T(PartitionKey='p',RowKey='r')", "Location: http://h/a/T(PartitionKey='p',RowKey='r')\r\n"},
		{"a\r\nb\nc\rd", "Location: a  b c d\r\n"},
		{"", ""},
	} {
		if got := string(appendHeader([]byte("x"), "Location", tc.value)); got != "x"+tc.want {
			t.Errorf("%q: %q, want %q", tc.value, got, "x"+tc.want)
		}
		if got := string(appendHeader([]byte("x"), "Location", []byte(tc.value))); got != "x"+tc.want {
			t.Errorf("%q as bytes: %q, want %q", tc.value, got, "x"+tc.want)
		}
	}
}
