#!/usr/bin/env bash
# Loads the same BENCH_N rows into tstable and into sqlite3 and times the
# operations people compare, for each shape of row (scripts/genrows:
# narrow, 5 properties; wide, 9; broad, 40), with the keys in random order
# (as they arrive from most sources; ORDER="random sorted" adds sorted):
# bulk load, a scan filtered on two properties (LastName eq 'Cao' and Age
# gt 70), a partition query, a full export, the file's size, 1,000 point
# lookups from a script (tstable shell < gets.txt against sqlite3 <
# gets.sql), 100 queries of a whole partition from a script (the same
# way) and one point lookup as a whole process. Every output is
# written to a file. Import and export run RUNS times, the shorter
# operations RUNS_SHORT times, tstable and sqlite3 in turn, and the table
# gives the median of each and their ratio; a last table holds each ratio
# the project sets a goal for, and whether it meets it.
# Usage: BENCH_N=1000000 [SHAPES="narrow wide broad"] [ORDER=random] [RUNS=3] [RUNS_SHORT=11] scripts/bench-peer.sh   (make bench-peer)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_N:-1000000}
SHAPES=${SHAPES:-narrow wide broad}
ORDERS=${ORDER:-random}
RUNS=${RUNS:-3}
RUNS_SHORT=${RUNS_SHORT:-11}
LOOKUPS=1000
PARTITIONS=100
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CGO_ENABLED=0 go build -o "$dir/tstable" ./cmd/tstable # as make build does
go build -o "$dir/genrows" ./scripts/genrows

run_time() { # OUT cmd... → wall seconds, to the microsecond; standard output goes to OUT
  local out=$1 start=$EPOCHREALTIME
  shift
  "$@" >"$out" 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{ printf "%.6f", b - a }'
}
median() { # numbers, one a line → their median
  sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
row() { # what tstable-seconds sqlite-seconds; the ratio is kept for the goals
  awk -v w="$1" -v t="$2" -v s="$3" 'BEGIN{ printf "| %-32s | %9.4f s | %9.4f s | %6.2f× |\n", w, t, s, t / s }'
  keep "$1" "$(awk -v t="$2" -v s="$3" 'BEGIN{ printf "%.2f", t / s }')"
}
keep() { # what ratio: one line of $dir/ratios, for the shape and order measured
  printf '%s\t%s\t%s\t%s\n' "$shape" "$order" "$1" "$2" >>"$dir/ratios"
}
# goals: each goal's ratios and whether they meet it. A goal is an
# operation, the shapes it holds for and the largest ratio it allows.
goals() {
  echo
  echo "Against the goals (tstable ÷ sqlite3 on $N rows; the goals are set for 1000000, where a process's start weighs least):"
  echo
  echo "| operation                        | shape  | order  |  ratio  |  goal   | met?    |"
  echo "|----------------------------------|--------|--------|--------:|--------:|---------|"
  while IFS='|' read -r what shapes limit; do
    awk -F'\t' -v what="$what" -v shapes=" $shapes " -v limit="$limit" '
      $3 == what && index(shapes, " " $1 " ") {
        printf "| %-32s | %-6s | %-6s | %6.2f× | ≤ %4.1f× | %-7s |\n", what, $1, $2, $4, limit, ($4 <= limit ? "met" : "NOT met")
      }' "$dir/ratios"
  done <<'GOALS'
1000 point lookups, one script|narrow wide broad|1.0
filtered scan (2 conditions)|narrow|0.9
filtered scan (2 conditions)|wide broad|1.0
100 partition queries (script)|narrow wide broad|1.0
import|narrow wide broad|1.0
export all|narrow wide broad|1.0
file size|narrow|1.1
GOALS
}
# pair WHAT RUNS TS SQ [TS-PREP SQ-PREP]: runs the functions TS and SQ in
# turn RUNS times (each PREP, untimed, before its run) and prints the row
# of their medians; their last outputs stay in ts.out and sq.out.
pair() {
  local what=$1 runs=$2 tf=$3 sf=$4 tp=${5:-true} sp=${6:-true} t=() s=()
  for _ in $(seq "$runs"); do
    $tp
    t+=("$(run_time "$dir/ts.out" "$tf")")
    $sp
    s+=("$(run_time "$dir/sq.out" "$sf")")
  done
  row "$what" "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${s[@]}" | median)"
}
# same_rows WHAT: both tools wrote the same number of rows (one a line).
same_rows() {
  local a b
  a=$(grep -c . "$dir/ts.out" || true)
  b=$(grep -c . "$dir/sq.out" || true)
  [ "$a" = "$b" ] || { echo "$1: tstable wrote $a rows and sqlite3 $b" >&2; exit 1; }
}

