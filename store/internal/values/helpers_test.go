package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/tstable/tstable/odata"
)

func prop(name string, v odata.Value) odata.Property { return odata.Property{Name: name, Value: v} }

// sameValue compares two values to the bit (a NaN equals itself).
func sameValue(a, b odata.Value) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == odata.EdmDouble {
		return math.Float64bits(a.Float) == math.Float64bits(b.Float)
	}
	return a == b
}

func ent(pk, rk string, props ...odata.Property) *odata.Entity {
	return &odata.Entity{PartitionKey: pk, RowKey: rk, Properties: props}
}

// narrowRows are n entities of five properties (~150 bytes as JSON), keys
// in random order: the narrow rows of make bench-peer, at a test's size
// (as the store's tests make them).
func narrowRows(n int) []*odata.Entity {
	first := []string{"Don", "Jun", "Ken", "Ana", "Li", "Eva", "Raj", "Mia", "Tom", "Zoe", "Ali", "Kim"}
	last := []string{"Hall", "Cao", "Kwok", "Silva", "Wei", "Novak", "Patel", "Rossi", "Berg", "Okafor"}
	cities := []string{"Lisbon", "Osaka", "Lagos", "Quito", "Oslo", "Perth", "Hanoi", "Dakar", "Turin"}
	es := make([]*odata.Entity, n)
	for j, i := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		f, l := first[(i*7)%len(first)], last[(i*2654435761>>7)%len(last)]
		es[j] = ent(fmt.Sprintf("p%05d", i/1000), fmt.Sprintf("%010d", i),
			prop("FirstName", odata.String(f)), prop("LastName", odata.String(l)), prop("Age", odata.Int32(int32(18+i%60))),
			prop("Email", odata.String(fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(f), strings.ToLower(l), i))), prop("City", odata.String(cities[(i*5)%len(cities)])))
	}
	return es
}
