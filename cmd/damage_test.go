package cmd

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/server"
)

// runDamage runs one command line in-process.
func runDamage(db, stdin string, args ...string) (stdout, stderr string, status int) {
	return runDamageTTY(false, db, stdin, args...)
}

// runDamageTTY is runDamage with standard error a terminal, or not.
func runDamageTTY(errTTY bool, db, stdin string, args ...string) (stdout, stderr string, status int) {
	ios, in, out, errOut := iostreams.Test()
	ios.ErrTTY = errTTY
	in.WriteString(stdin)
	status = Execute(context.Background(), newRoot(&Factory{IO: ios}), append([]string{"--db", db}, args...), ios)
	return out.String(), errOut.String(), status
}

// bigTable is 400 entities of about 200 bytes, keys k0000 to k0399,
// imported in two loads, the second (all but the first four) into the
// key range of the first: they fill a few dozen leaf pages, split half
// full, each written once.
func bigTable(t *testing.T, db string) {
	t.Helper()
	var b [2]strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b[min(i/4, 1)], `{"PartitionKey":"p%d","RowKey":"k%04d","Text":"%s"}`+"\n", i%4, i, strings.Repeat("x", 200))
	}
	mustRun(t, db, "", "table", "create", "Big")
	mustRun(t, db, b[0].String(), "import", "Big")
	mustRun(t, db, b[1].String(), "import", "Big")
}

// leafHolding returns the number of the page that holds text, checking
// that it is a leaf page (type 0x02 in its header).
func leafHolding(t *testing.T, db, text string) int64 {
	t.Helper()
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	ps := int64(os.Getpagesize())
	i := bytes.Index(data, []byte(text))
	page := int64(i) / ps
	if i < 0 || binary.LittleEndian.Uint16(data[page*ps+8:]) != 0x02 {
		t.Fatalf("%q is not on a leaf page", text)
	}
	return page
}

// zeroPage overwrites a page with zeros.
func zeroPage(t *testing.T, db string, page int64) {
	t.Helper()
	fh, err := os.OpenFile(db, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	ps := int64(os.Getpagesize())
	if _, err := fh.WriteAt(make([]byte, ps), page*ps); err != nil {
		t.Fatal(err)
	}
}

// TestDamageGolden runs check and recover on sound, damaged and cut files,
// and the other commands on damaged ones, against testdata/golden.
func TestDamageGolden(t *testing.T) {
	if os.Getpagesize() != 4096 {
		t.Skip("the goldens count pages of 4 KiB")
	}
	cases := []struct {
		name   string
		damage func(t *testing.T, db string)
		args   []string
	}{
		{"check-sound", nil, []string{"check", "-o", "table"}},
		{"check-damaged", zeroLeaf, []string{"check", "-o", "table"}},
		{"check-damaged-json", zeroLeaf, []string{"check", "-o", "json"}},
		{"check-damaged-csv", zeroLeaf, []string{"check", "-o", "csv"}},
		{"check-cut", cutHalf, []string{"check", "-o", "table"}},
		{"check-empty", empty, []string{"check", "-o", "table"}},
		{"check-no-database", func(t *testing.T, db string) { os.Remove(db) }, []string{"check"}},
		{"recover-sound", nil, []string{"recover", "$DB", "$DIR/new.db", "-o", "table"}},
		{"recover-damaged", zeroLeaf, []string{"recover", "$DB", "$DIR/new.db", "-o", "table"}},
		{"recover-damaged-json", zeroLeaf, []string{"recover", "$DB", "$DIR/new.db", "-o", "json"}},
		{"recover-cut", cutHalf, []string{"recover", "$DB", "$DIR/new.db", "-o", "table"}},
		{"recover-over-a-file", nil, []string{"recover", "$DB", "$DB"}},
		{"check-unfinished-import", leftStaging, []string{"check", "-o", "table"}},
		{"recover-unfinished-import", leftStaging, []string{"recover", "$DB", "$DIR/new.db", "-o", "table"}},
		{"check-no-headers", zeroHeaders, []string{"check", "-o", "table"}},
		{"recover-no-headers", zeroHeaders, []string{"recover", "$DB", "$DIR/new.db", "-o", "table"}},
		{"upsert-no-headers", zeroHeaders, []string{"upsert", "Big", `{"PartitionKey":"p3","RowKey":"k0123","Text":"new"}`}},
		{"recover-missing-args", nil, []string{"recover", "$DB"}},
		// The other commands on a damaged or cut file: one error line, no crash.
		{"damaged-query", zeroLeaf, []string{"query", "Big", "--all", "-o", "csv"}},
		{"damaged-export", zeroLeaf, []string{"export", "Big", "--filter", "PartitionKey eq 'p3'"}},
		{"damaged-stats", zeroLeaf, []string{"stats", "Big", "-o", "json"}},
		{"damaged-upsert", zeroLeaf, []string{"upsert", "Big", `{"PartitionKey":"p3","RowKey":"k0123","Text":"new"}`}},
		{"cut-table-list", cutHalf, []string{"table", "list"}},
		{"cut-query", cutHalf, []string{"query", "Big", "--top", "2"}},
		{"cut-table-create", cutHalf, []string{"table", "create", "Other"}},
		{"empty-table-list", empty, []string{"table", "list"}},
		// A header whose root is a table's leaf: refused by reads too.
		{"rooted-at-a-leaf-table-list", rootAtLeaf, []string{"table", "list"}},
		{"rooted-at-a-leaf-query", rootAtLeaf, []string{"query", "Big", "--top", "2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "t.db")
			bigTable(t, db)
			mustRun(t, db, "", "table", "create", "Small")
			mustRun(t, db, `{"PartitionKey":"a","RowKey":"1","N":1}`, "upsert", "Small")
			if tc.damage != nil {
				tc.damage(t, db)
			}
			var args []string
			for _, a := range tc.args {
				args = append(args, strings.NewReplacer("$DB", db, "$DIR", dir).Replace(a))
			}
			out, errOut, status := runDamage(db, "", args...)
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "internal:") {
				t.Fatalf("a crash:\n%s", errOut)
			}
			got := transcript(tc.args, "", out, errOut, status)
			if strings.HasPrefix(tc.name, "recover-") && status != 2 && tc.name != "recover-over-a-file" {
				// What recover wrote passes check.
				o, e, s := runDamage(filepath.Join(dir, "new.db"), "", "check", "-o", "table")
				got += transcript([]string{"check", "$DIR/new.db", "-o", "table"}, "", o, e, s)
			}
			got = strings.ReplaceAll(strings.ReplaceAll(got, db, "$DB"), dir, "$DIR")
			got = pageNumbers.ReplaceAllString(got, "${1}N")
			got = pageLists.ReplaceAllStringFunc(got, func(l string) string { return digits.ReplaceAllString(l, "N") })
			got = csvPageNumbers.ReplaceAllString(got, "${1},N,")
			if tc.damage != nil && strings.Contains(tc.name, "cut") {
				got = counts.ReplaceAllString(got, "N $1")
			}
			checkGolden(t, tc.name, got)
		})
	}
}

