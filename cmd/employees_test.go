package cmd

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
)

// employeesPath is the design guide's Marketing/Sales example, grown to a
// few hundred employees with a property of every Edm type.
var employeesPath = filepath.Join("..", "testdata", "employees.jsonl")

// employeeRows is how many entities generateEmployees writes.
const employeeRows = 480

// generateEmployees builds testdata/employees.jsonl deterministically:
// departments are partitions, RowKeys are zero-padded employee ids, and
// the properties cover String (with empty values), Int32, Int64 (with the
// extremes), Double (with NaN and ±Infinity), Boolean, DateTime (with the
// service's minimum and maximum), Guid and Binary (with NUL bytes).
func generateEmployees() []byte {
	depts := []string{"Engineering", "Finance", "Marketing", "Sales"}
	first := []string{"Don", "Jun", "Ken", "Ana", "Li", "Eva", "Raj", "Mia", "Tom", "Zoe", "Ali", "Kim"}
	last := []string{"Hall", "Cao", "Kwok", "Silva", "Wei", "Novak", "Patel", "Rossi", "Berg", "Okafor"}
	var out []byte
	for i := 0; i < employeeRows; i++ {
		d := depts[i%len(depts)]
		fn, ln := first[(i*7)%len(first)], last[(i*11)%len(last)]
		e := &odata.Entity{PartitionKey: d, RowKey: fmt.Sprintf("%06d", 100000+i*37%900000)}
		e.Set("FirstName", odata.String(fn))
		e.Set("LastName", odata.String(ln))
		e.Set("Age", odata.Int32(int32(21+(i*13)%45)))
		e.Set("Email", odata.String(fmt.Sprintf("%s.%s%d@contoso.com", fn, ln, i)))
		salary := int64(40000+(i*7919)%160000) * 1_000_000
		switch i {
		case 7:
			salary = math.MaxInt64
		case 11:
			salary = math.MinInt64
		}
		e.Set("Salary", odata.Int64(salary))
		rating := float64((i*31)%50) / 10
		switch i % 97 {
		case 5:
			rating = math.NaN()
		case 6:
			rating = math.Inf(1)
		case 7:
			rating = math.Inf(-1)
		case 8:
			rating = 0.1 + 0.2
		}
		e.Set("Rating", odata.Double(rating))
		e.Set("Active", odata.Bool(i%5 != 0))
		hired := time.Date(2000+i%24, time.Month(1+i%12), 1+i%28, i%24, (i*7)%60, (i*13)%60, (i*7919)%1_000_000_0*100, time.UTC)
		switch i {
		case 3:
			hired = odata.TimeOfTicks(odata.MinDateTimeTicks)
		case 4:
			hired = odata.TimeOfTicks(odata.MaxDateTimeTicks)
		}
		e.Set("HireDate", odata.DateTime(hired))
		g, _ := odata.Guid(fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i*2654435761%(1<<32), i%65536, i%4096, (i*3)%4096, i*40503))
		e.Set("EmployeeId", g)
		if i%3 == 0 {
			e.Set("Badge", odata.Binary([]byte{byte(i), 0, byte(i >> 8), 0xff, 0}))
		}
		if i%4 == 1 {
			note := ""
			if i%8 == 1 {
				note = fmt.Sprintf("reviewed %d, \"exceeds\"; moved from %s\n", 2010+i%14, depts[(i+1)%len(depts)])
			}
			e.Set("Notes", odata.String(note))
		}
		out = odata.AppendEntityJSON(out, e)
		out = append(out, '\n')
	}
	return out
}

// The committed fixture is what the generator writes (-update rewrites it).
func TestEmployeesFixture(t *testing.T) {
	want := generateEmployees()
	if *update {
		if err := os.WriteFile(employeesPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(employeesPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is not what generateEmployees writes; run go test ./cmd -run TestEmployeesFixture -update", employeesPath)
	}
}
