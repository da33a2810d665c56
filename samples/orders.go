package samples

import (
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// orders shows compound keys and index entities:
//
//   - an order is stored under PartitionKey "cust_<customer>" and the
//     compound RowKey "<order date>_<order number>", so one customer's orders
//     of a month are one range query (RowKey ge '2024-03' and lt '2024-04');
//   - the second access path, "every order of a day", is served by index
//     entities: PartitionKey "ordersbydate_<month>", RowKey "<day>_<chunk>",
//     whose OrderKeys property lists the keys of that day's orders (at most
//     orderIndexChunk a chunk, to stay far below the 64 KiB value limit).
func orders() Dataset {
	return Dataset{
		Name:        "orders",
		Summary:     "orders under compound keys (customer / order date) plus index entities for finding the orders of a day",
		DefaultSize: 1000,
		SizeUnit:    "orders",
		tables: func(size int) []Table {
			return []Table{{Name: "Orders", Entities: orderEntities(size)}}
		},
	}
}

// orderIndexChunk is the most order keys one index entity lists.
const orderIndexChunk = 500

var orderStatuses = []string{"placed", "paid", "shipped", "delivered", "delivered", "delivered"}

func orderEntities(size int) iter.Seq[*odata.Entity] {
	return func(yield func(*odata.Entity) bool) {
		r := newRand(3)
		customers := max(1, size/10)
		cw := digits(customers, 5)
		ow := digits(size, 6)
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		byDay := map[string][]string{}
		for n := 1; n <= size; n++ {
			cust := fmt.Sprintf("cust_%0*d", cw, 1+r.IntN(customers))
			at := start.Add(time.Duration(r.Int64N(int64(366 * 24 * time.Hour))))
			day := at.Format("2006-01-02")
			e := &odata.Entity{PartitionKey: cust, RowKey: fmt.Sprintf("%s_%0*d", day, ow, n)}
			e.Set("EntityType", odata.String("Order"))
			e.Set("OrderNumber", odata.Int64(int64(n)))
			e.Set("OrderDate", odata.DateTime(at))
			e.Set("Items", odata.Int32(int32(1+r.IntN(8))))
			e.Set("Total", odata.Double(float64(500+r.IntN(50000))/100))
			e.Set("Status", odata.String(pick(r, orderStatuses)))
			byDay[day] = append(byDay[day], cust+" "+e.RowKey)
			if !yield(e) {
				return
			}
		}
		days := make([]string, 0, len(byDay))
		for d := range byDay {
			days = append(days, d)
		}
		slices.Sort(days)
		for _, d := range days {
			keys := byDay[d]
			for c := 0; c*orderIndexChunk < len(keys); c++ {
				part := keys[c*orderIndexChunk : min(len(keys), (c+1)*orderIndexChunk)]
				e := &odata.Entity{PartitionKey: "ordersbydate_" + d[:7], RowKey: fmt.Sprintf("%s_%03d", d, c+1)}
				e.Set("EntityType", odata.String("OrdersByDate"))
				e.Set("OrderCount", odata.Int32(int32(len(part))))
				e.Set("OrderKeys", odata.String(strings.Join(part, ",")))
				if !yield(e) {
					return
				}
			}
		}
	}
}
