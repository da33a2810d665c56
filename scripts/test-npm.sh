#!/usr/bin/env bash
# make test-npm: the npm packages as a JavaScript project gets them. Installs
# the tarballs in NPM_OUT (scripts/npm.sh) offline, by path, into an empty
# project in a temporary folder; runs npx tstable --version; then the Azure
# SDK for JavaScript (@azure/data-tables, at storetest's version; the one
# thing taken from the registry) through server/testdata/sdk-e2e.cjs
# against npx tstable serve, started as a CI step starts azurite-table:
#   1. --tablePort P --inMemoryPersistence
#   2. --tableHost 127.0.0.1 --tablePort P --inMemoryPersistence --loose
#      --skipApiVersionCheck -s
# each stopped with SIGTERM to its process group (npx does not pass a
# signal on; the launcher does), after which its in-memory file must be
# gone.
# Usage: NPM_OUT=dir [TSTABLE_VERSION=the version built] scripts/test-npm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/need-node.sh
out=$(cd "${NPM_OUT:-dist/npm}" && pwd)
sdk=$(sed -n 's/^[[:space:]]*dataTablesVersion = "\(.*\)"/\1/p' storetest/azurite.go)

proj=$(mktemp -d "${TMPDIR:-/tmp}/tstable-npm-test-XXXXXX")
trap 'rm -rf "$proj"' EXIT
cd "$proj"
npm init -y >/dev/null
main=$(ls "$out"/tstable-[0-9]*.tgz)
os=$(node -p process.platform) cpu=$(node -p process.arch)
platform=$(ls "$out"/tstable-"$os-$cpu"-*.tgz)
npm install --offline --no-audit --no-fund --save-dev "$main" "$platform" >/dev/null
version=$(npx --no-install tstable --version)
echo "npx tstable --version: $version"
want=${TSTABLE_VERSION:-$(cd "$root" && scripts/version.sh)} # what the packages were built with
case "$version" in *"${want%% (*}"*) ;; *) echo "FAIL: npx tstable --version says $version, not $want" >&2; exit 1 ;; esac

npm install --no-audit --no-fund "@azure/data-tables@$sdk" >/dev/null

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# serve_and_test ARGS…: npx tstable serve ARGS on a free port, the SDK's
# test against it, SIGTERM, and no file left.
serve_and_test() {
	port=$(free_port)
	log="$proj/serve.log"
	set -m # its own process group, as a terminal's job is
	npx --no-install tstable serve --tablePort "$port" "$@" 2>"$log" &
	pid=$!
	set +m
	for _ in $(seq 200); do
		grep -q '(Ctrl-C to stop)' "$log" && break
		kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "FAIL: npx tstable serve $* exited" >&2; exit 1; }
		sleep 0.1
	done
	file=$(sed -n 's/^serving \(.*\) at .*/\1/p' "$log")
	[ -f "$file" ] || { cat "$log"; echo "FAIL: serve $* serves no file ($file)" >&2; exit 1; }
	cs="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
	if ! TSTABLE_CONNECTION_STRING=$cs NODE_PATH="$proj/node_modules" node "$root/server/testdata/sdk-e2e.cjs" >"$proj/sdk.log" 2>&1 ||
		! grep -q ' 0 failed' "$proj/sdk.log"; then
		cat "$proj/sdk.log" "$log"
		echo "FAIL: the JavaScript SDK against npx tstable serve $*" >&2
		kill -TERM -- "-$pid"
		exit 1
	fi
	kill -TERM -- "-$pid"
	wait "$pid" || true # npx itself ends with the signal
	for _ in $(seq 100); do
		grep -q 'stopped; the database is closed' "$log" && break
		sleep 0.1
	done
	grep -q 'stopped; the database is closed' "$log" || { cat "$log"; echo "FAIL: npx tstable serve $* did not stop on SIGTERM" >&2; exit 1; }
	if [ -e "$file" ] || [ -e "$(dirname "$file")" ]; then
		echo "FAIL: serve $* left $(dirname "$file") behind" >&2
		exit 1
	fi
	echo "ok   the JavaScript SDK against npx tstable serve --tablePort P $* ($(grep -o '[0-9]* passed' "$proj/sdk.log")); nothing left behind"
}
serve_and_test --inMemoryPersistence
serve_and_test --tableHost 127.0.0.1 --inMemoryPersistence --loose --skipApiVersionCheck -s
