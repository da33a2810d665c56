#!/usr/bin/env bash
# make npm: the npm packages, as tarballs (npm pack) in NPM_OUT (default
# dist/npm): tstable, the launcher (npm/tstable), with a package per
# platform as its optional dependencies, tstable-OS-ARCH, each holding the
# binary for its platform, cross-compiled without cgo. NPM_TARGETS (Go's
# GOOS/GOARCH, space-separated; default all six) limits the platforms
# built; the launcher names all six whatever is built. The version is
# scripts/version.sh's, as semver: X.Y.Z for a tagged release, else
# 0.0.0-devel.DATE.gCOMMIT (.dirty when files changed).
# Usage: NPM_TARGETS="linux/amd64" NPM_OUT=dir scripts/npm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null 2>&1 || scripts/need-node.sh
version=${TSTABLE_VERSION:-$(scripts/version.sh)}
out=${NPM_OUT:-dist/npm}
targets=${NPM_TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}

# semver: what npm takes as a version.
semver() {
	case "$1" in
	[0-9]*.[0-9]*.[0-9]*) echo "$1" ;;
	"devel "*)
		# devel COMMIT[+dirty] (DATE)
		set -- $1
		commit=${2%+dirty} dirty=
		[ "$commit" = "$2" ] || dirty=.dirty
		date=$(echo "$3" | tr -d '()-')
		echo "0.0.0-devel.$date.g$commit$dirty" ;;
	*) echo "0.0.0-devel" ;;
	esac
}
npmver=$(semver "$version")

# npm's names for Go's systems and architectures (process.platform,
# process.arch).
npm_os() { case "$1" in windows) echo win32 ;; *) echo "$1" ;; esac; }
npm_cpu() { case "$1" in amd64) echo x64 ;; *) echo "$1" ;; esac; }

rm -rf "$out"
stage="$out/stage"
mkdir -p "$stage"
abs_out=$(cd "$out" && pwd)

for t in $targets; do
	goos=${t%/*} goarch=${t#*/}
	os=$(npm_os "$goos") cpu=$(npm_cpu "$goarch")
	name="tstable-$os-$cpu"
	dir="$stage/$name"
	exe=tstable
	[ "$goos" = windows ] && exe=tstable.exe
	mkdir -p "$dir/bin"
	echo "npm: $name $npmver ($goos/$goarch)"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
		-ldflags "-s -w -X 'github.com/tstable/tstable/cmd.buildVersion=$version'" \
		-o "$dir/bin/$exe" ./cmd/tstable
	cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$npmver",
  "description": "The tstable binary for $os $cpu; install tstable, which depends on it",
  "homepage": "https://github.com/tstable/tstable",
  "repository": { "type": "git", "url": "git+https://github.com/tstable/tstable.git" },
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/$exe", "README.md"],
  "preferUnplugged": true
}
JSON
	printf '# %s\n\nThe tstable binary for %s %s. Install [tstable](https://www.npmjs.com/package/tstable) instead, which depends on it.\n' \
		"$name" "$os" "$cpu" > "$dir/README.md"
	(cd "$dir" && npm pack --silent --pack-destination "$abs_out" >/dev/null)
done

# The launcher, with every platform as an optional dependency at this
# version: npm installs the one whose os and cpu match.
main="$stage/tstable"
mkdir -p "$main"
cp -R npm/tstable/. "$main/"
node -e '
const fs = require("fs");
const [file, version] = process.argv.slice(1);
const p = JSON.parse(fs.readFileSync(file, "utf8"));
p.version = version;
p.optionalDependencies = {};
for (const k of ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"]) {
  p.optionalDependencies["tstable-" + k] = version;
}
fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n");
' "$main/package.json" "$npmver"
(cd "$main" && npm pack --silent --pack-destination "$abs_out" >/dev/null)
rm -rf "$stage"
ls -1 "$out"/*.tgz
