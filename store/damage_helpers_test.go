package store

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"

	"github.com/tstable/tstable/odata"
)

// fixtureTables are the tables fixture builds and their entity counts:
// Alpha has a tree three pages deep, Beta two, Gamma lives inline in the
// list of tables.
var fixtureTables = map[string]int{"Alpha": 3000, "Beta": 400, "Gamma": 3}

// fixtureEntity is entity i of a fixture table: ten partitions, about 300
// bytes each.
func fixtureEntity(table string, i int) *odata.Entity {
	return ent(fmt.Sprintf("p%02d", i%10), fmt.Sprintf("%s-%05d", strings.ToLower(table), i),
		prop("N", odata.Int64(int64(i))),
		prop("Text", odata.String(strings.Repeat(string(rune('a'+i%26)), 200))),
		prop("Flag", odata.Bool(i%2 == 0)))
}

// fixture builds a closed database file holding fixtureTables.
func fixture(t *testing.T) string {
	t.Helper()
	return fixtureIn(t, values.FormatVersion)
}

// fixtureIn is fixture written in file format v.
func fixtureIn(t *testing.T, v uint64) string {
	t.Helper()
	path := dbPath(t, "fixture.db")
	// Small loads, so that entities land in pages already written and the
	// trees have the half-full pages and several levels the tests of
	// damage rely on (one load is written in key order, front to back).
	db, err := Open(path, &Options{format: v})
	if err != nil {
		t.Fatal(err)
	}
	for table, n := range fixtureTables {
		newTable(t, db, table)
		for from := 0; from < n; from += 500 {
			i := from
			if _, err := db.Load(ctx, table, backend.OpInsert, func() (*odata.Entity, error) {
				if i == min(from+500, n) {
					return nil, io.EOF
				}
				i++
				return fixtureEntity(table, i-1), nil
			}, backend.LoadOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A few deletes, so that the file has free pages.
	for i := 0; i < 50; i++ {
		e := fixtureEntity("Beta", i*7)
		if _, err := db.Write(ctx, "Beta", backend.Operation{Kind: backend.OpDelete, Entity: ent(e.PartitionKey, e.RowKey)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// contents reads every entity of every table of the file at path:
// table → "pk/rk" → entity.
func contents(t *testing.T, path string) map[string]map[string]*odata.Entity {
	t.Helper()
	out := map[string]map[string]*odata.Entity{}
	for n, es := range allEntities(t, path) {
		out[n] = map[string]*odata.Entity{}
		for _, e := range es {
			out[n][e.PartitionKey+"/"+e.RowKey] = e
		}
	}
	return out
}

// rawFile reads the file's header the way the store does, for tests that
// find and damage pages.
type rawFile struct {
	t    *testing.T
	path string
	r    *boltfile.Reader
	h    *boltfile.Header
}

func openRaw(t *testing.T, path string) *rawFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := boltfile.ReadHeader(bytes.NewReader(data), int64(len(data)))
	if h.Use < 0 {
		t.Fatalf("%s has no valid header", path)
	}
	return &rawFile{t: t, path: path, h: h, r: &boltfile.Reader{F: bytes.NewReader(data), Size: int64(len(data)), PageSize: h.PageSize, HWM: h.Meta().Pgid}}
}

// elems reads the entries of a leaf or branch page.
func (f *rawFile) elems(id uint64) (boltfile.PageHead, []boltfile.Elem) {
	f.t.Helper()
	h, b, err := f.r.Page(id, boltfile.FlagLeaf, boltfile.FlagBranch)
	if err != nil {
		f.t.Fatal(err)
	}
	es, err := boltfile.ParseElems(h, b)
	if err != nil {
		f.t.Fatal(err)
	}
	return h, es
}

// kind is the kind (flags) of page id.
func (f *rawFile) kind(id uint64) uint16 {
	f.t.Helper()
	h, err := f.r.Head(id)
	if err != nil {
		f.t.Fatal(err)
	}
	return h.Flags
}

// tableRoot returns the root page of a table's tree (0 when inline).
func (f *rawFile) tableRoot(table string) uint64 {
	f.t.Helper()
	id := f.h.Meta().Root
	key := tableBucketName(table)
	for {
		h, es := f.elems(id)
		i := boltfile.Slot(keysOf2(es), key)
		if h.Flags == boltfile.FlagBranch {
			id = es[i].Child
			continue
		}
		if !bytes.Equal(es[i].Key, key) {
			f.t.Fatalf("no bucket for %s", table)
		}
		return boltfile.Order.Uint64(es[i].Value)
	}
}

func keysOf2(es []boltfile.Elem) [][]byte {
	ks := make([][]byte, len(es))
	for i, e := range es {
		ks[i] = e.Key
	}
	return ks
}

// leafOf returns the leaf page holding an entity of a table, and the keys
// ("pk/rk") of every entity on it.
func (f *rawFile) leafOf(table, pk, rk string) (uint64, []string) {
	f.t.Helper()
	id := f.tableRoot(table)
	key := values.EntityKey(pk, rk)
	for {
		h, es := f.elems(id)
		if h.Flags == boltfile.FlagBranch {
			id = es[boltfile.Slot(keysOf2(es), key)].Child
			continue
		}
		var keys []string
		for _, e := range es {
			keys = append(keys, keyText(e.Key))
		}
		if !slicesContains(keys, pk+"/"+rk) {
			f.t.Fatalf("%s/%s is not on leaf %d", pk, rk, id)
		}
		return id, keys
	}
}

// keysBelow lists the keys ("pk/rk") of every entity below page id.
func (f *rawFile) keysBelow(id uint64) []string {
	h, es := f.elems(id)
	var out []string
	for _, e := range es {
		if h.Flags == boltfile.FlagBranch {
			out = append(out, f.keysBelow(e.Child)...)
		} else {
			out = append(out, keyText(e.Key))
		}
	}
	return out
}

func slicesContains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// leadTwice makes entry 1 of the table's root (a branch page) lead where
// entry 0 does: it returns the page now reached twice and the one no
// longer reached.
func leadTwice(t *testing.T, path, table string) (twice, orphan uint64) {
	t.Helper()
	raw := openRaw(t, path)
	root := raw.tableRoot(table)
	_, es := raw.elems(root)
	var b [8]byte
	boltfile.Order.PutUint64(b[:], es[0].Child)
	writeAt(t, path, b[:], int64(root)*raw.h.PageSize+boltfile.PageHeaderSize+1*boltfile.ElemSize+8)
	return es[0].Child, es[1].Child
}

// filterOf parses a filter; "" is no filter.
func filterOf(t *testing.T, src string) *odata.Filter {
	t.Helper()
	if src == "" {
		return nil
	}
	f, err := odata.ParseFilter(src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// smash overwrites page id with random bytes.
func smash(t *testing.T, path string, id uint64, seed int64) {
	t.Helper()
	f := openRaw(t, path)
	buf := make([]byte, f.h.PageSize)
	rand.New(rand.NewSource(seed)).Read(buf)
	writeAt(t, path, buf, int64(id)*f.h.PageSize)
}

// writeAt writes b into the file at off, which damages it on purpose.
func writeAt(t *testing.T, path string, b []byte, off int64) {
	t.Helper()
	damaging(path)
	fh, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// addToFreeList adds page id, which is in use, to the file's list of free
// pages, as damage would.
func addToFreeList(t *testing.T, path string, id uint64) {
	t.Helper()
	raw := openRaw(t, path)
	fl := raw.h.Meta().Freelist
	ids, err := raw.r.Freelist(fl)
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, id)
	slices.Sort(ids)
	buf := make([]byte, raw.h.PageSize)
	copy(buf, readAll(t, path)[int64(fl)*raw.h.PageSize:])
	boltfile.Order.PutUint16(buf[10:], uint16(len(ids)))
	for i, id := range ids {
		boltfile.Order.PutUint64(buf[boltfile.PageHeaderSize+8*i:], id)
	}
	writeAt(t, path, buf, int64(fl)*raw.h.PageSize)
}

// truncate cuts the file at path to size bytes, which damages it on
// purpose.
func truncate(t *testing.T, path string, size int64) {
	t.Helper()
	damaging(path)
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// readAll returns the file's bytes.
func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyFile copies a file to a new one in the test's folder.
func copyFile(t *testing.T, path, name string) string {
	t.Helper()
	to := dbPath(t, name)
	if err := os.WriteFile(to, readAll(t, path), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// wantDamaged fails unless err is DatabaseDamaged and its message holds
// every one of parts.
func wantDamaged(t *testing.T, err error, parts ...string) {
	t.Helper()
	e := wantCode(t, err, odata.CodeDatabaseDamaged, 500)
	for _, p := range parts {
		if !strings.Contains(e.Message, p) {
			t.Errorf("message %q lacks %q", e.Message, p)
		}
	}
}

// sortedKeys returns a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// keyText is a stored key as "pk/rk".
func keyText(k []byte) string {
	pk, rk := values.SplitKey(k)
	return string(pk) + "/" + string(rk)
}
