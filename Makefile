# Bmob Swift — the two commands a newcomer needs are `make serve` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
ARGS ?=
FUZZ_SECONDS ?= 30
# Tests build with warnings as errors and explicit Sendable checks (see Package.swift).
export BMOB_STRICT ?= 1

.PHONY: bootstrap build serve test bench fuzz clean

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	$(SWIFT) build

## Build in release mode and run the server on ./.bmob (a development app is created and its keys printed).
serve: bootstrap
	@BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked $(SWIFT) build -c release --product bmob
	.build/release/bmob serve $(ARGS)

## Every test, on real sockets, real SQLite files and a real PostgreSQL (a throwaway cluster that the tests start
## with scripts/postgres.sh and this target stops): the store suite runs on both engines in the first pass, and the
## server and SDK end-to-end suites run a second time on PostgreSQL (BMOB_TEST_ENGINE=postgres): protocol timeouts (headers, bodies, pings,
## heartbeats, close deadlines, handshake lifetimes) are tested on a manual loop clock, not waited for.
test:
	@scripts/bootstrap.sh test
	$(SWIFT) build --build-tests
	@status=0; \
	$(SWIFT) test --skip-build || status=$$?; \
	BMOB_TEST_ENGINE=postgres $(SWIFT) test --skip-build --filter 'BmobServerTests|EndToEndTests' || status=$$?; \
	scripts/postgres.sh stop >/dev/null 2>&1 || true; exit $$status

## Benchmarks side by side with their references; writes BENCHMARKS.md.
bench:
	@scripts/bootstrap.sh bench
	Benchmarks/run.sh

## libFuzzer runs of every parser target, FUZZ_SECONDS each.
fuzz: bootstrap
	Fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .build-*
