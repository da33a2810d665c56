package boltfile

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// pageNumber finds the page a panic of the engine names: its assertion
// "Page expected to be: 16, but self identifies as …", "invalid page
// type: 37: 8", "page 37: has unexpected type/flags: 8".
var pageNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)page(?: expected to be:| type:)? ?(\d+)`)
})

// DescribePanic says, for people, what a panic while the engine reads the
// file means: a page that cannot be read (a fault reading the memory map:
// the file is shorter than its pages say), or one that does not hold what
// the engine expects (its assertions, and the index errors of a page
// whose entries point outside it). It names the page when the panic does.
func DescribePanic(r any) string {
	if f, ok := r.(interface{ Addr() uintptr }); ok {
		if _, rt := r.(runtime.Error); rt && f.Addr() != 0 {
			return "a page it refers to cannot be read (the file is shorter than its pages say, or the disk fails to read it)"
		}
	}
	msg := fmt.Sprint(r)
	page := ""
	if m := pageNumber().FindStringSubmatch(msg); m != nil {
		page = "page " + m[1]
	}
	switch {
	case strings.Contains(msg, "out of range") || strings.Contains(msg, "slice bounds"):
		if page != "" {
			return page + " points outside itself"
		}
		return "a page points outside itself"
	case page != "":
		return page + " does not hold what the page that leads to it expects"
	}
	return "a page does not hold what the database expects"
}

// PanicDamage is damage met as a panic of the engine (or a fault reading
// its memory map), as DescribePanic says it.
type PanicDamage struct{ What string }

func (e *PanicDamage) Error() string { return e.What }

// Unwrap marks the error as damage.
func (e *PanicDamage) Unwrap() error { return ErrDamaged }
