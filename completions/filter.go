package completions

import (
	"context"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Suggestion is one completion: the text to insert and a short description
// shown beside it.
type Suggestion struct {
	Text        string
	Description string
}

// What the filter expects next.
type expect int

const (
	expectOperand    expect = iota // a property, not, (
	expectOperator                 // eq ne gt ge lt le
	expectValue                    // a literal
	expectConnective               // and, or, )
)

var comparisonOps = []Suggestion{
	{"eq", "equal"},
	{"ne", "not equal"},
	{"gt", "greater than"},
	{"ge", "greater than or equal"},
	{"lt", "less than"},
	{"le", "less than or equal"},
}

var systemProps = []Suggestion{
	{odata.PartitionKey, "partition key · a partition's entities are stored together"},
	{odata.RowKey, "row key · unique in its partition, sorted"},
	{odata.Timestamp, "Edm.DateTime · set by the store on every write"},
}

// literalPrefix is the typed literal form that makes type t.
func literalPrefix(t odata.EdmType) (Suggestion, bool) {
	switch t {
	case odata.EdmString:
		return Suggestion{"'", "Edm.String literal: 'text' ('' for a quote)"}, true
	case odata.EdmDateTime:
		return Suggestion{"datetime'", "Edm.DateTime literal: datetime'2024-01-31T00:00:00Z'"}, true
	case odata.EdmGuid:
		return Suggestion{"guid'", "Edm.Guid literal: guid'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'"}, true
	case odata.EdmBinary:
		return Suggestion{"X'", "Edm.Binary literal in hex: X'0A1B'"}, true
	}
	return Suggestion{}, false
}

// Filter completes a $filter typed so far, for the property names of
// table: it returns the suggestions for the token under the cursor and
// that token (what each suggestion's Text replaces). The text is read by
// odata's own lexer, so literals are read as the parser will read them;
// after a lexical error (Age == ) there is nothing to offer.
func Filter(ctx context.Context, src Source, table, text string) ([]Suggestion, string) {
	toks, cur := odata.LexPartial(text)
	if n := len(toks); n > 0 && toks[n-1].Kind == odata.TokenError {
		return nil, ""
	}
	partial := cur.Text
	state, prop, op := filterState(toks)
	var out []Suggestion
	switch state {
	case expectOperand:
		out = append(out, propertySuggestions(ctx, src, table)...)
		out = append(out, Suggestion{"not", "negates the comparison or group after it"}, Suggestion{"(", "group"})
	case expectOperator:
		out = comparisonOps
	case expectValue:
		out = valueSuggestions(ctx, src, table, prop, op, cur)
	case expectConnective:
		out = []Suggestion{{"and", "both must hold"}, {"or", "either may hold (an or on keys reads more)"}, {")", "close the group"}}
	}
	inLiteral := cur.Kind == odata.TokenString || cur.Kind == odata.TokenTyped
	out = matching(out, partial, state != expectValue || !inLiteral)
	// Right after a closed literal ('Sales'|) a word needs a space first.
	if partial == "" && text != "" && !strings.HasSuffix(text, " ") && !strings.HasSuffix(text, "(") {
		spaced := make([]Suggestion, len(out))
		for i, x := range out {
			spaced[i] = x
			if x.Text != ")" {
				spaced[i].Text = " " + x.Text
			}
		}
		out = spaced
	}
	return out, partial
}

// filterState walks the complete tokens and says what comes next, with the
// property and operator of the comparison in progress. Keywords are
// recognized in any case, as the parser does to explain them.
func filterState(toks []odata.Token) (state expect, prop, op string) {
	state = expectOperand
	for _, t := range toks {
		switch state {
		case expectOperand:
			switch {
			case t.Kind == odata.TokenLeftParen:
			case strings.EqualFold(t.Text, "not"):
			case t.Kind == odata.TokenIdentifier:
				prop, state = t.Text, expectOperator
			default:
				state = expectOperator // a literal on the left: let the operator come
			}
		case expectOperator:
			op, state = strings.ToLower(t.Text), expectValue
		case expectValue:
			state = expectConnective
		case expectConnective:
			if strings.EqualFold(t.Text, "and") || strings.EqualFold(t.Text, "or") {
				state = expectOperand
			}
		}
	}
	return state, prop, op
}

func propertySuggestions(ctx context.Context, src Source, table string) []Suggestion {
	out := append([]Suggestion(nil), systemProps...)
	if src == nil || table == "" {
		return out
	}
	for _, p := range src.Properties(ctx, table) {
		out = append(out, Suggestion{p.Name, typesText(p.Types)})
	}
	return out
}

func typesText(ts []odata.EdmType) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	if len(names) > 1 {
		return strings.Join(names, ", ") + " (mixed: a typed filter skips the others)"
	}
	return strings.Join(names, ", ")
}

