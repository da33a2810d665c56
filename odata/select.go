package odata

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxTop is the largest $top the service accepts (and its page size).
const MaxTop = 1000

// maxPropertyNameLen is the service's limit on a property name.
const maxPropertyNameLen = 255

// ParseSelect parses a $select list such as "a, b,c" into property names,
// in the order given, without duplicates. An empty (or all-blank) list and
// "*" select every property and return nil. Names must be property names:
// a letter or '_' followed by letters, digits and '_', at most 255 long.
func ParseSelect(s string) ([]string, error) {
	if t := strings.TrimSpace(s); t == "" || t == "*" {
		return nil, nil
	}
	var names []string
	col := 1
	for _, part := range strings.Split(s, ",") {
		name := strings.TrimSpace(part)
		at := col + utf8.RuneCountInString(part) - utf8.RuneCountInString(strings.TrimLeft(part, " \t"))
		if err := checkPropertyName(name); err != nil && name != ETagName {
			return nil, &SyntaxError{Src: s, Column: at + badRuneIndex(name), Msg: "$select: " + err.Error()}
		}
		if !containsString(names, name) {
			names = append(names, name)
		}
		col += utf8.RuneCountInString(part) + 1
	}
	return names, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkPropertyName says what is wrong with a property name, if anything.
func checkPropertyName(name string) error {
	if name == "" {
		return errorString("expected a property name (the list has an empty entry)")
	}
	if n := utf8.RuneCountInString(name); n > maxPropertyNameLen {
		return errorString("property name is " + strconv.Itoa(n) + " characters long; the limit is 255")
	}
	for i, r := range name {
		if (i == 0 && !isIdentStart(r)) || !isIdentPart(r) {
			return errorString("property name " + strconv.Quote(name) + " has " + quoteRune(r) + "; expected a letter or '_' followed by letters, digits and '_'")
		}
	}
	return nil
}

// badRuneIndex is the index, in characters, of the first character a
// property name may not hold there (0 when the name is empty or too long).
func badRuneIndex(name string) int {
	if name == "" || utf8.RuneCountInString(name) > maxPropertyNameLen {
		return 0
	}
	n := 0
	for i, r := range name {
		if (i == 0 && !isIdentStart(r)) || !isIdentPart(r) {
			return n
		}
		n++
	}
	return 0
}

type errorString string

func (e errorString) Error() string { return string(e) }

// Project returns the entity a store delivers for a query with $select:
// the selected user properties that it has, in the order of sel, plus
// PartitionKey, RowKey and Timestamp, which a store always keeps (they
// identify the entity, carry its ETag and continue the query), and the
// ETag a remote service gave, if it gave one. A selected
// property the entity lacks is left out. What the answer then carries, as
// the service answers, is AppendSelectedJSONAs's to write. A nil sel
// returns e itself; otherwise e is not modified.
func Project(e *Entity, sel []string) *Entity {
	if sel == nil || e == nil {
		return e
	}
	out := &Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp, GivenETag: e.GivenETag}
	for _, name := range sel {
		switch name {
		case PartitionKey, RowKey, Timestamp:
			continue
		}
		for i := range e.Properties {
			if e.Properties[i].Name == name {
				out.Properties = append(out.Properties, e.Properties[i])
				break
			}
		}
	}
	return out
}

// ParseTop checks a $top value: the service accepts 0 to 1000. $top=0
// asks for no entity: the answer is empty, with no continuation (a query
// runs it as MatchNothing).
func ParseTop(n int) error {
	if n < 0 || n > MaxTop {
		return errorString("$top must be between 0 and 1000 (a page never holds more than 1000 entities); got " + strconv.Itoa(n))
	}
	return nil
}
