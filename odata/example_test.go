package odata_test

import (
	"fmt"

	"github.com/tstable/tstable/odata"
)

func ExampleParseFilter() {
	f, err := odata.ParseFilter("'S' le RowKey and PartitionKey eq 'Sales'")
	if err != nil {
		panic(err)
	}
	e := &odata.Entity{PartitionKey: "Sales", RowKey: "Smith"}
	fmt.Println(f)
	fmt.Println(f.Match(e), f.Properties())
	// Output:
	// RowKey ge 'S' and PartitionKey eq 'Sales'
	// true [PartitionKey RowKey]
}

func ExampleSyntaxError() {
	_, err := odata.ParseFilter("PartitionKey eq 'Sales' and RowKey eq )")
	se := err.(*odata.SyntaxError)
	fmt.Println(se)
	fmt.Println(se.Caret())
	// Output:
	// column 39: expected a value after 'eq', found ')'
	// PartitionKey eq 'Sales' and RowKey eq )
	//                                       ^
}

func ExamplePlanQuery() {
	f, _ := odata.ParseFilter("PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'")
	p := odata.PlanQuery(f)
	fmt.Println(p.Class, p.Ranges[0])
	fmt.Print(odata.Explain(p, 12, 12, 1).Text())
	// Output:
	// range PartitionKey = 'Sales', RowKey in ['S', 'T')
	// range query · read PartitionKey = 'Sales', RowKey in ['S', 'T') · scanned 12, returned 12 (density 100%) · 1 page
	// why: PartitionKey is fixed by eq and RowKey is bounded, so the service reads one run of keys inside partition 'Sales'.
	// advice: Good shape: keep the RowKey range as tight as the question allows; RowKey prefixes (such as 'email_') let one range read just one kind of entity.
}

func ExampleEncodeContinuation() {
	scope := "Employees|" + "PartitionKey eq 'Sales'"
	tok := odata.EncodeContinuation(odata.Key{PartitionKey: "Sales", RowKey: "000124"}, scope, odata.KeyContinuation)
	k, _, err := odata.DecodeContinuation(tok, scope)
	fmt.Println(k.PartitionKey, k.RowKey, err)
	_, _, err = odata.DecodeContinuation(tok, "Managers|"+"PartitionKey eq 'Sales'")
	fmt.Println(err)
	// Output:
	// Sales 000124 <nil>
	// continuation token is not valid for this query (was it from another table or filter?)
}
