# tstable — build, run and test.
#   make run          build and start the interactive shell (ARGS="..." to run a command instead)
#   make test         vet and staticcheck, then every unit, golden and end-to-end test and the fuzz
#                     targets' seeds (quick enough to run before every commit)
#   make crosscheck   build for every supported target (linux, darwin, windows × amd64, arm64) and vet
#                     every package, tests included, for each (CI runs it after make test)
#   make fuzz-smoke   every fuzz target briefly (1000 inputs each; CI runs it after make test)
#   make bench        benchmarks (BENCH_N sets the table size; default 1000000)
#   make fuzz         every fuzz target in turn, FUZZTIME each (default 1m): filter, lexer, entity JSON,
#                     CSV, continuation tokens, damaged database files, stored entities of both file formats, the order
#                     of text, requests to serve, a batch's body cut in one pass, auth and bearer tokens, the shell's keys
#                     (docs/contributing.md lists them)
#   make fuzz-keys    fuzz only the shell's key splitter (FUZZTIME)
#   make test-shell   only the shell's terminal tests, in tmux (make test runs them too when tmux is installed)
#   make test-remote  the backend contract suite and the remote commands against Azurite (installs it with npm)
#   make docs         regenerate the command reference (docs/reference/) and the man pages (bin/man/); make man is the same
#   make install      the binary, man pages and bash/zsh/fish completions under PREFIX (default /usr/local), DESTDIR staged
#   make dist         the release archives and checksums for every target, in dist/ (goreleaser, pinned)
#   make npm          the npm packages (tstable and tstable-OS-ARCH for every target) as tarballs in dist/npm/
#   make test-npm     the npm packages of this platform installed offline into an empty project: npx tstable
#                     --version, and the Azure SDK for JavaScript against npx tstable serve --inMemoryPersistence
#   make test-serve-js  the Azure SDK for JavaScript end to end against tstable serve, with a connection string
#                     over HTTP and with a TokenCredential over HTTPS (installs it with npm)
#   make bench-serve  tstable serve and Azurite side by side through the Go SDK, then at the server with raw
#                     HTTP requests from a Go loop and wrk (installs Azurite with npm, wrk with apt-get)
#   make bench-startup  a point-query process at its floor (Go runtime, store, store + cobra) beside sqlite3 and tstable
#   make bench-tables   tablewriter's streaming tables against tstable's own (table and csv), per row (TABLE_ROWS rows, default 100000)

GO       ?= go
BIN      ?= bin/tstable
ARGS     ?= shell
BENCH_N  ?= 1000000
FUZZTIME ?= 1m
TABLE_ROWS ?= 100000
export BENCH_N

.PHONY: build run test vet crosscheck docs man completions install dist bench bench-peer fuzz fuzz-keys test-shell test-remote clean

# The version tstable --version states: the tag, or the commit and its date
# (scripts/version.sh); the go command records no commit in a worktree.
VERSION ?= $(shell scripts/version.sh)
LDFLAGS := -X 'github.com/tstable/tstable/cmd.buildVersion=$(VERSION)'

# Built without cgo: a static binary starts a few milliseconds sooner (no
# dynamic loader, no libc threads), which is most of a point query's time.
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/tstable

run: build
	./$(BIN) $(ARGS)

# staticcheck, pinned; .ci/run installs it, and go run builds it once otherwise.
STATICCHECK_VERSION := v0.8.2
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo "$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)")

vet:
	$(GO) vet ./...
	$(STATICCHECK) ./...

# The shell's terminal tests (tmux) run when tmux is installed.
HAVE_TMUX := $(shell command -v tmux >/dev/null 2>&1 && echo 1)

# A call that exists on one system only cannot land: every target builds
# and vets (scripts/crosscheck.sh).
crosscheck:
	GO=$(GO) scripts/crosscheck.sh

