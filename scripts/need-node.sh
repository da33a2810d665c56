#!/bin/sh
# Installs node and npm with apt-get (Debian, Ubuntu) when they are not on
# PATH: make npm and make test-npm need them.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "node and npm are needed: install Node.js (https://nodejs.org)" >&2
	exit 1
fi
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq && $sudo apt-get install -y -qq nodejs npm >/dev/null
