# boardy-viz — quick start: `make demo`, `make test`.
# Every target that builds first makes sure Graphviz's C library is installed (Debian: libgraphviz-dev).

SWIFT      ?= swift
PATH       := $(PATH):/opt/swift/usr/bin
export PATH
SUDO       := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
OUT        ?= out
BENCH_BUILD = .build-release
BIN         = .build/debug

.PHONY: deps build demo test bench tsan schemas clean

## deps: install libgraphviz-dev through apt when pkg-config cannot find libgvc.
deps:
	@if pkg-config --exists libgvc; then \
	  echo "graphviz: libgvc $$(pkg-config --modversion libgvc) found"; \
	else \
	  echo "graphviz: libgvc not found, installing libgraphviz-dev with apt"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y libgraphviz-dev; \
	fi

build: deps
	$(SWIFT) build

## demo: build, simulate samples/checkout.json on the virtual clock, check it, render its graph and timeline, print where the outputs are.
demo: deps
	$(SWIFT) build --product boardy-viz
	@mkdir -p $(OUT)
	$(BIN)/boardy-viz check samples/checkout.json
	$(BIN)/boardy-viz simulate samples/checkout.json -o $(OUT)/checkout.jsonl
	$(BIN)/boardy-viz test samples/checkout.json
	$(BIN)/boardy-viz stats $(OUT)/checkout.jsonl
	$(BIN)/boardy-viz export $(OUT)/checkout.jsonl --to chrome -o $(OUT)/checkout.chrome.json
	$(BIN)/boardy-viz export $(OUT)/checkout.jsonl --to dot -o $(OUT)/checkout.observed.dot
	$(BIN)/boardy-viz graph samples/checkout.json -o $(OUT)/checkout.graph.svg
	$(BIN)/boardy-viz timeline $(OUT)/checkout.jsonl -o $(OUT)/checkout.timeline.svg
	@echo
	@echo "outputs:"
	@echo "  flow graph:   $(OUT)/checkout.graph.svg"
	@echo "  timeline:     $(OUT)/checkout.timeline.svg"
	@echo "  trace:        $(OUT)/checkout.jsonl"
	@echo "  Perfetto:     $(OUT)/checkout.chrome.json (open in https://ui.perfetto.dev)"
	@echo "  observed DOT: $(OUT)/checkout.observed.dot"

## test: the whole test suite (Swift Testing).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench: every boardy-bench subcommand, release build; figures go to BENCHMARKS.md by hand.
bench: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-bench
	$(BENCH_BUILD)/release/boardy-bench recorder
	$(BENCH_BUILD)/release/boardy-bench trace-io
	$(BENCH_BUILD)/release/boardy-bench simulate
	$(BENCH_BUILD)/release/boardy-bench render

## schemas: validate every sample scenario and checked-in trace against schemas/ (Python's jsonschema; also run by `make test`).
schemas:
	python3 schemas/validate.py samples/*.json samples/traces/*.jsonl Tests/*/Fixtures/*.jsonl

## tsan: the test suite under the thread sanitizer (slow; not part of `make test`).
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

clean:
	rm -rf .build .build-release .build-tsan $(OUT)
