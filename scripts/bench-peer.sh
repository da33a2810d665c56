#!/usr/bin/env bash
# Loads the same BENCH_N rows into tstable and into sqlite3 and times the
# operations people compare: bulk load, a point query (whole process), a
# filtered table scan and a full export. Prints one line per measurement:
#   <what> <tool> <seconds> <peak RSS KiB>
# Usage: BENCH_N=1000000 scripts/bench-peer.sh   (make bench-peer)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_N:-1000000}
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/tstable" ./cmd/tstable
go run ./scripts/genrows -n "$N" -jsonl "$dir/rows.jsonl" -csv "$dir/rows.csv"
ts=("$dir/tstable" --db "$dir/t.db")
sq=(sqlite3 "$dir/s.db")

measure() { # what tool cmd...
  local what=$1 tool=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
  read -r secs rss <"$dir/time"
  printf '%-22s %-8s %8.3f s %8d KiB\n' "$what" "$tool" "$secs" "$rss"
}
best_of() { # runs what tool cmd... 'runs' times, keeps the fastest
  local runs=$1 what=$2 tool=$3; shift 3
  local best=999999 bestrss=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
    read -r secs rss <"$dir/time"
    if awk "BEGIN{exit !($secs < $best)}"; then best=$secs bestrss=$rss; fi
  done
  printf '%-22s %-8s %8.3f s %8d KiB  (best of %d)\n' "$what" "$tool" "$best" "$bestrss" "$runs"
}

echo "rows: $N ($(du -h "$dir/rows.jsonl" | cut -f1) JSONL)"
"${ts[@]}" table create Bench >/dev/null
measure "load" tstable "${ts[@]}" import Bench "$dir/rows.jsonl"
"${sq[@]}" "create table bench(pk text, rk text, name text, age int, score real, email text, note text, active int, joined text, primary key(pk, rk)) without rowid;"
measure "load" sqlite3 "${sq[@]}" -cmd ".mode csv" ".import --skip 1 $dir/rows.csv bench"

mid=$((N / 2))
pk=$(printf 'p%05d' $((mid / 1000))); rk=$(printf '%010d' "$mid")
best_of 10 "point query" tstable "${ts[@]}" query Bench -o jsonl --filter "PartitionKey eq '$pk' and RowKey eq '$rk'"
best_of 10 "point query" sqlite3 "${sq[@]}" -json "select * from bench where pk='$pk' and rk='$rk'"

best_of 3 "scan, 1-prop filter" tstable "${ts[@]}" query Bench -o jsonl --all --filter "Name eq 'name0000000'"
best_of 3 "scan, 1-prop filter" sqlite3 "${sq[@]}" -json "select * from bench where name='name0000000'"

best_of 3 "partition query" tstable "${ts[@]}" query Bench -o jsonl --all --filter "PartitionKey eq '$pk'"
best_of 3 "partition query" sqlite3 "${sq[@]}" -json "select * from bench where pk='$pk'"

measure "export all" tstable "${ts[@]}" export Bench -o jsonl
measure "export all" sqlite3 "${sq[@]}" -json "select * from bench"
echo "files: tstable $(du -h "$dir/t.db" | cut -f1), sqlite3 $(du -h "$dir/s.db" | cut -f1)"
