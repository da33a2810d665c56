package boltfile

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
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
func DescribePanic(r any) string { return PanicFinding(r).What }

// PanicFinding is the damage a panic of the engine (or a fault reading its
// memory map) means, as DescribePanic says it, with the page it names.
func PanicFinding(r any) *Finding {
	if f, ok := r.(interface{ Addr() uintptr }); ok {
		if _, rt := r.(runtime.Error); rt && f.Addr() != 0 {
			return &Finding{What: "a page it refers to cannot be read (the file is shorter than its pages say, or the disk fails to read it)", Fault: true}
		}
	}
	msg := fmt.Sprint(r)
	var page uint64
	if m := pageNumber().FindStringSubmatch(msg); m != nil {
		page, _ = strconv.ParseUint(m[1], 10, 64)
	}
	named := func(what string) *Finding {
		if page != 0 {
			return &Finding{Page: page, What: fmt.Sprintf("page %d %s", page, what)}
		}
		return &Finding{What: "a page " + what}
	}
	switch {
	case strings.Contains(msg, "out of range") || strings.Contains(msg, "slice bounds"):
		return named("points outside itself")
	case page != 0:
		return named("does not hold what the page that leads to it expects")
	}
	return &Finding{What: "a page does not hold what the database expects"}
}

// Finding is damage said in words: a panic of the engine on a page, a
// stored value that does not decode. It names a page when it knows one.
type Finding struct {
	Page  uint64 // the page, 0 when unknown
	What  string // what is wrong, for people
	Fault bool   // a fault reading the memory map: the file is shorter than the snapshot
}

func (e *Finding) Error() string { return e.What }

// Unwrap marks the error as damage.
func (e *Finding) Unwrap() error { return ErrDamaged }
