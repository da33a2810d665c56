package cmd

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Flattening a result into rows, for csv and for a grid: each item is
// taken as its JSON (so its fields are named as json names them, in the
// same order), an object's fields are named under its own with a dot
// (evidence.summary), a list of plain values is one cell of its values
// joined by "; ", and a list of objects is named by index
// (largestPartitions.0.entities). The header is every name of every item,
// in the order first seen; an item without one has an empty cell.

// cell is one named value of a flattened item.
type cell struct{ name, text string }

// flattenRows flattens items into a header and a row each.
func flattenRows(items []any) (header []string, rows [][]string, err error) {
	index := map[string]int{}
	var cells [][]cell
	for _, it := range items {
		b, err := marshal(it)
		if err != nil {
			return nil, nil, err
		}
		cs, err := flatten("", b, nil)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range cs {
			if _, ok := index[c.name]; !ok {
				index[c.name] = len(header)
				header = append(header, c.name)
			}
		}
		cells = append(cells, cs)
	}
	for _, cs := range cells {
		row := make([]string, len(header))
		for _, c := range cs {
			row[index[c.name]] = c.text
		}
		rows = append(rows, row)
	}
	return header, rows, nil
}

// flatten appends the cells of the JSON value raw, named under name.
func flatten(name string, raw json.RawMessage, out []cell) ([]cell, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return out, nil
	}
	switch raw[0] {
	case '{':
		return flattenObject(name, raw, out)
	case '[':
		return flattenList(name, raw, out)
	}
	text, err := scalarText(raw)
	return append(out, cell{cellName(name), text}), err
}

// flattenObject appends an object's fields, each named under name.
func flattenObject(name string, raw json.RawMessage, out []cell) ([]cell, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return out, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return out, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, err
		}
		if out, err = flatten(dotted(name, key.(string)), v, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// flattenList appends a list: its plain values joined in one cell, or its
// objects and lists each named by index.
func flattenList(name string, raw json.RawMessage, out []cell) ([]cell, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return out, err
	}
	texts := make([]string, 0, len(elems))
	for i, e := range elems {
		if e[0] == '{' || e[0] == '[' {
			var err error
			if out, err = flatten(dotted(name, strconv.Itoa(i)), e, out); err != nil {
				return out, err
			}
			continue
		}
		t, err := scalarText(e)
		if err != nil {
			return out, err
		}
		texts = append(texts, t)
	}
	if len(texts) > 0 || len(elems) == 0 {
		out = append(out, cell{cellName(name), strings.Join(texts, "; ")})
	}
	return out, nil
}

// scalarText is a plain JSON value as a cell: a string's text, a number
// or true/false as written, null empty.
func scalarText(raw json.RawMessage) (string, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case 'n':
		return "", nil
	}
	return string(raw), nil
}

// dotted is name.key, or key at the top.
func dotted(name, key string) string {
	if name == "" {
		return key
	}
	return name + "." + key
}

// cellName is a cell's name, "value" at the top (a list of plain values).
func cellName(name string) string {
	if name == "" {
		return "value"
	}
	return name
}
