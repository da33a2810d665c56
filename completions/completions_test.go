package completions

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

// fakeSource is a Source with fixed answers.
type fakeSource struct {
	tables []string
	props  map[string][]Property
	pks    map[string][]string
	rks    map[string][]string // table NUL pk
}

func (f *fakeSource) Tables(context.Context) []string { return f.tables }
func (f *fakeSource) Properties(_ context.Context, t string) []Property {
	return f.props[strings.ToLower(t)]
}
func (f *fakeSource) PartitionKeys(_ context.Context, t, prefix string) []string {
	var out []string
	for _, pk := range f.pks[strings.ToLower(t)] {
		if strings.HasPrefix(pk, prefix) {
			out = append(out, pk)
		}
	}
	return out
}

func (f *fakeSource) RowKeys(_ context.Context, t, pk, prefix string) []string {
	var out []string
	for _, rk := range f.rks[strings.ToLower(t)+"\x00"+pk] {
		if strings.HasPrefix(rk, prefix) {
			out = append(out, rk)
		}
	}
	return out
}

func testSource() *fakeSource {
	return &fakeSource{
		tables: []string{"Employees", "Logs"},
		props: map[string][]Property{
			"employees": {
				{"Age", []odata.EdmType{odata.EdmInt32}},
				{"FirstName", []odata.EdmType{odata.EdmString}},
				{"Hired", []odata.EdmType{odata.EdmDateTime}},
				{"LastName", []odata.EdmType{odata.EdmString}},
				{"Salary", []odata.EdmType{odata.EdmInt64}},
				{"Zip", []odata.EdmType{odata.EdmInt32, odata.EdmString}},
			},
		},
		pks: map[string][]string{"employees": {"Marketing", "Sales", "Sales East"}},
		rks: map[string][]string{"employees\x00Sales": {"00010", "00011", "00120"}},
	}
}

// testTree is a command tree shaped like tstable's.
func testTree() *cobra.Command {
	root := &cobra.Command{Use: "tstable"}
	root.PersistentFlags().StringP("output", "o", "", "output format")
	root.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"table\ta readable table", "json\tone JSON object", "jsonl\tone entity per line", "csv\tcomma-separated, typed header"}, cobra.ShellCompDirectiveNoFileComp))
	root.PersistentFlags().String("db", "", "database file")
	query := &cobra.Command{Use: "query TABLE", Short: "Query a table", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(query, "TABLE")
	query.Flags().String("filter", "", "OData $filter")
	query.Flags().String("select", "", "properties to return")
	query.Flags().Int("top", 0, "at most N")
	query.Flags().Bool("all", false, "follow tokens")
	get := &cobra.Command{Use: "get TABLE PK RK", Short: "Read one entity", Run: func(*cobra.Command, []string) {}}
	// As the command line's dynamic completion: it sees only the words
	// typed, not the table the shell implies.
	get.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"from-the-command-line"}, cobra.ShellCompDirectiveNoFileComp
	}
	cmdspec.Args(get, "TABLE", "PK", "RK")
	table := &cobra.Command{Use: "table", Short: "Create, list and delete tables"}
	create := &cobra.Command{Use: "create NAME", Short: "Create a table", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(create, "NAME")
	del := &cobra.Command{Use: "delete NAME", Short: "Delete a table", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(del, "NAME")
	cmdspec.NamesTable(del)
	table.AddCommand(create, del, &cobra.Command{Use: "list", Short: "List tables", Run: func(*cobra.Command, []string) {}})
	learn := &cobra.Command{Use: "learn [LESSON]", Short: "Lessons", Run: func(*cobra.Command, []string) {},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"query-classes\tQuery classes", "pagination\tPages"}, cobra.ShellCompDirectiveNoFileComp
		}}
	cmdspec.Args(learn, "[LESSON]")
	shell := &cobra.Command{Use: "shell", Short: "The shell", Run: func(*cobra.Command, []string) {}}
	cmdspec.NotInShell(shell)
	root.AddCommand(query, get, table, learn, shell)
	return root
}

