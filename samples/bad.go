package samples

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// bad is a deliberately poor design that lint warns about on every count.
// Two tables, because a table cannot have one partition and a hot one:
//
//   - BadDesign: the day as PartitionKey (append-only keys), today's
//     partition holding 60% of the entities (hot partition), RowKeys
//     counting 1, 2, … 10 without padding, Age as Int32 in most entities
//     but as a String in every tenth, one entity with a 30,000-character
//     value and one with 230 properties (near the size limits);
//   - BadSinglePartition: every entity under PartitionKey "all".
func bad() Dataset {
	return Dataset{
		Name:        "bad",
		Summary:     "a deliberately poor design that triggers every lint warning (BadDesign, BadSinglePartition)",
		DefaultSize: 500,
		SizeUnit:    "entities",
		tables: func(size int) []Table {
			return []Table{
				{Name: "BadDesign", Entities: badEntities(size)},
				{Name: "BadSinglePartition", Entities: singlePartition(size)},
			}
		},
	}
}

// badDays is how many days BadDesign spans; the last gets hotShare of the rows.
const (
	badDays     = 8
	badHotShare = 0.6
)

func badEntities(size int) iter.Seq[*odata.Entity] {
	return func(yield func(*odata.Entity) bool) {
		r := newRand(4)
		size = max(size, 20)
		hot := int(float64(size) * badHotShare)
		day0 := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
		row := map[string]int{}
		for n := 0; n < size; n++ {
			d := badDays - 1
			if n >= hot {
				d = (n - hot) % (badDays - 1)
			}
			pk := day0.AddDate(0, 0, d).Format("2006-01-02")
			row[pk]++
			e := &odata.Entity{PartitionKey: pk, RowKey: fmt.Sprint(row[pk])}
			e.Set("Name", odata.String(pick(r, firstNames)+" "+pick(r, lastNames)))
			age := 20 + r.IntN(45)
			if n%10 == 9 {
				e.Set("Age", odata.String(fmt.Sprint(age)))
			} else {
				e.Set("Age", odata.Int32(int32(age)))
			}
			switch n {
			case 1:
				e.Set("Notes", odata.String(strings.Repeat("lorem ipsum ", 2500))) // 30,000 characters
			case 2:
				for i := 1; i <= 228; i++ {
					e.Set(fmt.Sprintf("Reading%03d", i), odata.Int32(int32(r.IntN(100))))
				}
			}
			if !yield(e) {
				return
			}
		}
	}
}

func singlePartition(size int) iter.Seq[*odata.Entity] {
	return func(yield func(*odata.Entity) bool) {
		r := newRand(5)
		w := digits(size, 6)
		for n := 1; n <= size; n++ {
			e := &odata.Entity{PartitionKey: "all", RowKey: fmt.Sprintf("%0*d", w, n)}
			e.Set("Name", odata.String(pick(r, firstNames)+" "+pick(r, lastNames)))
			e.Set("Age", odata.Int32(int32(20+r.IntN(45))))
			if !yield(e) {
				return
			}
		}
	}
}
