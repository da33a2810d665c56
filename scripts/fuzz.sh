#!/usr/bin/env bash
# Runs every fuzz target of tstable for FUZZTIME each (default 10m), one
# after the other — go test fuzzes one target per run — and prints each
# target's executions. make fuzz runs it long; make test runs it briefly.
# Usage: FUZZTIME=30s scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
T=${FUZZTIME:-10m}
targets=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort)
for file in $targets; do
  pkg=./$(dirname "${file#./}")
  for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
    out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$T" "$pkg" 2>&1) || { echo "$out"; echo "FAIL $name ($pkg)"; exit 1; }
    execs=$(echo "$out" | sed -n 's/.*execs: \([0-9]*\).*/\1/p' | tail -1)
    echo "ok   $name ($pkg): ${execs:-0} execs in $T"
  done
done