// valueSuggestions offers the literal forms of the types the property has
// (all of them for a property not seen), and PartitionKey values after
// "PartitionKey <op> '". cur is the token under the cursor.
func valueSuggestions(ctx context.Context, src Source, table, prop, op string, cur odata.Token) []Suggestion {
	if prop == odata.PartitionKey && src != nil && table != "" && (cur.Kind == odata.TokenEOF || cur.Kind == odata.TokenString) {
		var out []Suggestion
		for _, pk := range src.PartitionKeys(ctx, table, cur.StringValue()) {
			out = append(out, Suggestion{odata.Quote(pk), "a PartitionKey in " + table})
		}
		if len(out) > 0 || cur.Text != "" {
			return out
		}
	}
	if cur.Kind == odata.TokenString || cur.Kind == odata.TokenTyped { // inside a literal: nothing to offer
		return nil
	}
	types := propertyTypes(ctx, src, table, prop)
	if len(types) == 0 { // a property not seen: any form may fit
		types = []odata.EdmType{odata.EdmString, odata.EdmInt32, odata.EdmInt64, odata.EdmDateTime, odata.EdmGuid, odata.EdmBinary, odata.EdmBoolean}
	}
	var out []Suggestion
	seen := map[string]bool{}
	for _, t := range types {
		for _, s := range literalForms(t) {
			if !seen[s.Text] {
				seen[s.Text] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// literalForms are the literals offered for a property of type t: only
// those that compare with it (a comparison with a literal of another type
// is never true).
func literalForms(t odata.EdmType) []Suggestion {
	switch t {
	case odata.EdmBoolean:
		return []Suggestion{{"true", "Edm.Boolean"}, {"false", "Edm.Boolean"}}
	case odata.EdmInt64:
		return []Suggestion{{"0L", "Edm.Int64 literal: a number with an L suffix"}}
	case odata.EdmInt32, odata.EdmDouble:
		return []Suggestion{{"0", t.String() + " literal: 42 (Int32) or 1.5 (Double)"}}
	}
	if s, ok := literalPrefix(t); ok {
		return []Suggestion{s}
	}
	return nil
}

// Placeholder reports whether s shows the form of a literal to type (0
// for a number, 0L for an Int64) rather than a value to take: the shell
// shows it, and never inserts it unless it is chosen.
func Placeholder(s Suggestion) bool {
	for _, t := range []odata.EdmType{odata.EdmInt32, odata.EdmInt64} {
		for _, f := range literalForms(t) {
			if s.Text == f.Text && s.Description == f.Description {
				return true
			}
		}
	}
	return false
}

// propertyTypes returns the types seen for prop (system properties have
// theirs fixed).
func propertyTypes(ctx context.Context, src Source, table, prop string) []odata.EdmType {
	switch prop {
	case odata.PartitionKey, odata.RowKey:
		return []odata.EdmType{odata.EdmString}
	case odata.Timestamp:
		return []odata.EdmType{odata.EdmDateTime}
	}
	if src == nil || table == "" {
		return nil
	}
	for _, p := range src.Properties(ctx, table) {
		if p.Name == prop {
			return p.Types
		}
	}
	return nil
}

// matching keeps the suggestions that start with partial (ignoring case
// when fold is set: keywords and names are offered whatever the case typed),
// in their given order.
func matching(all []Suggestion, partial string, fold bool) []Suggestion {
	if partial == "" {
		return all
	}
	var out []Suggestion
	for _, s := range all {
		if strings.HasPrefix(s.Text, partial) || (fold && strings.HasPrefix(strings.ToLower(s.Text), strings.ToLower(partial))) {
			if s.Text != partial {
				out = append(out, s)
			}
		}
	}
	return out
}
