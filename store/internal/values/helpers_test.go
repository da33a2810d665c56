package values

import (
	"math"

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

// narrowRow is one narrow row of make bench-peer: five properties, about
// 150 bytes as JSON.
func narrowRow() *odata.Entity {
	return ent("p00000", "0000000000",
		prop("FirstName", odata.String("Don")), prop("LastName", odata.String("Cao")), prop("Age", odata.Int32(18)),
		prop("Email", odata.String("don.cao0@example.com")), prop("City", odata.String("Lisbon")))
}
