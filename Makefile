# airpipe — build, run, test, bench, fuzz, lint.
# `make test` installs the Debian packages the tests need when they are
# missing (as root, with apt-get), then vets and tests everything.

GO        ?= go
CORPUS    ?= $(abspath ../shared/corpus)
FUZZTIME  ?= 15s
STATICCHECK_VERSION ?= v0.8.2
export AIRPIPE_CORPUS ?= $(if $(wildcard $(CORPUS)/MANIFEST.tsv),$(CORPUS),)
# DuckDB (from npm) reads the results in a test, as users' queries would.
DUCKDB_DIR := $(abspath .cache/duckdb)
export AIRPIPE_DUCKDB_NODE_MODULES ?= $(DUCKDB_DIR)/node_modules

PACKAGES := llvm-19 llvm-19-dev spirv-tools spirv-headers mesa-vulkan-drivers libvulkan1 vulkan-tools p7zip-full genisoimage squashfs-tools bzip2 chromium libxml2-utils

.PHONY: build run test test-race deps bench bench-pipeline fuzz fuzz-short lint sample clean

# -buildvcs=auto records the commit and dirty flag (airpipe --version, run.json)
# even where GOFLAGS says -buildvcs=false; outside a checkout it records none.
build:
	$(GO) build -buildvcs=auto -o bin/airpipe ./cmd/airpipe

# The main job on the project's embedded sample corpus (the tools the later
# stages use are installed first, as for the tests).
run: deps build
	./bin/airpipe run --out results testdata/sample

deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	$(GO) mod download
	@if command -v npm >/dev/null; then \
		test -d $(DUCKDB_DIR)/node_modules/@duckdb/node-api || (mkdir -p $(DUCKDB_DIR) && cd $(DUCKDB_DIR) && npm install --silent --no-audit --no-fund @duckdb/node-api >/dev/null); \
	else echo "npm not found: the DuckDB test will skip"; fi

test: deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...
	$(MAKE) test-race
	$(MAKE) fuzz-short

# The packages whose code runs concurrently (the engine, its child-process
# containment, the results writer and readers) again under the race
# detector; the stages' own work is single-goroutine per module.
RACE_PACKAGES := ./pipeline/... ./internal/... ./analytics/...
test-race:
	$(GO) test -race -count=1 -timeout 20m $(RACE_PACKAGES)

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The whole pipeline over the real corpus against llvm-dis-19 over the same
# distinct modules, in one run: wall times, their ratio, per-stage worker time.
bench-pipeline: deps
	$(GO) test -run '^$$' -bench '^BenchmarkPipelineVsLLVMDis$$' -benchtime 1x -timeout 60m ./cmd/airpipe

# Each fuzz target for FUZZTIME (go test -fuzz takes one target per run).
fuzz:
	@for t in $$($(GO) list -f '{{.ImportPath}}' ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$t 2>/dev/null | grep '^Fuzz'); do \
			echo "fuzz $$t $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$t || exit 1; \
		done; \
	done

# A count, not a duration: Go 1.26's fuzz coordinator can report a bare
# "context deadline exceeded" when -fuzztime's wall-clock deadline races a
# busy worker (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline.
fuzz-short:
	$(MAKE) fuzz FUZZTIME=1000x

lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# Regenerates testdata/sample from its .ll sources (needs llvm-as-19).
sample:
	./testdata/sample/make.sh

clean:
	rm -rf bin results
