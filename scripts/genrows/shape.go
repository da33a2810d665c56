package main

import (
	"fmt"
	"strconv"
	"strings"
)

// kind is a column's type: its Edm type in JSON, its SQL type in sqlite3.
type kind int

const (
	kString kind = iota
	kInt
	kDouble
	kBool
	kDateTime
)

// column is one property: its name, its type and its value for entity i.
type column struct {
	name  string
	kind  kind
	value func(i int) any
}

// shape is the properties of an entity besides its keys.
type shape []column

// mix scatters i, so that two columns drawn from it do not go together.
func mix(i, salt int) int { return int((uint32(i)*2654435761 ^ uint32(salt)*40503) >> 7) }

func lastName(i int) string { return lastNames[mix(i, 1)%len(lastNames)] }

var narrowColumns = []column{
	{"FirstName", kString, func(i int) any { return firstNames[(i*7)%len(firstNames)] }},
	{"LastName", kString, func(i int) any { return lastName(i) }},
	{"Age", kInt, func(i int) any { return 18 + mix(i, 2)%60 }},
	{"Email", kString, func(i int) any {
		return fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(firstNames[(i*7)%len(firstNames)]), strings.ToLower(lastName(i)), i)
	}},
	{"City", kString, func(i int) any { return cities[(i*5)%len(cities)] }},
}

var wideExtras = []column{
	{"Score", kDouble, func(i int) any { return float64((i*131)%100000) / 100.5 }},
	{"Active", kBool, func(i int) any { return i%3 == 0 }},
	{"Joined", kDateTime, func(i int) any { return fmt.Sprintf("20%02d-%02d-%02dT10:20:30Z", 10+i%15, 1+i%12, 1+i%28) }},
	{"Note", kString, func(i int) any { return fmt.Sprintf("note %08d", i) }},
}

var shapes = map[string]shape{
	"narrow": narrowColumns,
	"wide":   append(append(shape{}, narrowColumns...), wideExtras...),
	"broad":  append(append(shape{}, narrowColumns...), broadExtras()...),
}

// schema is sqlite3's table for the shape, keyed as tstable's tables are.
func (s shape) schema() string {
	var b strings.Builder
	b.WriteString("create table bench(pk text, rk text")
	for _, c := range s {
		b.WriteString(", " + strings.ToLower(c.name) + " " + [...]string{"text", "int", "real", "int", "text"}[c.kind])
	}
	b.WriteString(", primary key(pk, rk)) without rowid;\n")
	return b.String()
}

func (s shape) csvHeader() string {
	names := []string{"pk", "rk"}
	for _, c := range s {
		names = append(names, strings.ToLower(c.name))
	}
	return strings.Join(names, ",") + "\n"
}

// appendJSON appends entity i as a JSON line, each value with its type
// where JSON alone would not say it.
func (s shape) appendJSON(b []byte, pk, rk string, i int) []byte {
	b = append(b, `{"PartitionKey":"`...)
	b = append(b, pk...)
	b = append(b, `","RowKey":"`...)
	b = append(b, rk...)
	b = append(b, '"')
	for _, c := range s {
		v := c.value(i)
		switch c.kind {
		case kDouble:
			b = append(b, `,"`+c.name+`@odata.type":"Edm.Double"`...)
		case kDateTime:
			b = append(b, `,"`+c.name+`@odata.type":"Edm.DateTime"`...)
		}
		b = append(b, `,"`+c.name+`":`...)
		b = appendValue(b, c.kind, v, true)
	}
	return append(b, "}\n"...)
}

// appendCSV appends entity i as a CSV row (no value needs quoting).
func (s shape) appendCSV(b []byte, pk, rk string, i int) []byte {
	b = append(b, pk...)
	b = append(b, ',')
	b = append(b, rk...)
	for _, c := range s {
		b = append(b, ',')
		b = appendValue(b, c.kind, c.value(i), false)
	}
	return append(b, '\n')
}

func appendValue(b []byte, k kind, v any, json bool) []byte {
	switch k {
	case kInt:
		return strconv.AppendInt(b, int64(v.(int)), 10)
	case kDouble:
		return strconv.AppendFloat(b, v.(float64), 'g', -1, 64)
	case kBool:
		if json {
			return strconv.AppendBool(b, v.(bool))
		}
		if v.(bool) {
			return append(b, '1')
		}
		return append(b, '0')
	}
	if json {
		return strconv.AppendQuote(b, v.(string))
	}
	return append(b, v.(string)...)
}
