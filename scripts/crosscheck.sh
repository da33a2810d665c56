#!/usr/bin/env bash
# Every supported target builds, and every package, tests included, passes
# go vet for it (which type-checks each test file): a call that exists on
# one system only cannot land. make test runs this; the host's own target
# is vetted by make vet.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TARGETS=${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
host="$($GO env GOOS)/$($GO env GOARCH)"
for t in $TARGETS; do
	export GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0
	echo "crosscheck: $t"
	$GO build -o /dev/null ./cmd/tstable
	if [ "$t" != "$host" ]; then
		$GO vet ./...
	fi
done
