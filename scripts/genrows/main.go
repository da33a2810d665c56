// Command genrows writes a deterministic benchmark dataset, as JSONL for
// tstable and as CSV for sqlite3, so both tools load exactly the same
// rows, in one of three shapes:
//
//	narrow  5 properties besides the keys (~140 B a JSON line)
//	wide    9 properties (~300 B)
//	broad   40 properties (~1.3 KB)
//
// Every shape has LastName (one of ten names, Cao among them) and Age (18
// to 77), so one filter (LastName eq 'Cao' and Age gt 70) asks the same
// of each. -schema writes sqlite3's CREATE TABLE for the shape, and -gets
// and -gets-sql the same point lookups of n keys at random as lines for
// tstable shell and as SELECTs for sqlite3; -parts and -parts-sql, the
// same way, queries of whole partitions drawn at random.
//
//	go run ./scripts/genrows -n 1000000 -shape narrow -order random -jsonl rows.jsonl -csv rows.csv -schema schema.sql
//	go run ./scripts/genrows -n 1000000 -lookups 1000 -gets gets.txt -gets-sql gets.sql
//	go run ./scripts/genrows -n 1000000 -partitions 100 -parts parts.txt -parts-sql parts.sql
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"
)

func main() {
	n := flag.Int("n", 1000000, "number of entities")
	perPartition := flag.Int("per-partition", 1000, "entities per partition")
	shapeName := flag.String("shape", "wide", "narrow (5 properties), wide (9) or broad (40)")
	jsonlPath := flag.String("jsonl", "", "write JSONL here")
	csvPath := flag.String("csv", "", "write CSV here (a header line of the columns, then one row an entity)")
	schemaPath := flag.String("schema", "", "write sqlite3's CREATE TABLE bench(…) for the shape here")
	order := flag.String("order", "sorted", "row order: sorted (by key) or random (the same rows shuffled, as keys arrive from most sources)")
	lookups := flag.Int("lookups", 0, "write this many point lookups of keys at random (with -gets and -gets-sql)")
	getsPath := flag.String("gets", "", "write the lookups here as tstable shell lines (get Bench PK RK -o jsonl)")
	getsSQL := flag.String("gets-sql", "", "write the lookups here as sqlite3 input (.mode json, then one SELECT a line)")
	partitions := flag.Int("partitions", 0, "write this many queries of a whole partition drawn at random (with -parts and -parts-sql)")
	partsPath := flag.String("parts", "", "write the partition queries here as tstable shell lines (query Bench --filter \"PartitionKey eq 'PK'\" --all -o jsonl)")
	partsSQL := flag.String("parts-sql", "", "write the partition queries here as sqlite3 input (.mode json, then one SELECT a line)")
	flag.Parse()
	sh, ok := shapes[*shapeName]
	if !ok {
		log.Fatalf("-shape must be narrow, wide or broad; got %q", *shapeName)
	}
	if *order != "sorted" && *order != "random" {
		log.Fatalf("-order must be sorted or random; got %q", *order)
	}
	k := keys{perPartition: *perPartition}
	if *schemaPath != "" {
		write(*schemaPath, func(w *bufio.Writer) { w.WriteString(sh.schema()) })
	}
	if *lookups > 0 {
		writeLookups(k, *n, *lookups, *getsPath, *getsSQL)
	}
	if *partitions > 0 {
		writePartitionQueries(k, *n, *partitions, *partsPath, *partsSQL)
	}
	if *jsonlPath == "" && *csvPath == "" {
		return
	}
	var perm []int
	if *order == "random" {
		perm = rand.New(rand.NewPCG(1, 2)).Perm(*n) // the same shuffle every run
	}
	writeRows(sh, k, *n, perm, *jsonlPath, *csvPath)
}

// writeRows writes entities 0..n-1 (in perm's order when set) as JSONL
// and CSV, to the paths that are not "".
func writeRows(sh shape, k keys, n int, perm []int, jsonlPath, csvPath string) {
	var jw, cw *bufio.Writer
	if jsonlPath != "" {
		jf := create(jsonlPath)
		defer closeFile(jf)
		jw = bufio.NewWriterSize(jf, 1<<20)
		defer flush(jw)
	}
	if csvPath != "" {
		cf := create(csvPath)
		defer closeFile(cf)
		cw = bufio.NewWriterSize(cf, 1<<20)
		defer flush(cw)
		cw.WriteString(sh.csvHeader())
	}
	var jl, cl []byte
	for j := 0; j < n; j++ {
		i := j
		if perm != nil {
			i = perm[j]
		}
		pk, rk := k.of(i)
		if jw != nil {
			jl = sh.appendJSON(jl[:0], pk, rk, i)
			jw.Write(jl)
		}
		if cw != nil {
			cl = sh.appendCSV(cl[:0], pk, rk, i)
			cw.Write(cl)
		}
	}
}