// pageNumbers are the numbers of pages in messages: where the store puts
// a page depends on how the import's transactions went, so the goldens
// show N (TestCheckNamesTheDamagedPage checks the number itself).
var pageNumbers = regexp.MustCompile(`(pages? |"page":|\)",)\d+`)

// pageLists are lists of pages ("pages N, 3, 7 and 60"), all of whose
// numbers depend on the same.
var (
	pageLists = regexp.MustCompile(`pages N(, \d+)*( and \d+)?`)
	digits    = regexp.MustCompile(`\d+`)
)

// csvPageNumbers are the page column of check's csv rows, after a
// problem's keys (…,p3,k0147,46,…).
var csvPageNumbers = regexp.MustCompile(`(,k\d{4}),\d+,`)

// counts are the numbers of entities and pages saved from a cut file:
// which pages fall in the half that is left depends on the same.
var counts = regexp.MustCompile(`\b\d+ (entities|entity|pages|page|found|in all)\b`)

// rootAtLeaf makes the header in use (the one of the higher transaction)
// name the leaf that holds k0123 as the root, its checksum made right: a
// header that reads, leading to a table's page instead of the list of
// tables.
func rootAtLeaf(t *testing.T, db string) {
	t.Helper()
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	ps := int64(os.Getpagesize())
	use := int64(0)
	if binary.LittleEndian.Uint64(data[ps+16+48:]) > binary.LittleEndian.Uint64(data[16+48:]) {
		use = 1
	}
	m := data[use*ps+16 : use*ps+16+64]
	binary.LittleEndian.PutUint64(m[16:], uint64(leafHolding(t, db, "k0123")))
	h := fnv.New64a()
	h.Write(m[:56])
	binary.LittleEndian.PutUint64(m[56:], h.Sum64())
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// zeroLeaf zeroes the leaf page that holds k0123 (and its neighbours).
func zeroLeaf(t *testing.T, db string) { zeroPage(t, db, leafHolding(t, db, "k0123")) }

// zeroHeaders zeroes both copies of the file's header: every other page
// is intact.
func zeroHeaders(t *testing.T, db string) {
	zeroPage(t, db, 0)
	zeroPage(t, db, 1)
}

// leftStaging leaves what an import killed while it staged 50 rows into
// Big leaves: a staging bucket, of a process that is gone.
func leftStaging(t *testing.T, db string) {
	t.Helper()
	b, err := bolt.Open(db, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Update(func(tx *bolt.Tx) error {
		p, err := tx.CreateBucket([]byte("import:999999999:00"))
		if err != nil {
			return err
		}
		if err := p.Put([]byte("staging"), []byte("t:big")); err != nil {
			return err
		}
		c, err := p.CreateBucket([]byte("t:big"))
		if err != nil {
			return err
		}
		for i := range 50 {
			if err := c.Put([]byte(fmt.Sprintf("p9\x00k%04d", i)), []byte(strings.Repeat("s", 200))); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// cutHalf cuts the file to half its length.
func cutHalf(t *testing.T, db string) {
	st, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, st.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// empty makes the file empty.
func empty(t *testing.T, db string) {
	if err := os.Truncate(db, 0); err != nil {
		t.Fatal(err)
	}
}

// The page check names is the page that was damaged, and the keys it
// names are the keys that were on it; json carries them.
func TestCheckNamesTheDamagedPage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	bigTable(t, db)
	page := leafHolding(t, db, "k0123")
	zeroPage(t, db, page)
	out, errOut, status := runDamage(db, "", "check", "-o", "json")
	if status != 1 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	var rep struct {
		OK       bool
		Problems []struct {
			Table       string
			Page        int64
			First, Next struct{ PartitionKey, RowKey string }
			Lost        bool
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.OK || len(rep.Problems) != 1 {
		t.Fatalf("%s", out)
	}
	p := rep.Problems[0]
	if p.Table != "Big" || p.Page != page || !p.Lost || p.First.PartitionKey != "p3" || p.First.RowKey > "k0123" || p.Next.RowKey <= "k0123" {
		t.Fatalf("problem %+v; damaged page %d holding p3/k0123", p, page)
	}
}

// On a terminal, check and recover show their progress on standard error
// (cleared at the end); the report on standard output is the same.
func TestProgressOnATerminal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	bigTable(t, db)
	for _, args := range [][]string{{"check", "-o", "table"}, {"recover", db, filepath.Join(dir, "new.db"), "-o", "table"}} {
		plain, _, status := runDamage(db, "", args...)
		out, errOut, ttyStatus := runDamageTTY(true, db, "", args...)
		if args[0] == "recover" {
			os.Remove(filepath.Join(dir, "new.db"))
			out, errOut, ttyStatus = runDamageTTY(true, db, "", args...)
		}
		if status != 0 || ttyStatus != 0 || out != plain {
			t.Fatalf("%s: exit %d/%d, stdout differs on a terminal:\n%s\n%s", args[0], status, ttyStatus, out, plain)
		}
		if !strings.Contains(errOut, args[0]+"ing ") || !strings.Contains(errOut, "pages") {
			t.Errorf("%s: no progress on the terminal: %q", args[0], errOut)
		}
	}
}

// A file tstable serve holds cannot be checked or recovered meanwhile:
// check says so at once, naming the server.
func TestCheckOfAServedFile(t *testing.T) {
	db, srv := servedDB(t)
	_, errOut, status := runDamage(db, "", "check")
	want := "error: DatabaseLocked: database " + db + " is held by tstable serve at " + srv.URL() + ": stop the server, then check it\n"
	if status != 1 || errOut != want {
		t.Fatalf("exit %d, %q; want %q", status, errOut, want)
	}
}

// hugeOverflow sets the count of overflow pages of the leaf that holds
// k0123 past the file: the leaf's entries all lie in the page itself.
func hugeOverflow(t *testing.T, db string) {
	t.Helper()
	page := leafHolding(t, db, "k0123")
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(data[page*int64(os.Getpagesize())+12:], 0x7fffffff)
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The CLI and serve agree on a leaf whose count of overflow pages runs
// past the file while its entries lie in the page itself: query, export
// and serve all answer every row (the engine's cursor never reads the
// count; export's reads of the pages used to stop there), and check
// reports the count without losing any entity.
func TestTheCLIAndServeAgreeOnALeafWithAHugeOverflowCount(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	bigTable(t, db)
	hugeOverflow(t, db)
	out, errOut, st := runDamage(db, "", "query", "Big", "--all", "-o", "csv")
	if st != 0 || strings.Count(out, "\n") != 401 {
		t.Errorf("query: exit %d, %d lines\n%s", st, strings.Count(out, "\n"), errOut)
	}
	out, errOut, st = runDamage(db, "", "export", "Big")
	if st != 0 || strings.Count(out, "\n") != 400 {
		t.Errorf("export: exit %d, %d lines\n%s", st, strings.Count(out, "\n"), errOut)
	}
	out, _, st = runDamage(db, "", "check", "-o", "jsonl")
	if st != 1 || !strings.Contains(out, `its entries all lie in the page itself, and are read`) || strings.Contains(out, `"lost":true`) {
		t.Errorf("check: exit %d\n%s", st, out)
	}
	stop := serveInBackground(t, db, "--no-auth")
	defer stop()
	url, _, _ := server.ReadAddress(db)
	req, _ := http.NewRequest("GET", url+"/Big()", nil)
	req.Header.Set("Accept", "application/json;odata=nometadata")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Value []map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 || len(body.Value) != 400 {
		t.Errorf("serve: %d, %d rows, %v", resp.StatusCode, len(body.Value), err)
	}
}
