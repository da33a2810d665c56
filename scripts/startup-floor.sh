#!/usr/bin/env bash
# What a whole point-query process costs at its floor, beside sqlite3: the
# Go runtime alone, the store alone (scripts/startfloor/storeonly), the
# store behind one cobra command (scripts/startfloor/withcobra), and
# tstable. Each is the fastest of RUNS processes, on the same BENCH_N rows
# (keys in random order), with its ratio to sqlite3's.
# Usage: BENCH_N=1000000 RUNS=20 scripts/startup-floor.sh   (make bench-startup)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_N:-1000000}
RUNS=${RUNS:-20}
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export CGO_ENABLED=0 # as make build does
go build -o "$dir/tstable" ./cmd/tstable
for p in bare storeonly withcobra; do go build -o "$dir/$p" ./scripts/startfloor/$p; done

go run ./scripts/genrows -n "$N" -order random -jsonl "$dir/rows.jsonl" -csv "$dir/rows.csv" -schema "$dir/schema.sql"
"$dir/tstable" --db "$dir/t.db" table create Bench >/dev/null
"$dir/tstable" --db "$dir/t.db" import Bench "$dir/rows.jsonl" >/dev/null 2>&1
sqlite3 "$dir/s.db" <"$dir/schema.sql"
sqlite3 "$dir/s.db" -cmd ".mode csv" ".import --skip 1 $dir/rows.csv bench"
mid=$((N / 2))
pk=$(printf 'p%05d' $((mid / 1000))); rk=$(printf '%010d' "$mid")
filter="PartitionKey eq '$pk' and RowKey eq '$rk'"

best_of() { # cmd... → the fastest of RUNS runs, in seconds (stdout discarded)
  local best=999999 start secs
  for _ in $(seq "$RUNS"); do
    start=$EPOCHREALTIME
    "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
    secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{ printf "%.6f", b - a }')
    if awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
  done
  echo "$best"
}

sq=$(best_of sqlite3 "$dir/s.db" -json "select * from bench where pk='$pk' and rk='$rk'")
echo
echo "point query, whole process, $N rows: fastest of $RUNS runs"
echo
echo "| process                          |    time   | ÷ sqlite3 |"
echo "|----------------------------------|----------:|----------:|"
row() { awk -v w="$1" -v t="$2" -v s="$sq" 'BEGIN{ printf "| %-32s | %6.2f ms | %8.2f× |\n", w, t*1000, t/s }'; }
row "sqlite3 -json" "$sq"
row "Go runtime alone (bare)" "$(best_of "$dir/bare")"
row "store alone (storeonly)" "$(best_of "$dir/storeonly" "$dir/t.db" Bench "$filter")"
row "store + cobra (withcobra)" "$(best_of "$dir/withcobra" --db "$dir/t.db" query Bench -o jsonl --filter "$filter")"
row "tstable query -o jsonl" "$(best_of "$dir/tstable" --db "$dir/t.db" query Bench -o jsonl --filter "$filter")"
