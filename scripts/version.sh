#!/bin/sh
# The version a build of this checkout states (tstable --version): the tag
# without its v when HEAD is tagged vX.Y.Z and unchanged, else
# "devel COMMIT (DATE)", with "+dirty" after the commit when files changed.
cd "$(dirname "$0")/.." || exit 1
if ! rev=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	echo devel
	exit 0
fi
dirty=
git diff --quiet HEAD -- 2>/dev/null || dirty=+dirty
if tag=$(git describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null) && [ -z "$dirty" ]; then
	echo "${tag#v}"
	exit 0
fi
echo "devel $rev$dirty ($(git log -1 --format=%cs HEAD))"