// keys are the PartitionKey and RowKey of entity i.
type keys struct{ perPartition int }

func (k keys) of(i int) (pk, rk string) {
	return fmt.Sprintf("p%05d", i/k.perPartition), fmt.Sprintf("%010d", i)
}

// writePartitionQueries writes count queries of a whole partition, drawn
// at random among the partitions of n entities, the same for both tools.
func writePartitionQueries(k keys, n, count int, partsPath, sqlPath string) {
	rnd := rand.New(rand.NewPCG(5, 6))
	pks := make([]string, count)
	for q := range pks {
		pks[q], _ = k.of(rnd.IntN(n))
	}
	writeScripts(partsPath, sqlPath, count,
		func(q int) string {
			return fmt.Sprintf("query Bench --filter \"PartitionKey eq '%s'\" --all -o jsonl", pks[q])
		},
		func(q int) string { return fmt.Sprintf("select * from bench where pk='%s';", pks[q]) })
}

// writeLookups writes count point lookups of entities drawn at random
// among n, the same keys for both tools.
func writeLookups(k keys, n, count int, getsPath, sqlPath string) {
	rnd := rand.New(rand.NewPCG(3, 4))
	picked := make([][2]string, count)
	for g := range picked {
		picked[g][0], picked[g][1] = k.of(rnd.IntN(n))
	}
	writeScripts(getsPath, sqlPath, count,
		func(g int) string { return fmt.Sprintf("get Bench %s %s -o jsonl", picked[g][0], picked[g][1]) },
		func(g int) string {
			return fmt.Sprintf("select * from bench where pk='%s' and rk='%s';", picked[g][0], picked[g][1])
		})
}

// writeScripts writes count requests, a line each, as tstable shell lines
// (tsLine) to tsPath and as sqlite3 input (.mode json, then sqlLine) to
// sqlPath, each when its path is not "".
func writeScripts(tsPath, sqlPath string, count int, tsLine, sqlLine func(i int) string) {
	if tsPath != "" {
		write(tsPath, func(w *bufio.Writer) {
			for i := range count {
				w.WriteString(tsLine(i) + "\n")
			}
		})
	}
	if sqlPath != "" {
		write(sqlPath, func(w *bufio.Writer) {
			w.WriteString(".mode json\n")
			for i := range count {
				w.WriteString(sqlLine(i) + "\n")
			}
		})
	}
}

func create(path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	return f
}

func closeFile(f *os.File) {
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func flush(w *bufio.Writer) {
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}

// write creates path and writes it with fn.
func write(path string, fn func(w *bufio.Writer)) {
	f := create(path)
	w := bufio.NewWriter(f)
	fn(w)
	flush(w)
	closeFile(f)
}

// the words the columns are made of
var (
	firstNames = []string{"Don", "Jun", "Ken", "Ana", "Li", "Eva", "Raj", "Mia", "Tom", "Zoe", "Ali", "Kim"}
	lastNames  = []string{"Hall", "Cao", "Kwok", "Silva", "Wei", "Novak", "Patel", "Rossi", "Berg", "Okafor"}
	cities     = []string{"Lisbon", "Osaka", "Lagos", "Quito", "Oslo", "Perth", "Hanoi", "Dakar", "Turin"}
	words      = strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore")
)

// tables of mixed columns the broad shape adds, 35 of them
func broadExtras() []column {
	var cs []column
	for c := 0; c < 35; c++ {
		c := c
		switch c % 5 {
		case 0:
			cs = append(cs, column{fmt.Sprintf("Count%02d", c), kInt, func(i int) any { return (i*(c+7) + c) % 100000 }})
		case 1:
			cs = append(cs, column{fmt.Sprintf("Ratio%02d", c), kDouble, func(i int) any { return float64((i*(c+13))%100000) / 64 }})
		case 2:
			cs = append(cs, column{fmt.Sprintf("Flag%02d", c), kBool, func(i int) any { return (i+c)%3 == 0 }})
		case 3:
			cs = append(cs, column{fmt.Sprintf("Code%02d", c), kString, func(i int) any { return fmt.Sprintf("c%02d-%08d-%06x", c, (i*31+c)%10000000, (i*2654435761)%0xffffff) }})
		default:
			cs = append(cs, column{fmt.Sprintf("Text%02d", c), kString, func(i int) any {
				return fmt.Sprintf("%s %s %s %s %s %06d", words[(i+c)%len(words)], words[(i/3+c)%len(words)], words[(i/7+c)%len(words)], words[(i/11+c)%len(words)], words[(i/13+c)%len(words)], i%1000000)
			}})
		}
	}
	return cs
}
