package server

import (
	"net/url"
	"strings"
	"testing"
)

// queryValue answers as url.ParseQuery(raw).Get(name) does.
func FuzzQueryValue(f *testing.F) {
	for _, raw := range []string{"", "$format=json", "a=1&$format=application%2Fjson%3Bodata%3Dnometadata&$format=x",
		"%24format=json", "$format=a;b", "$format=%zz&$format=ok", "&&comp=acl&", "comp", "comp=", "restype=service&comp=properties",
		"a+b=c+d", "$select=Name,N", strings.Repeat("x=1&", 120) + "comp=acl"} {
		for _, name := range []string{"$format", "comp", "restype", "$select", "a b"} {
			f.Add(raw, name)
		}
	}
	f.Fuzz(func(t *testing.T, raw, name string) {
		vals, _ := url.ParseQuery(raw)
		if got, want := queryValue(raw, name), vals.Get(name); got != want {
			t.Errorf("queryValue(%q, %q) = %q, ParseQuery gives %q", raw, name, got, want)
		}
	})
}