func texts(s []Suggestion) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Text
	}
	return out
}

func TestLineCompletion(t *testing.T) {
	ctx := context.Background()
	extra := []Suggestion{{"use", "choose a table"}, {"next", "next page"}, {"exit", "leave"}}
	cases := []struct {
		name    string
		table   string // in use
		line    string
		want    []string // exactly these, in order
		has     []string // at least these
		hasNot  []string
		descFor map[string]string // a description that must contain this
	}{
		{name: "commands", line: "", has: []string{"query", "get", "table", "use", "next", "exit"}, hasNot: []string{"shell"}},
		{name: "command prefix", line: "qu", want: []string{"query"}},
		{name: "command prefix any case", line: "QU", want: []string{"query"}},
		{name: "subcommands", line: "table ", want: []string{"create", "delete", "list"}},
		{name: "flags", line: "query Employees --", has: []string{"--filter", "--select", "--top", "--all", "--output", "--db"}},
		{name: "flag prefix", line: "query Employees --fi", want: []string{"--filter"}},
		{name: "table names", line: "query ", want: []string{"Employees", "Logs"}},
		{name: "table prefix", line: "query emp", want: []string{"Employees"}},
		{name: "table delete offers tables", line: "table delete L", want: []string{"Logs"}},
		{name: "table create offers nothing", line: "table create L", want: []string{}},
		{name: "use", line: "use L", want: []string{"Logs"}},
		{name: "explain on off", line: "explain o", want: []string{"on", "off"}},
		{name: "valid args function", line: "learn pa", want: []string{"pagination"}},
		{name: "output values", line: "query Employees -o j", want: []string{"json", "jsonl"}},
		{name: "output values with =", line: "query Employees --output=c", want: []string{"--output=csv"}},
		{name: "filter properties", line: `query Employees --filter "`, has: []string{`"PartitionKey`, `"RowKey`, `"Timestamp`, `"Age`, `"LastName`, `"not`, `"(`},
			descFor: map[string]string{`"Hired`: "Edm.DateTime", `"Zip`: "mixed"}},
		{name: "filter property prefix", line: `query Employees --filter "La`, want: []string{`"LastName`}},
		{name: "filter property prefix with =", line: `query Employees --filter="La`, want: []string{`--filter="LastName`}},
		{name: "filter operators", line: `query Employees --filter "Age `, want: []string{"eq", "ne", "gt", "ge", "lt", "le"},
			descFor: map[string]string{"ge": "greater than or equal"}},
		{name: "filter operator prefix", line: `query Employees --filter "Age g`, want: []string{"gt", "ge"}},
		{name: "filter datetime literal first", line: `query Employees --filter "Hired ge `, has: []string{"datetime'"},
			descFor: map[string]string{"datetime'": "Edm.DateTime"}},
		{name: "filter Int64 literal", line: `query Employees --filter "Salary gt `, want: []string{"0L"}},
		{name: "filter Int32 literal only", line: `query Employees --filter "Age gt `, want: []string{"0"}},
		{name: "filter RowKey: a string literal only", line: `query Employees --filter "RowKey gt `, want: []string{"'"}},
		{name: "filter Timestamp: a datetime literal only", line: `query Employees --filter "Timestamp ge `, want: []string{"datetime'"}},
		{name: "filter mixed types: both", line: `query Employees --filter "Zip eq `, want: []string{"0", "'"}},
		{name: "filter unknown property: every form", line: `query Employees --filter "Color eq `, has: []string{"'", "0", "0L", "datetime'", "guid'", "X'", "true", "false"}},
		{name: "get row keys", line: "get Employees Sales 000", want: []string{"00010", "00011"}},
		{name: "use: get row keys", table: "Employees", line: "get Sales 001", want: []string{"00120"}},
		{name: "filter connectives", line: `query Employees --filter "Age gt 30 `, want: []string{"and", "or", ")"}},
		{name: "filter after string literal", line: `query Employees --filter "LastName eq 'Jones' a`, want: []string{"and"}},
		{name: "filter after and", line: `query Employees --filter "Age gt 30 and Fi`, want: []string{"FirstName"}},
		{name: "filter after paren", line: `query Employees --filter "(Fi`, want: []string{`"(FirstName`}},
		{name: "filter after not", line: `query Employees --filter "not La`, want: []string{"LastName"}},
		{name: "partition keys", line: `query Employees --filter "PartitionKey eq 'Sa`, want: []string{"'Sales'", "'Sales East'"}},
		{name: "partition keys no quote yet", line: `query Employees --filter "PartitionKey eq `, has: []string{"'Marketing'", "'Sales'"}},
		{name: "inside a literal nothing", line: `query Employees --filter "LastName eq 'Jo`, want: []string{}},
		{name: "single quotes: properties", line: `query Employees --filter 'La`, want: []string{`'LastName`}},
		{name: "single quotes: operators", line: `query Employees --filter 'Age g`, want: []string{"gt", "ge"}},
		{name: "single quotes: a literal's form", line: `query Employees --filter 'RowKey gt `, want: []string{`'\''`}},
		{name: "single quotes: partition keys", line: `query Employees --filter 'PartitionKey eq `, has: []string{`'\''Marketing'\''`, `'\''Sales'\''`}},
		{name: "single quotes: partition key prefix", line: `query Employees --filter 'PartitionKey eq '\''Sa`, want: []string{`'\''Sales'\''`, `'\''Sales East'\''`}},
		{name: "single quotes: partition key over a space", line: `query Employees --filter 'PartitionKey eq '\''Sales E`, want: []string{`East'\''`}},
		{name: "single quotes: connectives", line: `query Employees --filter 'PartitionKey eq '\''Sales'\'' `, want: []string{"and", "or", ")"}},
		{name: "select", line: "query Employees --select Age,Fi", want: []string{"Age,FirstName"}},
		{name: "select skips chosen", line: "query Employees --select Age,", hasNot: []string{"Age,Age"}, has: []string{"Age,LastName"}},
		{name: "use: filter needs no table", table: "Employees", line: `query --filter "Fi`, want: []string{`"FirstName`}},
		{name: "use: get offers partitions and tables", table: "Employees", line: "get ", has: []string{"Marketing", "Sales", "Employees", "Logs"}},
		{name: "use: get after a partition", table: "Employees", line: "get Sales ", want: []string{"00010", "00011", "00120"}},
		{name: "use: another table named keeps its own partitions", table: "Employees", line: "get Logs ", want: []string{}},
		{name: "use: another table named, then its partitions", table: "Logs", line: "get Employees S", want: []string{"Sales", "Sales East"}},
		{name: "get partition keys", line: "get Employees M", want: []string{"Marketing"}},
		{name: "help", line: "help q", want: []string{"query"}},
		{name: "unknown command", line: "frobnicate ", want: []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &Line{Root: testTree(), Source: testSource(), Table: func() string { return tc.table }, Extra: extra}
			got := l.Complete(ctx, tc.line)
			g := texts(got)
			if tc.want != nil && strings.Join(g, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Complete(%q) = %q, want %q", tc.line, g, tc.want)
			}
			for _, h := range tc.has {
				if !contains(g, h) {
					t.Errorf("Complete(%q) = %q, missing %q", tc.line, g, h)
				}
			}
			for _, h := range tc.hasNot {
				if contains(g, h) {
					t.Errorf("Complete(%q) = %q, should not offer %q", tc.line, g, h)
				}
			}
			for text, d := range tc.descFor {
				found := false
				for _, s := range got {
					if s.Text == text {
						found = true
						if !strings.Contains(s.Description, d) {
							t.Errorf("description of %q = %q, want it to mention %q", text, s.Description, d)
						}
					}
				}
				if !found {
					t.Errorf("Complete(%q) = %q, missing %q", tc.line, g, text)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestFilterLiteralOrderFollowsType(t *testing.T) {
	sugg, _ := Filter(context.Background(), testSource(), "Employees", "Hired ge ")
	if len(sugg) == 0 || sugg[0].Text != "datetime'" {
		t.Fatalf("first suggestion for a DateTime property = %v, want datetime'", texts(sugg))
	}
	sugg, _ = Filter(context.Background(), testSource(), "Employees", "LastName eq ")
	if len(sugg) == 0 || sugg[0].Text != "'" {
		t.Fatalf("first suggestion for a String property = %v, want '", texts(sugg))
	}
}

func TestReplacementAcrossSpaces(t *testing.T) {
	// The partial PartitionKey 'Sales E spans a space; go-prompt replaces
	// only "E", so the suggestion is the rest of the value.
	line := `query Employees --filter "PartitionKey eq 'Sales E`
	l := &Line{Root: testTree(), Source: testSource(), Table: func() string { return "" }}
	got := texts(l.Complete(context.Background(), line))
	if len(got) != 1 || got[0] != "East'" {
		t.Fatalf("Complete(%q) = %q, want [East']", line, got)
	}
}

func TestSplitPartial(t *testing.T) {
	cases := []struct {
		line    string
		words   []string
		current string
		quote   rune
	}{
		{"query Employees --filter \"Age gt", []string{"query", "Employees", "--filter"}, "Age gt", '"'},
		{"get  a\\ b 'c d' ", []string{"get", "a b", "c d"}, "", 0},
		{"x 'it''s", []string{"x"}, "its", '\''},
		{"", nil, "", 0},
	}
	for _, tc := range cases {
		p := splitPartial(tc.line)
		if strings.Join(p.words, "|") != strings.Join(tc.words, "|") || p.current != tc.current || p.quote != tc.quote {
			t.Errorf("splitPartial(%q) = %q %q %q, want %q %q %q", tc.line, p.words, p.current, p.quote, tc.words, tc.current, tc.quote)
		}
	}
}

// TestFilterReadsLiteralsAsTheParser: completion reads every literal form
// as the parser does, so what follows a literal completes by where the
// parser would be: a doubled quote stays inside its string, a binary or
// datetime literal is one value, and so is a number with an exponent or L.
func TestFilterReadsLiteralsAsTheParser(t *testing.T) {
	src := testSource()
	src.pks["employees"] = append(src.pks["employees"], "O'Neil", "O'Neil East")
	cases := []struct {
		text    string
		want    []string
		partial string
	}{
		{"Blob eq X'0A' and La", []string{"LastName"}, "La"},
		{"Blob eq X'0A' ", []string{"and", "or", ")"}, ""},
		{"Blob eq binary'0a0b' o", []string{"or"}, "o"},
		{"LastName eq 'O''Brien' and Fi", []string{"FirstName"}, "Fi"},
		{"LastName eq 'O''Brien' ", []string{"and", "or", ")"}, ""},
		{"LastName eq 'it''s and or' a", []string{"and"}, "a"},
		{"LastName eq 'O''Br", []string{}, "'O''Br"},
		{"LastName eq 'O'' and Fi", []string{}, "'O'' and Fi"}, // the string is still open
		{"PartitionKey eq 'O''", []string{"'O''Neil'", "'O''Neil East'"}, "'O''"},
		{"PartitionKey eq 'O''Neil E", []string{"'O''Neil East'"}, "'O''Neil E"},
		{"Hired ge datetime'2020-01-01T00:00:00Z' and Ag", []string{"Age"}, "Ag"},
		{"Hired ge datetime'20", []string{}, "datetime'20"},
		{"Salary gt 30L o", []string{"or"}, "o"},
		{"Age gt 1.5e3 a", []string{"and"}, "a"},
		{"Age gt -2.5E-3 ", []string{"and", "or", ")"}, ""},
		{"LastName eq'x' a", []string{"and"}, "a"}, // eq'x' is eq, then a string
		{"Age == ", []string{}, ""},                // a lexical error: nothing to offer
	}
	for _, tc := range cases {
		got, partial := Filter(context.Background(), src, "Employees", tc.text)
		if g := texts(got); strings.Join(g, "|") != strings.Join(tc.want, "|") || partial != tc.partial {
			t.Errorf("Filter(%q) = %q, %q; want %q, %q", tc.text, g, partial, tc.want, tc.partial)
		}
	}
}

// Right after a closed literal, a keyword comes with the space it needs;
// after a space or "(" it does not.
func TestFilterSpaceAfterLiteral(t *testing.T) {
	ctx := context.Background()
	sugg, partial := Filter(ctx, testSource(), "Employees", "PartitionKey eq 'Sales'")
	if partial != "" || !containsText(sugg, " and") || !containsText(sugg, ")") || containsText(sugg, "and") {
		t.Errorf("after a closed literal: %q (partial %q)", texts(sugg), partial)
	}
	sugg, _ = Filter(ctx, testSource(), "Employees", "PartitionKey eq 'Sales' ")
	if !containsText(sugg, "and") {
		t.Errorf("after a space: %q", texts(sugg))
	}
}

// The literal forms offered for a number are placeholders, which the shell
// shows without inserting; values and a literal's opening quote are not.
func TestPlaceholders(t *testing.T) {
	ctx := context.Background()
	for line, want := range map[string]bool{
		`query Employees --filter "Age gt `:    true,
		`query Employees --filter "Salary gt `: true,
		`query Employees --filter 'Age gt `:    true,
		`query Employees --filter "RowKey gt `: false,
		`query Employees --filter "Hired ge `:  false,
		`get Employees Sales 000`:              false,
	} {
		l := &Line{Root: testTree(), Source: testSource(), Table: func() string { return "" }}
		sugg := l.Complete(ctx, line)
		if len(sugg) == 0 {
			t.Errorf("%s: no suggestions", line)
		}
		for _, s := range sugg {
			if Placeholder(s) != want {
				t.Errorf("%s: %q is a placeholder: %v, want %v", line, s.Text, Placeholder(s), want)
			}
		}
	}
}

// The shell's own `explain` and the command of that name are offered once.
func TestCommandsOfferedOnce(t *testing.T) {
	tree := testTree()
	tree.AddCommand(&cobra.Command{Use: "explain TABLE", Short: "Explain a query", Run: func(*cobra.Command, []string) {}})
	l := &Line{Root: tree, Source: testSource(), Table: func() string { return "" }, Extra: []Suggestion{{"explain", "explain on|off"}}}
	n := 0
	for _, s := range l.Complete(context.Background(), "ex") {
		if s.Text == "explain" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("explain offered %d times", n)
	}
}

func containsText(s []Suggestion, text string) bool {
	for _, x := range s {
		if x.Text == text {
			return true
		}
	}
	return false
}

func TestSpaceAfter(t *testing.T) {
	for line, want := range map[string]bool{
		"use":                                 true,
		"query Employees":                     true,
		`query --filter "LastName`:            true,
		`query --filter 'LastName`:            true,
		`query --filter "Age eq`:              true,
		`query --filter "PK eq 'Sales'`:       true,
		`query --filter "PK eq 'O''Brien'`:    true,
		`query --filter "PK eq 'Sales East'`:  true,
		`query --filter 'PK eq '\''Sales'\''`: true,
		`query --filter "RowKey gt '`:         false,
		`query --filter 'RowKey gt '\''`:      false,
		`query --filter "Hired ge datetime'`:  false,
		`query --filter "Bin eq X'`:           false,
		`query --filter "Id eq guid'`:         false,
		`query --filter "(`:                   false,
		`query --filter=`:                     false,
		`query --filter "PK eq 'Sal`:          false,
	} {
		if got := SpaceAfter(line); got != want {
			t.Errorf("SpaceAfter(%q) = %v", line, got)
		}
	}
}
