#!/usr/bin/env bash
# copy of BENCH_REMOTE_N (default 100000) entities from a local file to
# Azurite, against the Azure SDK for JavaScript loading the same rows in
# batches of 100 into the same Azurite, in the same run.
# Usage: make bench-remote
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_REMOTE_N:-100000}
AZ=${TSTABLE_AZURITE_DIR:-$HOME/.cache/tstable-azurite}
if [ ! -x "$AZ/node_modules/.bin/azurite-table" ]; then
  mkdir -p "$AZ" && (cd "$AZ" && npm install --no-audit --no-fund azurite@3.37.0 @azure/data-tables@13.3.2 >/dev/null)
fi
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$AZ/node_modules/.bin/azurite-table" --tableHost 127.0.0.1 --tablePort "$port" --inMemoryPersistence --disableTelemetry --skipApiVersionCheck >"$dir/azurite.log" 2>&1 &
azpid=$!
trap 'kill $azpid 2>/dev/null; rm -rf "$dir"' EXIT
cs="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
for _ in $(seq 100); do curl -s "http://127.0.0.1:$port/devstoreaccount1/Tables" >/dev/null && break; sleep 0.1; done
go build -o "$dir/tstable" ./cmd/tstable
go run ./scripts/genrows -n "$N" -jsonl "$dir/rows.jsonl" -csv "$dir/rows.csv"
"$dir/tstable" --db "$dir/t.db" table create Bench >/dev/null
"$dir/tstable" --db "$dir/t.db" import Bench "$dir/rows.jsonl" >/dev/null
start=$(date +%s.%N)
XDG_STATE_HOME="$dir/state" "$dir/tstable" --db "$dir/t.db" copy Bench --to-connection-string "$cs" --to-table CopyBench 2>/dev/null
end=$(date +%s.%N)
ts=$(python3 -c "print(round($N/($end-$start)))")
printf 'tstable copy    %d entities  %.3f s  %d entities/s\n' "$N" "$(python3 -c "print($end-$start)")" "$ts"
read -r n secs js < <(NODE_PATH="$AZ/node_modules" node scripts/bench-remote.js "$cs" JsBench "$dir/rows.jsonl")
printf 'JS SDK load     %d entities  %.3f s  %d entities/s\n' "$n" "$secs" "$js"
python3 -c "print('ratio tstable/JS: %.2f' % ($ts/$js))"
