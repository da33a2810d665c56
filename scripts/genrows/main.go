// Command genrows writes a deterministic benchmark dataset of about
// 200-byte entities, as JSONL for tstable and as CSV for sqlite3, so both
// tools load exactly the same rows.
//
//	go run ./scripts/genrows -n 1000000 -jsonl rows.jsonl -csv rows.csv [-order random]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
)

func main() {
	n := flag.Int("n", 1000000, "number of entities")
	perPartition := flag.Int("per-partition", 1000, "entities per partition")
	jsonlPath := flag.String("jsonl", "", "write JSONL here")
	csvPath := flag.String("csv", "", "write CSV here (header: pk,rk,name,age,score,email,note,active,joined)")
	order := flag.String("order", "sorted", "row order: sorted (by key) or random (the same rows shuffled, as keys arrive from most sources)")
	flag.Parse()
	if *order != "sorted" && *order != "random" {
		log.Fatalf("-order must be sorted or random; got %q", *order)
	}
	var perm []int
	if *order == "random" {
		perm = rand.New(rand.NewPCG(1, 2)).Perm(*n) // the same shuffle every run
	}

	var jw, cw *bufio.Writer
	if *jsonlPath != "" {
		f, err := os.Create(*jsonlPath)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		jw = bufio.NewWriterSize(f, 1<<20)
		defer jw.Flush()
	}
	if *csvPath != "" {
		f, err := os.Create(*csvPath)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		cw = bufio.NewWriterSize(f, 1<<20)
		defer cw.Flush()
		fmt.Fprintln(cw, "pk,rk,name,age,score,email,note,active,joined")
	}
	for j := 0; j < *n; j++ {
		i := j
		if perm != nil {
			i = perm[j]
		}
		pk := fmt.Sprintf("p%05d", i / *perPartition)
		rk := fmt.Sprintf("%010d", i)
		name := fmt.Sprintf("name%07d", (i*7919)%1000003)
		age := 18 + (i*31)%60
		score := float64((i*131)%100000) / 100.5
		email := fmt.Sprintf("user%07d@example.com", i)
		note := fmt.Sprintf("note %08d lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod", i)
		active := i%3 == 0
		joined := fmt.Sprintf("20%02d-%02d-%02dT10:20:30Z", 10+i%15, 1+i%12, 1+i%28)
		if jw != nil {
			fmt.Fprintf(jw, `{"PartitionKey":%q,"RowKey":%q,"Name":%q,"Age":%d,"Score@odata.type":"Edm.Double","Score":%g,"Email":%q,"Note":%q,"Active":%t,"Joined@odata.type":"Edm.DateTime","Joined":%q}`+"\n",
				pk, rk, name, age, score, email, note, active, joined)
		}
		if cw != nil {
			fmt.Fprintf(cw, "%s,%s,%s,%d,%g,%s,%s,%d,%s\n", pk, rk, name, age, score, email, note, map[bool]int{true: 1}[active], joined)
		}
	}
}
