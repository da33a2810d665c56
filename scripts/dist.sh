#!/usr/bin/env bash
# make dist: the release archives and checksums.txt in dist/, by goreleaser
# (.goreleaser.yaml). Writes what the archives carry besides the binary
# into bin/release/: the man pages, the shell completions and the
# licences (the project's LICENSE when there is one, and every module
# linked into the binary on any target).
# Usage: TSTABLE_VERSION=… scripts/dist.sh GORELEASER
set -euo pipefail
cd "$(dirname "$0")/.."
goreleaser=$1
export TSTABLE_VERSION=${TSTABLE_VERSION:-$(scripts/version.sh)}
export TSTABLE_SNAPSHOT="devel-$(git rev-parse --short=12 HEAD)"
export TSTABLE_COMMIT_TIME="$(git log -1 --format=%ct HEAD)"
out=bin/release
rm -rf "$out"
mkdir -p "$out/completions" "$out/licenses"

go run ./scripts/gendocs -man "$out/man/man1" -version "$TSTABLE_VERSION"
go build -o "$out/tstable" ./cmd/tstable
"$out/tstable" completion bash > "$out/completions/tstable.bash"
"$out/tstable" completion zsh > "$out/completions/_tstable"
"$out/tstable" completion fish > "$out/completions/tstable.fish"
"$out/tstable" completion powershell > "$out/completions/tstable.ps1"
rm "$out/tstable"

if ls LICENSE* >/dev/null 2>&1; then
	cp LICENSE* "$out/licenses/"
else
	echo "warning: the project has no LICENSE file; the archives carry only the licences of the modules tstable links" >&2
fi
# Every module linked into tstable on any target, with its licence files.
notices="$out/licenses/THIRD_PARTY_LICENSES.txt"
for os in linux darwin windows; do
	GOOS=$os go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{with .Replace}} {{.Path}}{{end}}{{"\t"}}{{.Dir}}{{end}}{{end}}' ./cmd/tstable
done | sort -u | while IFS=$'\t' read -r mod dir; do
	printf '==== %s ====\n\n' "$mod"
	found=
	for f in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/COPYING* "$dir"/NOTICE*; do
		[ -f "$f" ] || continue
		cat "$f"
		echo
		found=1
	done
	[ -n "$found" ] || echo "(no licence file in the module)"
	echo
done > "$notices"
# The fork of go-prompt is a package of tstable's module (internal/prompt),
# so go list does not name it: its licence is added here.
{
	printf '==== github.com/c-bata/go-prompt v0.2.6 (forked in internal/prompt) ====\n\n'
	cat internal/prompt/LICENSE
	echo
} >> "$notices"

mode=(--snapshot)
if [[ $TSTABLE_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]]; then
	mode=()
fi
"$goreleaser" release --clean --skip=publish,announce,validate "${mode[@]}"