# The cross builds and the brief fuzzing are left to their own targets
# (crosscheck, fuzz-smoke), which .ci/run runs after this one: together
# they take longer than all of this.
test: vet
ifeq ($(HAVE_TMUX),)
	@echo "note: tmux is not installed, so the shell's terminal tests are skipped (apt-get install tmux)"
endif
ifeq ($(wildcard /usr/share/bash-completion/bash_completion),)
	@echo "note: bash-completion is not installed, so the test of bash's completion is skipped (apt-get install bash-completion)"
endif
	TSTABLE_TMUX_TEST=$(HAVE_TMUX) $(GO) test -count=1 ./...

# Every fuzz target for a thousand inputs (the seeds alone run in make test).
.PHONY: fuzz-smoke
fuzz-smoke:
	FUZZTIME=1000x scripts/fuzz.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1x -timeout 60m ./...

fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# (the fork of go-prompt the shell is built on, internal/prompt)
fuzz-keys:
	$(GO) test -run '^$$' -fuzz FuzzScanKeys -fuzztime $(FUZZTIME) ./internal/prompt/

test-shell:
	TSTABLE_TMUX_TEST=1 $(GO) test -count=1 -run TestTmux ./shell/...

test-remote:
	TSTABLE_REMOTE_TEST=1 $(GO) test -count=1 -run 'Azurite' ./storetest/... ./cmd/...

clean:
	rm -rf bin

# The same rows in tstable and sqlite3, timed side by side, for narrow, wide
# and broad rows (needs sqlite3; SHAPES, ORDER, RUNS: see the script).
bench-peer:
	scripts/bench-peer.sh

# What a point-query process costs at its floor: the Go runtime alone, the
# store alone, the store behind one cobra command, and tstable, beside
# sqlite3 (needs sqlite3).
.PHONY: bench-startup
bench-startup:
	scripts/startup-floor.sh

# Command-line benchmarks: import of BENCH_N ~200-byte entities from JSONL,
# and the wall time of a point-query process on that file.
.PHONY: bench-cli
bench-cli:
	$(GO) test -run '^$$' -bench 'BenchmarkCLI' -benchtime 1x -timeout 60m ./cmd/

# copy of 100k entities to Azurite against the Azure SDK for JavaScript (needs node/npm).
.PHONY: bench-remote
bench-remote:
	scripts/bench-remote.sh

# The Azure SDK for JavaScript end to end against tstable serve (needs node/npm).
.PHONY: test-serve-js
test-serve-js:
	TSTABLE_JS_TEST=1 $(GO) test -count=1 -run 'TestJavaScriptSDK' -v ./server/
	TSTABLE_SDK_TEST=1 $(GO) test -count=1 -run 'TestSDKExamples' -v ./docs/

# tstable serve and Azurite (in memory) side by side through the Go SDK:
# batch insert, point gets, a partition query, a filtered scan; then at the
# server, with raw HTTP requests and an account SAS from a Go loop and from
# wrk: batch inserts, point gets and a mixed load, with each server's CPU
# time a request (needs node/npm; installs wrk with apt-get when it can).
.PHONY: bench-serve
bench-serve:
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wrk >/dev/null 2>&1; } || \
		echo "note: wrk is not installed (apt-get install wrk); the point gets from wrk are left out"
	TSTABLE_BENCH_SERVE=1 $(GO) test -count=1 -run 'TestBenchServe' -v -timeout 60m ./server/

# The command reference and the man pages, generated from the command tree
# (scripts/gendocs; make test fails when docs/reference/ is not what the
# tree gives). Run it after changing a command, a flag or a help text.
MANDIR := bin/man/man1
docs man:
	$(GO) run ./scripts/gendocs -md docs/reference -man $(MANDIR) -version "$(VERSION)"

