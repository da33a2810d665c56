#!/usr/bin/env bash
# Loads the same BENCH_N rows into tstable and into sqlite3 and times the
# operations people compare — bulk load, a point query (whole process), a
# filtered table scan, a partition query and a full export — with the keys
# in random order (as they arrive from most sources) and sorted, then prints
# for each order a table of tstable's time, sqlite3's and their ratio.
# Usage: BENCH_N=1000000 [ORDER="random sorted"] scripts/bench-peer.sh   (make bench-peer)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_N:-1000000}
ORDERS=${ORDER:-random sorted}
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CGO_ENABLED=0 go build -o "$dir/tstable" ./cmd/tstable   # as make build does

run_time() { # cmd... → wall seconds, to the microsecond (stdout discarded)
  local start=$EPOCHREALTIME
  "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{ printf "%.4f", b - a }'
}
best_of() { # runs cmd... → the fastest run's seconds
  local runs=$1 best=999999 secs; shift
  for _ in $(seq "$runs"); do
    secs=$(run_time "$@")
    if awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
  done
  echo "$best"
}
row() { # what tstable-seconds sqlite-seconds
  awk -v w="$1" -v t="$2" -v s="$3" 'BEGIN{ r = (s > 0) ? sprintf("%.2f×", t/s) : "—"; printf "| %-22s | %8.4f s | %8.4f s | %7s |\n", w, t, s, r }'
}

for order in $ORDERS; do
  go run ./scripts/genrows -n "$N" -order "$order" -jsonl "$dir/rows.jsonl" -csv "$dir/rows.csv"
  rm -f "$dir/t.db" "$dir/s.db"
  ts=("$dir/tstable" --db "$dir/t.db")
  sq=(sqlite3 "$dir/s.db")
  "${ts[@]}" table create Bench >/dev/null
  "${sq[@]}" "create table bench(pk text, rk text, name text, age int, score real, email text, note text, active int, joined text, primary key(pk, rk)) without rowid;"
  echo
  echo "$N rows, keys in $order order ($(du -h "$dir/rows.jsonl" | cut -f1) JSONL)"
  echo
  echo "| operation              |  tstable   |  sqlite3   |  ratio  |"
  echo "|------------------------|-----------:|-----------:|--------:|"
  row "import" "$(run_time "${ts[@]}" import Bench "$dir/rows.jsonl")" \
    "$(run_time "${sq[@]}" -cmd ".mode csv" ".import --skip 1 $dir/rows.csv bench")"
  mid=$((N / 2))
  pk=$(printf 'p%05d' $((mid / 1000))); rk=$(printf '%010d' "$mid")
  row "point query (process)" "$(best_of 10 "${ts[@]}" query Bench -o jsonl --filter "PartitionKey eq '$pk' and RowKey eq '$rk'")" \
    "$(best_of 10 "${sq[@]}" -json "select * from bench where pk='$pk' and rk='$rk'")"
  row "scan, 1-prop filter" "$(best_of 3 "${ts[@]}" query Bench -o jsonl --all --filter "Age eq 30")" \
    "$(best_of 3 "${sq[@]}" -json "select * from bench where age=30")"
  row "partition query" "$(best_of 3 "${ts[@]}" query Bench -o jsonl --all --filter "PartitionKey eq '$pk'")" \
    "$(best_of 3 "${sq[@]}" -json "select * from bench where pk='$pk'")"
  row "export all" "$(run_time "${ts[@]}" export Bench -o jsonl)" "$(run_time "${sq[@]}" -json "select * from bench")"
  tsz=$(stat -c %s "$dir/t.db"); ssz=$(stat -c %s "$dir/s.db")
  awk -v t="$tsz" -v s="$ssz" 'BEGIN{ printf "| %-22s | %7.1f MB | %7.1f MB | %6.2f× |\n", "file size", t/1e6, s/1e6, t/s }'
done
