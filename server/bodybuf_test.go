package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestAnswersBuiltInKeptBuffersKeepToTheirOwn: gets and pages of
// entities of very different sizes (a few bytes to past the largest
// buffer kept), eight clients at once, each answer holding exactly its
// own entities — no bytes of an answer built before it in the same
// buffer, none of one another's.
func TestAnswersBuiltInKeptBuffersKeepToTheirOwn(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Sizes")
	sizes := []int{1, 10, 300, 5000, 30000, 300000} // the last past the largest buffer kept
	for i, n := range sizes {
		c.insert("Sizes", fmt.Sprintf(`{"PartitionKey":"p","RowKey":"r%d",%s}`, i, texts(i, n)))
		// a second partition whose page is larger than any buffer kept
		for j := 0; j < 5; j++ {
			c.insert("Sizes", fmt.Sprintf(`{"PartitionKey":"q","RowKey":"r%d-%d",%s}`, i, j, texts(i, n)))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 60; k++ {
				i := (w + k) % len(sizes)
				if k%5 == 4 {
					errs <- checkPage(c, sizes)
					continue
				}
				r, err := c.expect(200, "GET", fmt.Sprintf("/Sizes(PartitionKey='p',RowKey='r%d')", i), nil)
				if err == nil {
					err = checkText(r.body, i, sizes[i])
				}
				errs <- err
			}
		}()
	}
	go func() { wg.Wait(); close(errs) }()
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// texts are the properties of entity i: n times its letter, in strings
// of at most 30,000 (a property holds at most 32 K characters), named T0,
// T1 and on.
func texts(i, n int) string {
	var ps []string
	for k := 0; n > 0; k++ {
		m := min(n, 30000)
		ps = append(ps, fmt.Sprintf(`"T%d":%q`, k, strings.Repeat(string(rune('a'+i)), m)))
		n -= m
	}
	return strings.Join(ps, ",")
}

// textOf is what an entity's properties T0, T1 ... hold, in order.
func textOf(e map[string]any) string {
	var b strings.Builder
	for k := 0; ; k++ {
		v, ok := e[fmt.Sprintf("T%d", k)].(string)
		if !ok {
			return b.String()
		}
		b.WriteString(v)
	}
}

// checkText: body is entity i's JSON, its text n times its letter.
func checkText(body string, i, n int) error {
	var e map[string]any
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		return fmt.Errorf("entity r%d: %v in %.200q", i, err, body)
	}
	if text := textOf(e); e["RowKey"] != fmt.Sprintf("r%d", i) || text != strings.Repeat(string(rune('a'+i)), n) {
		return fmt.Errorf("entity r%d came back as %v with %d bytes of text", i, e["RowKey"], len(text))
	}
	return nil
}

// checkPage: the page of partition q holds its entities, each whole.
func checkPage(c *client, sizes []int) error {
	r, err := c.expect(200, "GET", "/Sizes()?$filter=PartitionKey%20eq%20'q'", nil)
	if err != nil {
		return err
	}
	var page struct{ Value []map[string]any }
	if err := json.Unmarshal([]byte(r.body), &page); err != nil {
		return fmt.Errorf("page: %v in %.200q", err, r.body)
	}
	if len(page.Value) != 5*len(sizes) {
		return fmt.Errorf("page: %d entities, want %d", len(page.Value), 5*len(sizes))
	}
	for _, e := range page.Value {
		var i, j int
		rk, _ := e["RowKey"].(string)
		if _, err := fmt.Sscanf(rk, "r%d-%d", &i, &j); err != nil || textOf(e) != strings.Repeat(string(rune('a'+i)), sizes[i]) {
			return fmt.Errorf("page: entity %s with %d bytes of text", rk, len(textOf(e)))
		}
	}
	return nil
}