# Shell completion scripts, from the built binary.
COMPDIR := bin/completions
completions: build
	mkdir -p $(COMPDIR)
	./$(BIN) completion bash > $(COMPDIR)/tstable.bash
	./$(BIN) completion zsh > $(COMPDIR)/_tstable
	./$(BIN) completion fish > $(COMPDIR)/tstable.fish
	./$(BIN) completion powershell > $(COMPDIR)/tstable.ps1

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the binary, the man
# pages and the completions where bash-completion, zsh and fish look.
PREFIX ?= /usr/local
install: build man completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tstable
	install -m 644 $(MANDIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(COMPDIR)/tstable.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tstable
	install -m 644 $(COMPDIR)/_tstable $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tstable
	install -m 644 $(COMPDIR)/tstable.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tstable.fish

# The release archives (tar.gz for Linux and macOS, zip for Windows, each
# with the binary, README and the guides, licences, completions and man pages) and
# checksums.txt, in dist/, by goreleaser at a pinned version, built once
# into bin/tools from the Go module proxy (.goreleaser.yaml). A tagged
# HEAD (vX.Y.Z) makes a release of that version; otherwise a snapshot.
GORELEASER_VERSION := v2.15.1
GORELEASER := bin/tools/goreleaser-$(GORELEASER_VERSION)
$(GORELEASER):
	mkdir -p bin/tools
	GOBIN=$(CURDIR)/bin/tools $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
	mv bin/tools/goreleaser $@
dist: $(GORELEASER)
	TSTABLE_VERSION="$(VERSION)" scripts/dist.sh $(GORELEASER)

# The npm packages (scripts/npm.sh): tstable, a launcher whose optional
# dependencies are tstable-OS-ARCH, each with the binary of its platform,
# cross-compiled without cgo; npm pack's tarballs in dist/npm/.
.PHONY: npm test-npm
npm:
	TSTABLE_VERSION="$(VERSION)" scripts/npm.sh

# The packages as a JavaScript project gets them (scripts/test-npm.sh):
# this platform's and the launcher, built into bin/npm-test, installed
# offline, by path, into an empty project (a tarball of another platform
# is refused by path, EBADPLATFORM; from a registry npm skips it) (installs node and npm with apt-get when
# missing, and the Azure SDK for JavaScript with npm).
test-npm:
	NPM_TARGETS="$$($(GO) env GOOS)/$$($(GO) env GOARCH)" NPM_OUT=bin/npm-test TSTABLE_VERSION="$(VERSION)" scripts/npm.sh
	NPM_OUT=bin/npm-test TSTABLE_VERSION="$(VERSION)" scripts/test-npm.sh

# Why tstable draws its own tables: tablewriter (streaming) against
# query --all -o table and -o csv, in ns/row. A module of its own
# (scripts/tablebench), so tablewriter never enters tstable's build.
.PHONY: bench-tables
bench-tables:
	cd scripts/tablebench && BENCH_N=$(TABLE_ROWS) $(GO) test -run '^$$' -bench . -benchtime 3x -timeout 60m .

# make test-browser  serve's console in headless Chromium (Debian's chromium): each view over the sample
#                    orders, a query made over HTTP appearing in the log, and no entity without the key when
#                    authentication is on; skipped with a note when chromium is not installed
# make screenshots   the console's screenshots that docs/serve.md and docs/table-design.md show (docs/img)
.PHONY: test-browser screenshots
HAVE_CHROMIUM := $(shell command -v chromium >/dev/null 2>&1 && echo 1)

test-browser:
ifeq ($(HAVE_CHROMIUM),)
	@echo "note: chromium is not installed, so the console's browser test is skipped (apt-get install -y chromium)"
else
	TSTABLE_BROWSER_TEST=1 $(GO) test -count=1 -run TestConsoleInChromium ./server/
endif

screenshots:
	mkdir -p docs/img
	TSTABLE_BROWSER_TEST=1 TSTABLE_SCREENSHOTS=$(CURDIR)/docs/img $(GO) test -count=1 -run TestConsoleInChromium ./server/
