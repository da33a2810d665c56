// Command filebytes says where the bytes of a tstable file go: for each
// table, its keys, its values (of which, in format 1, the property names
// every value holds; in format 2, the entities that name their
// properties themselves), the engine's header of each entry, its pages
// (in use and free inside them) and branch pages; the dictionaries of
// format 2; and the file's pages past the engine's high-water mark.
//
//	go run ./scripts/filebytes FILE
package main

import (
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"strings"

	bolt "go.etcd.io/bbolt"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: filebytes FILE")
	}
	db, err := bolt.Open(os.Args[1], 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	st, err := os.Stat(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	if err := db.View(func(tx *bolt.Tx) error {
		ps := int64(db.Info().PageSize)
		used := tx.Size()
		format := uint64(1)
		if f := tx.Bucket([]byte("meta")).Get([]byte("format")); len(f) == 8 {
			format = binary.BigEndian.Uint64(f)
		}
		fmt.Printf("%s: format %d, %d bytes: %d pages of %d used (%.1f MB), %.1f MB past them\n",
			os.Args[1], format, st.Size(), used/ps, ps, mb(used), mb(st.Size()-used))
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			switch {
			case strings.HasPrefix(string(name), "t:"):
				table(string(name[2:]), b, format)
			case string(name) == "shapes":
				n := 0
				b.ForEach(func(_, v []byte) error {
					if v != nil {
						n++
					}
					return nil
				})
				s := b.Stats()
				fmt.Printf("dictionaries: %d shapes, %.3f MB of pages\n", n, mb(int64(s.LeafAlloc+s.BranchAlloc)))
			}
			return nil
		})
	}); err != nil {
		log.Fatal(err)
	}
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// table prints where one table's bytes go.
func table(name string, b *bolt.Bucket, format uint64) {
	var n, keys, vals, named int64
	b.ForEach(func(k, v []byte) error {
		n++
		keys += int64(len(k))
		vals += int64(len(v))
		named += nameBytes(v, format)
		return nil
	})
	fmt.Printf("table %s: %d entities\n", name, n)
	if n == 0 {
		return
	}
	s := b.Stats()
	row := func(what string, x int64) {
		fmt.Printf("  %-28s %8.1f MB %7.1f B an entity\n", what, mb(x), float64(x)/float64(n))
	}
	row("keys", keys)
	row("values", vals)
	if format == 1 {
		row("  of which property names", named)
	} else {
		row("  of which names inline", named)
	}
	row("the engine's entry headers", 16*n)
	row("leaf pages", int64(s.LeafAlloc))
	row("  in use", int64(s.LeafInuse))
	row("  free inside them", int64(s.LeafAlloc-s.LeafInuse))
	row("branch pages", int64(s.BranchAlloc))
}

// nameBytes is the bytes of property names (with their lengths) in a
// value: every value's in format 1; in format 2 those of a value that
// names its properties itself (shape 0).
func nameBytes(v []byte, format uint64) int64 {
	i := 9
	if format >= 2 {
		if len(v) < 9 || v[8] != 0 {
			return 0
		}
	} else if len(v) < 9 || v[0] != 1 {
		return 0
	}
	var total int64
	for i < len(v) {
		l, w := binary.Uvarint(v[i:])
		if w <= 0 || i+w+int(l) >= len(v) {
			return total
		}
		total += int64(w) + int64(l)
		i += w + int(l)
		if i = skip(v, i+1, v[i], format); i < 0 {
			return total
		}
	}
	return total
}

// skip steps over a payload of Edm type t (odata's numbering) at v[i:].
func skip(v []byte, i int, t byte, format uint64) int {
	switch {
	case t == 1 || t == 8 || t == 7 && format == 1: // String, Binary; Guid as text
		l, w := binary.Uvarint(v[i:])
		if w <= 0 {
			return -1
		}
		return i + w + int(l)
	case t == 7:
		return i + 16
	case (t == 2 || t == 3) && format >= 2: // Int32, Int64 as varints
		_, w := binary.Varint(v[i:])
		if w <= 0 {
			return -1
		}
		return i + w
	case t == 2:
		return i + 4
	case t == 3 || t == 4 || t == 6:
		return i + 8
	case t == 5:
		return i + 1
	}
	return -1
}
