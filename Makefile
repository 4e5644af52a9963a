# Bmob Swift — the two commands a newcomer needs are `make serve` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
ARGS ?=
FUZZ_SECONDS ?= 30
# Tests build with warnings as errors and explicit Sendable checks (see Package.swift).
export BMOB_STRICT ?= 1
# On a Mac the server needs macOS 15, above the SDK's floor of 12 (see Package.swift); no effect on Linux.
export BMOB_SERVER_MACOS ?= 1

.PHONY: bootstrap build serve test docs podspec bench soak fuzz cluster clean

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	$(SWIFT) build

## Build in release mode and run the server on ./.bmob (a development app is created and its keys printed).
serve: bootstrap
	@BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked $(SWIFT) build -c release --product bmob
	.build/release/bmob serve $(ARGS)

## Every test, on real sockets, real SQLite files and a real PostgreSQL (a throwaway cluster that this target starts
## with scripts/postgres.sh before the tests, so that none waits for it, and stops at the end). The first pass runs
## everything on SQLite; the second runs the store, server and SDK end-to-end suites again on PostgreSQL, with the
## PostgreSQL-only suites (BMOB_TEST_ENGINE=postgres): protocol timeouts (headers, bodies, pings,
## heartbeats, close deadlines, handshake lifetimes) are tested on a manual loop clock, not waited for. Last,
## Examples/CustomServer is built against the public BmobServer API and run (scripts/example-check.sh).
## At most TEST_WIDTH tests run at once (each with its own server, threads and database connections): with every
## test started together, two cores thrashed and single requests of the PostgreSQL pass waited past 20 s; 32 at a
## time finish both passes sooner.
TEST_WIDTH ?= 32
TEST_WIDTH_FLAG = --experimental-maximum-parallelization-width $(TEST_WIDTH)

test:
	@scripts/bootstrap.sh test
	$(SWIFT) build --build-tests
	@status=0; \
	export BMOB_TEST_POSTGRES_URL="$$(BMOB_POSTGRES_FAST=1 scripts/postgres.sh start)" || exit 1; \
	$(SWIFT) test --skip-build $(TEST_WIDTH_FLAG) || status=$$?; \
	BMOB_TEST_ENGINE=postgres $(SWIFT) test --skip-build $(TEST_WIDTH_FLAG) --filter 'BmobStoreTests|BmobServerTests|EndToEndTests|Seed004SampleTests' || status=$$?; \
	scripts/postgres.sh stop >/dev/null 2>&1 || true; \
	scripts/example-check.sh || status=$$?; exit $$status

## The SDK's documentation: a DocC catalog per SDK product converted with the toolchain's docc into a static site
## per module under .build/docs; fails on any DocC warning (broken links, unresolved symbols).
docs: bootstrap
	scripts/docs.sh

## BmobSwiftSDK.podspec against Package.swift: every SDK target has a subspec with exactly its files and
## dependencies, and the podspec, BmobVersion.current and CHANGELOG.md name the same release; then the pod is
## type-checked as the one module CocoaPods builds (about a minute).
podspec:
	scripts/check-podspec.sh --typecheck

## Benchmarks side by side with their references; writes BENCHMARKS.md.
bench:
	@scripts/bootstrap.sh bench
	Benchmarks/run.sh

## Not in CI: the release server for SOAK_SECONDS (600) at half the capacity of a mixed workload with realtime
## subscribers; RSS, open fds, latency and errors every 10 s go into BENCHMARKS.md (bench:soak).
SOAK_SECONDS ?= 600

soak:
	@scripts/bootstrap.sh bench
	SOAK_SECONDS=$(SOAK_SECONDS) python3 Benchmarks/soak.py --report BENCHMARKS.md --json Benchmarks/out/soak.json

## Several nodes on one machine: a throwaway PostgreSQL, NODES (3) `bmob serve` nodes and nginx on PORT (8080).
cluster:
	@scripts/bootstrap.sh cluster
	scripts/cluster.sh

## libFuzzer runs of every parser target, FUZZ_SECONDS each.
fuzz: bootstrap
	Fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .build-*
