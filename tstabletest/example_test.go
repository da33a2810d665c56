package tstabletest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/tstabletest"
)

// A test of an application's own code, as its authors would write it: the
// application talks to the table service through the Azure SDK; the test
// points it at an in-process tstable instead of Azure or an emulator.
func TestUserCodeRoundTrip(t *testing.T) {
	s := tstabletest.NewServer(t)
	defer s.Close()
	client, err := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := client.CreateTable(ctx, "Orders", nil); err != nil {
		t.Fatal(err)
	}
	orders := client.NewClient("Orders")
	entity, _ := json.Marshal(aztables.EDMEntity{
		Entity:     aztables.Entity{PartitionKey: "customer-1", RowKey: "order-0001"},
		Properties: map[string]any{"Status": "open", "Total": 12.5, "Items": int32(3), "Ref": aztables.EDMInt64(1 << 40)},
	})
	if _, err := orders.AddEntity(ctx, entity, nil); err != nil {
		t.Fatal(err)
	}
	got, err := orders.GetEntity(ctx, "customer-1", "order-0001", nil)
	if err != nil {
		t.Fatal(err)
	}
	var e aztables.EDMEntity
	if err := json.Unmarshal(got.Value, &e); err != nil {
		t.Fatal(err)
	}
	if e.Properties["Status"] != "open" || e.Properties["Total"] != 12.5 || e.Properties["Ref"] != aztables.EDMInt64(1<<40) || time.Time(e.Timestamp).IsZero() {
		t.Errorf("read back %+v", e)
	}
}
