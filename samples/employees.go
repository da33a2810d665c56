package samples

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// employees is the design guide's example: employees of two departments,
// Marketing and Sales, one partition each. Each partition holds
//
//   - one department entity (RowKey "department", EntityType "Department");
//   - each employee under RowKey "empid_<id>", the id zero-padded to six
//     digits (or more for larger sizes), with a property of every Edm type;
//   - a copy of each employee under RowKey "email_<address>": the
//     intra-partition secondary index, so that a lookup by email is a point
//     query too.
//
// EntityType tells the kinds apart ("Department", "Employee", and
// "EmployeeByEmail" for the index copies).
func employees() Dataset {
	return Dataset{
		Name:        "employees",
		Summary:     "the design guide's Marketing/Sales employees: every Edm type, department entities beside employees, an email_ secondary index",
		DefaultSize: 200,
		SizeUnit:    "employees",
		tables: func(size int) []Table {
			return []Table{{Name: "Employees", Entities: employeeEntities(size)}}
		},
	}
}

// Departments of the employees sample.
var departments = []string{"Marketing", "Sales"}

func employeeEntities(size int) iter.Seq[*odata.Entity] {
	return func(yield func(*odata.Entity) bool) {
		r := newRand(1)
		width := digits(size, 6)
		for i, d := range departments {
			e := &odata.Entity{PartitionKey: d, RowKey: "department"}
			e.Set("EntityType", odata.String("Department"))
			e.Set("DepartmentName", odata.String(d))
			e.Set("EmployeeCount", odata.Int32(int32(departmentSize(size, i))))
			if !yield(e) {
				return
			}
		}
		seen := map[string]int{}
		base := time.Date(2010, 1, 4, 9, 0, 0, 0, time.UTC)
		for n := 1; n <= size; n++ {
			dept := departments[n%len(departments)]
			first, last := pick(r, firstNames), pick(r, lastNames)
			if n == 1 {
				first, last = "John", "Jones" // the guide's jonesj@contoso.com, in Sales
			}
			if n == 2 {
				first, last = "Jane", "Jones" // and a Jones in Marketing
			}
			local := strings.ToLower(asciiFold(last) + first[:1])
			seen[local]++
			if k := seen[local]; k > 1 {
				local = fmt.Sprintf("%s%d", local, k)
			}
			email := local + "@contoso.com"
			id := fmt.Sprintf("%0*d", width, n)
			guid := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Uint64()&(1<<48-1))
			gv, _ := odata.Guid(guid)
			photo := make([]byte, 16)
			for j := range photo {
				photo[j] = byte(r.IntN(256))
			}
			e := &odata.Entity{PartitionKey: dept, RowKey: "empid_" + id}
			e.Set("EntityType", odata.String("Employee"))
			e.Set("FirstName", odata.String(first))
			e.Set("LastName", odata.String(last))
			e.Set("Age", odata.Int32(int32(22+r.IntN(43))))
			e.Set("Email", odata.String(email))
			e.Set("HireDate", odata.DateTime(base.AddDate(0, 0, r.IntN(5000))))
			e.Set("Salary", odata.Double(float64(38000+r.IntN(90)*1000)+0.5))
			e.Set("EmployeeID", odata.Int64(int64(n)))
			e.Set("Id", gv)
			e.Set("Photo", odata.Binary(photo))
			e.Set("IsActive", odata.Bool(r.IntN(10) != 0))
			if !yield(e) {
				return
			}
			c := e.Clone()
			c.RowKey = "email_" + email
			c.Set("EntityType", odata.String("EmployeeByEmail"))
			if !yield(c) {
				return
			}
		}
	}
}

// asciiFold replaces the few non-ASCII letters of the sample names, so
// email addresses stay plain.
func asciiFold(s string) string {
	return strings.NewReplacer("ü", "ue", "ö", "oe", "ä", "ae").Replace(s)
}

// departmentSize is how many of size employees department i gets
// (employee n goes to department n mod 2).
func departmentSize(size, i int) int {
	c := 0
	for n := 1; n <= size; n++ {
		if n%len(departments) == i {
			c++
		}
	}
	return c
}