ts=("$dir/tstable" --db "$dir/t.db")
sq=(sqlite3 "$dir/s.db")
filter_ts="LastName eq 'Cao' and Age gt 70"
filter_sq="lastname = 'Cao' and age > 70"
ts_prep_import() { rm -f "$dir/t.db"; "${ts[@]}" table create Bench >/dev/null; }
sq_prep_import() { rm -f "$dir/s.db"; "${sq[@]}" <"$dir/schema.sql"; }
ts_import() { "${ts[@]}" import Bench "$dir/rows.jsonl"; }
sq_import() { "${sq[@]}" -cmd ".mode csv" ".import --skip 1 $dir/rows.csv bench"; }
ts_scan() { "${ts[@]}" query Bench -o jsonl --all --filter "$filter_ts"; }
sq_scan() { "${sq[@]}" -json "select * from bench where $filter_sq"; }
ts_partition() { "${ts[@]}" query Bench -o jsonl --all --filter "PartitionKey eq '$pk'"; }
sq_partition() { "${sq[@]}" -json "select * from bench where pk = '$pk'"; }
ts_export() { "${ts[@]}" export Bench -o jsonl; }
sq_export() { "${sq[@]}" -json "select * from bench"; }
ts_script() { "${ts[@]}" shell <"$dir/gets.txt"; }
sq_script() { "${sq[@]}" <"$dir/gets.sql"; }
ts_parts() { "${ts[@]}" shell <"$dir/parts.txt"; }
sq_parts() { "${sq[@]}" <"$dir/parts.sql"; }
ts_point() { "${ts[@]}" query Bench -o jsonl --filter "PartitionKey eq '$pk' and RowKey eq '$rk'"; }
sq_point() { "${sq[@]}" -json "select * from bench where pk = '$pk' and rk = '$rk'"; }

mid=$((N / 2))
pk=$(printf 'p%05d' $((mid / 1000)))
rk=$(printf '%010d' "$mid")
"$dir/genrows" -n "$N" -lookups "$LOOKUPS" -gets "$dir/gets.txt" -gets-sql "$dir/gets.sql"
"$dir/genrows" -n "$N" -partitions "$PARTITIONS" -parts "$dir/parts.txt" -parts-sql "$dir/parts.sql"
for shape in $SHAPES; do
  for order in $ORDERS; do
    "$dir/genrows" -n "$N" -shape "$shape" -order "$order" -jsonl "$dir/rows.jsonl" -csv "$dir/rows.csv" -schema "$dir/schema.sql"
    line=$(($(stat -c %s "$dir/rows.jsonl") / N))
    echo
    echo "$N $shape rows (~$line B a JSON line), keys in $order order: medians of $RUNS runs of import and export and $RUNS_SHORT of the others, tstable and sqlite3 in turn"
    echo
    echo "| operation                        |   tstable   |   sqlite3   |  ratio  |"
    echo "|----------------------------------|------------:|------------:|--------:|"
    pair "import" "$RUNS" ts_import sq_import ts_prep_import sq_prep_import
    pair "filtered scan (2 conditions)" "$RUNS_SHORT" ts_scan sq_scan
    same_rows "filtered scan"
    pair "partition query" "$RUNS_SHORT" ts_partition sq_partition
    same_rows "partition query"
    pair "export all" "$RUNS" ts_export sq_export
    same_rows "export"
    tsz=$(stat -c %s "$dir/t.db")
    ssz=$(stat -c %s "$dir/s.db")
    awk -v t="$tsz" -v s="$ssz" 'BEGIN{ printf "| %-32s | %8.1f MB | %8.1f MB | %6.2f× |\n", "file size", t / 1e6, s / 1e6, t / s }'
    keep "file size" "$(awk -v t="$tsz" -v s="$ssz" 'BEGIN{ printf "%.2f", t / s }')"
    pair "$LOOKUPS point lookups, one script" "$RUNS_SHORT" ts_script sq_script
    same_rows "point lookups"
    pair "$PARTITIONS partition queries (script)" "$RUNS_SHORT" ts_parts sq_parts
    same_rows "partition queries"
    pair "one point lookup (process)" "$RUNS_SHORT" ts_point sq_point
  done
done
goals
