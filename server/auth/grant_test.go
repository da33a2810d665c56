package auth

import (
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

var allOps = []Op{OpQueryTables, OpCreateTable, OpDeleteTable, OpRead, OpAdd, OpUpdate, OpDelete, OpServiceProperties}

// The account SAS rules, one operation at a time, as the service documents
// them for the table service: the resource type needed, and the letters
// of which one is enough.
func TestAccountSASGrants(t *testing.T) {
	docs := map[Op]struct{ srt, anyOf string }{
		OpQueryTables: {"c", "l"}, OpCreateTable: {"c", "acw"}, OpDeleteTable: {"c", "d"},
		OpRead: {"o", "r"}, OpAdd: {"o", "a"}, OpUpdate: {"o", "u"}, OpDelete: {"o", "d"},
	}
	for op, need := range docs {
		for _, srt := range []string{"s", "c", "o", "sco"} {
			for _, sp := range []string{"r", "w", "d", "l", "a", "c", "u", "p", "rwdlacup"} {
				g := &Grant{credential: "account SAS", sas: sasAccount, method: "GET", permissions: sp, resourceTypes: srt}
				want := strings.Contains(srt, need.srt) && strings.ContainsAny(sp, need.anyOf)
				err := g.Check(op, "Orders", "a", "b")
				if (err == nil) != want {
					t.Errorf("%s with srt=%s sp=%s: %v, want allowed=%v", op, srt, sp, err, want)
				}
				switch {
				case err == nil:
				case !strings.Contains(srt, need.srt) && codeOf(err) != "AuthorizationResourceTypeMismatch":
					t.Errorf("%s srt=%s: %v", op, srt, err)
				case strings.Contains(srt, need.srt) && codeOf(err) != "AuthorizationPermissionMismatch":
					t.Errorf("%s sp=%s: %v", op, sp, err)
				}
			}
		}
	}
	// Service properties: read to get (and for stats), write to set.
	for _, c := range []struct {
		method, sp string
		ok         bool
	}{{"GET", "r", true}, {"HEAD", "r", true}, {"GET", "w", false}, {"PUT", "w", true}, {"PUT", "r", false}, {"PUT", "rl", false}} {
		g := &Grant{sas: sasAccount, method: c.method, comp: "properties", permissions: c.sp, resourceTypes: "s"}
		if err := g.Check(OpServiceProperties, "", "", ""); (err == nil) != c.ok {
			t.Errorf("service properties %s sp=%s: %v", c.method, c.sp, err)
		}
	}
	// Access policies: never with an account SAS.
	g := &Grant{sas: sasAccount, method: "GET", comp: "acl", permissions: "rwdlacup", resourceTypes: "sco"}
	for _, op := range allOps {
		if g.Allows(op, "Orders", "", "") {
			t.Errorf("%s with comp=acl allowed", op)
		}
	}
}

func TestTableSASGrants(t *testing.T) {
	g := &Grant{sas: sasTable, method: "GET", permissions: "raud", table: "orders"}
	for _, op := range allOps {
		want := op == OpRead || op == OpAdd || op == OpUpdate || op == OpDelete
		if got := g.Allows(op, "Orders", "a", "b"); got != want {
			t.Errorf("%s: %v, want %v", op, got, want)
		}
		if !want && codeOf(g.Check(op, "", "", "")) != "AuthorizationFailure" {
			t.Errorf("%s: %v", op, g.Check(op, "", "", ""))
		}
		if g.Allows(op, "Invoices", "a", "b") || g.Allows(op, "", "a", "b") {
			t.Errorf("%s allowed on another table", op)
		}
	}
	for letter, op := range map[string]Op{"r": OpRead, "a": OpAdd, "u": OpUpdate, "d": OpDelete} {
		g := &Grant{sas: sasTable, permissions: strings.ReplaceAll("raud", letter, ""), table: "Orders"}
		if err := g.Check(op, "orders", "a", "b"); codeOf(err) != "AuthorizationPermissionMismatch" {
			t.Errorf("%s without %s: %v", op, letter, err)
		}
	}
}

func TestKeyRanges(t *testing.T) {
	type key = [2]string
	for _, c := range []struct {
		spk, srk, epk, erk string
		in, out            []key
	}{
		{"b", "", "", "", []key{{"b", ""}, {"z", "z"}}, []key{{"a", "z"}, {"", ""}}},
		{"", "", "d", "", []key{{"", ""}, {"d", "zzz"}}, []key{{"d\x00", ""}, {"e", ""}}},
		{"b", "", "b", "", []key{{"b", ""}, {"b", "~"}}, []key{{"a", "~"}, {"ba", ""}}},
		{"b", "2", "b", "2", []key{{"b", "2"}}, []key{{"b", "1"}, {"b", "20"}, {"b", ""}}},
		{"b", "2", "d", "5", []key{{"b", "2"}, {"c", ""}, {"d", "5"}}, []key{{"b", "10"}, {"d", "50"}}},
	} {
		g := &Grant{sas: sasTable, permissions: "raud", table: "t", startPK: c.spk, startRK: c.srk, endPK: c.epk, endRK: c.erk}
		for _, k := range c.in {
			if !g.InRange(k[0], k[1]) || !g.Allows(OpAdd, "t", k[0], k[1]) || !g.Allows(OpRead, "t", k[0], k[1]) {
				t.Errorf("%+v: %q refused", c, k)
			}
		}
		for _, k := range c.out {
			if g.InRange(k[0], k[1]) || g.Allows(OpUpdate, "t", k[0], k[1]) {
				t.Errorf("%+v: %q allowed", c, k)
			}
			if k != (key{"", ""}) && g.Allows(OpRead, "t", k[0], k[1]) {
				t.Errorf("%+v: point read of %q allowed", c, k)
			}
		}
		if spk, srk, epk, erk, ok := g.KeyRange(); !ok || spk != c.spk || srk != c.srk || epk != c.epk || erk != c.erk {
			t.Errorf("%+v: KeyRange %q %q %q %q %v", c, spk, srk, epk, erk, ok)
		}
		r, ok := g.ODataRange()
		if !ok || (c.spk == "") != (r.Lower == nil) || (c.epk == "") != (r.Upper == nil) {
			t.Errorf("%+v: ODataRange %+v", c, r)
		}
	}
	// No range: everything, and KeyRange says so.
	g := &Grant{sas: sasTable, permissions: "r", table: "t"}
	if _, _, _, _, ok := g.KeyRange(); ok || !g.InRange("", "") {
		t.Error("a SAS without keys has a range")
	}
	if r, ok := g.ODataRange(); ok || r != odata.FullRange() {
		t.Error("ODataRange without keys")
	}
	// Account grants have no range whatever their fields hold.
	if _, _, _, _, ok := (&Grant{sas: sasAccount, startPK: "x"}).KeyRange(); ok {
		t.Error("an account SAS has a key range")
	}
}

func TestNilAndUnknown(t *testing.T) {
	var g *Grant
	if g.Allows(OpRead, "t", "", "") || g.Credential() != "" {
		t.Error("a nil Grant allows")
	}
	if _, _, _, _, ok := g.KeyRange(); ok {
		t.Error("a nil Grant has a range")
	}
	full := &Grant{credential: "SharedKey"}
	for _, op := range []Op{0, -1, OpServiceProperties + 1} {
		if full.Allows(op, "t", "", "") {
			t.Errorf("op %d allowed", op)
		}
	}
	for _, op := range allOps {
		if !full.Allows(op, "", "", "") || op.String() == "unknown operation" {
			t.Errorf("%d: full grant or name", op)
		}
	}
	if Op(42).String() != "unknown operation" {
		t.Error(Op(42).String())
	}
}
