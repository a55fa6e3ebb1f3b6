# boardy-viz — quick start: `make demo`, `make test`.
# Every target that builds first makes sure Graphviz's C library is installed (Debian: libgraphviz-dev).

SWIFT      ?= swift
PATH       := $(PATH):/opt/swift/usr/bin
export PATH
SUDO       := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
OUT        ?= out
BENCH_BUILD = .build-release
BIN         = .build/debug

.PHONY: docs js-check deps python-deps build demo test browser-deps browser-test bench tsan asan memcheck scale fuzz fuzz-cli fuzz-log fuzz-replay schemas clean

## deps: install libgraphviz-dev through apt when pkg-config cannot find libgvc. Where there is no
## apt (macOS: `brew install graphviz pkg-config`), say what is missing instead.
HAS_APT := $(shell command -v apt-get > /dev/null 2>&1 && echo yes)
deps:
	@if pkg-config --exists libgvc 2>/dev/null; then \
	  echo "graphviz: libgvc $$(pkg-config --modversion libgvc) found"; \
	elif [ "$(HAS_APT)" = "yes" ]; then \
	  echo "graphviz: libgvc not found, installing libgraphviz-dev with apt"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y libgraphviz-dev; \
	else \
	  echo "graphviz: pkg-config cannot find libgvc. Install Graphviz and pkg-config (macOS: brew install graphviz pkg-config), or set PKG_CONFIG_PATH to its lib/pkgconfig."; \
	  exit 1; \
	fi
	@if [ "$(HAS_APT)" = "yes" ] && [ ! -x /usr/bin/time ]; then \
	  echo "GNU time not found (the scale test measures peak memory with it), installing it with apt"; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y time; \
	fi

build: deps
	$(SWIFT) build

## browser-deps: headless Chromium and its driver from Debian (chromium, chromium-driver) through
## apt when /usr/bin/chromedriver is missing, and Selenium from PyPI. Nothing downloads a driver.
browser-deps:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then \
	  echo "browser: $$(/usr/bin/chromium --version 2>/dev/null | head -1) and /usr/bin/chromedriver found"; \
	elif [ "$(HAS_APT)" = "yes" ]; then \
	  echo "browser: installing chromium and chromium-driver with apt"; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium chromium-driver; \
	else \
	  echo "browser tests need Chromium and chromedriver in /usr/bin (Debian: apt-get install chromium chromium-driver)"; exit 1; \
	fi
	@python3 -c "import selenium" 2>/dev/null || { echo "browser: installing selenium from PyPI"; python3 -m pip install --quiet selenium; }

## browser-test: the viewer in a real browser (headless Chromium driven by Selenium): each sample's
## view loads without a console error, search, click, the cause chain highlighted in the table and
## the timeline, hostile ids shown as text and never run. Pages and screenshots go to $(OUT)/.
browser-test: deps browser-deps
	$(SWIFT) build --product boardy-viz
	@mkdir -p $(OUT)
	BOARDY_VIZ=$(BIN)/boardy-viz OUT=$(OUT) python3 -m unittest discover -s Tests/Browser -v

## demo: build, simulate samples/checkout.json on the virtual clock, check it, replay its trace, render its graph and timeline, print where the outputs are.
demo: deps
	$(SWIFT) build --product boardy-viz
	@mkdir -p $(OUT)
	$(BIN)/boardy-viz check samples/checkout.json
	$(BIN)/boardy-viz simulate samples/checkout.json -o $(OUT)/checkout.jsonl
	$(BIN)/boardy-viz test samples/checkout.json
	$(BIN)/boardy-viz stats $(OUT)/checkout.jsonl
	$(BIN)/boardy-viz replay $(OUT)/checkout.jsonl --scenario samples/checkout.json
	$(BIN)/boardy-viz export $(OUT)/checkout.jsonl --to chrome -o $(OUT)/checkout.chrome.json
	$(BIN)/boardy-viz export $(OUT)/checkout.jsonl --to dot -o $(OUT)/checkout.observed.dot
	$(BIN)/boardy-viz graph samples/checkout.json -o $(OUT)/checkout.graph.svg
	$(BIN)/boardy-viz timeline $(OUT)/checkout.jsonl -o $(OUT)/checkout.timeline.svg
	$(BIN)/boardy-viz view $(OUT)/checkout.jsonl --scenario samples/checkout.json -o $(OUT)/checkout.html
	@# Its one recorded run passes; exploring its other schedules finds the failure (exit 1).
	$(BIN)/boardy-viz test samples/explore-login.json
	$(BIN)/boardy-viz explore samples/explore-login.json --out $(OUT)/explore-login; test $$? -eq 1
	$(BIN)/boardy-viz replay $(OUT)/explore-login/failure-1-expect.jsonl --scenario samples/explore-login.json
	$(BIN)/boardy-viz timeline $(OUT)/explore-login/failure-1-expect.jsonl -o $(OUT)/explore-login.timeline.svg
	@echo
	@echo "outputs:"
	@echo "  flow graph:   $(OUT)/checkout.graph.svg"
	@echo "  timeline:     $(OUT)/checkout.timeline.svg"
	@echo "  viewer:       $(OUT)/checkout.html (open it in a browser; it loads nothing)"
	@echo "  trace:        $(OUT)/checkout.jsonl"
	@echo "  Perfetto:     $(OUT)/checkout.chrome.json (open in https://ui.perfetto.dev)"
	@echo "  observed DOT: $(OUT)/checkout.observed.dot"
	@echo "  explore:      $(OUT)/explore-login/ (the failing schedule's trace; timeline $(OUT)/explore-login.timeline.svg)"

## python-deps: opentelemetry-proto from PyPI (with protobuf), which reads our OTLP export in the tests.
python-deps:
	@python3 -c "import opentelemetry.proto, google.protobuf" 2>/dev/null || { echo "otlp: installing opentelemetry-proto from PyPI"; python3 -m pip install --quiet opentelemetry-proto; }
	@python3 -c "import sarif_pydantic" 2>/dev/null || { echo "sarif: installing sarif-pydantic from PyPI"; python3 -m pip install --quiet sarif-pydantic; }

## test: the whole test suite (Swift Testing), the OTLP export read by OpenTelemetry's own schema,
## then the documentation (which must build without a warning).
test: deps python-deps js-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	BOARDY_VIZ=$(BIN)/boardy-viz python3 -m unittest discover -s Tests/OTLP -v
	BOARDY_VIZ=$(BIN)/boardy-viz python3 -m unittest discover -s Tests/SARIF -v
	$(MAKE) docs

## js-check: the viewer page's script (Sources/BoardyViz/View/Page/view.js) parses, checked by
## Node (`node --check`); Node comes from apt (nodejs) when missing.
js-check:
	@command -v node > /dev/null 2>&1 || { [ "$(HAS_APT)" = "yes" ] && echo "js-check: installing nodejs with apt" && $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y nodejs; } || { echo "js-check needs Node (node --check)"; exit 1; }
	node --check Sources/BoardyViz/View/Page/view.js

## docs: the DocC catalogs of every product and of the engine's BoardyCore and BoardyComponentKit
## (articles and symbol docs), built with swift-docc-plugin; any warning fails. Archives in
## .build/plugins.
DOC_TARGETS = Boardy BoardyCore BoardyComponentKit BoardyTrace BoardyDispatch BoardySimulation BoardyReplay BoardyVizCore BoardyViz BoardyImport BoardyVizSimulation BoardyVizTesting BoardyIngest
docs:
	@out=$$($(SWIFT) package --disable-sandbox generate-documentation $(addprefix --target ,$(DOC_TARGETS)) 2>&1); status=$$?; \
	echo "$$out" | grep -E "warning|error|Generated" ; \
	if [ $$status -ne 0 ] || echo "$$out" | grep -q "warning:"; then echo "docs: warnings or errors above"; exit 1; fi

## bench: every boardy-bench subcommand, release build; figures go to BENCHMARKS.md by hand.
bench: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-bench
	$(BENCH_BUILD)/release/boardy-bench recorder
	$(BENCH_BUILD)/release/boardy-bench trace-io
	$(BENCH_BUILD)/release/boardy-bench simulate
	$(BENCH_BUILD)/release/boardy-bench render
	$(BENCH_BUILD)/release/boardy-bench import
	$(BENCH_BUILD)/release/boardy-bench fleet
	$(BENCH_BUILD)/release/boardy-bench explore
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-viz
	$(BENCH_BUILD)/release/boardy-bench hostile
	$(BENCH_BUILD)/release/boardy-bench ingest
	$(MAKE) browser-deps
	$(BENCH_BUILD)/release/boardy-bench view

## fuzz-cli: the whole pipeline on generated scenarios (simulate, read-back, stats, graph, timeline,
## export, replay, check, and a mutation of each scenario and trace), in process, for
## FUZZ_CLI_SECONDS (default 300) from FUZZ_CLI_SEED, every 200th case also through the release
## `boardy-viz`; then `make fuzz` with FUZZERS="views pipeline" (the libFuzzer view and pipeline
## targets). Executions are printed as name=value lines; FUZZING.md keeps the totals.
FUZZ_CLI_SECONDS ?= 300
FUZZ_CLI_SEED    ?= 1
fuzz-cli: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-fuzz-cli
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-viz
	$(BENCH_BUILD)/release/boardy-fuzz-cli --seconds $(FUZZ_CLI_SECONDS) --seed $(FUZZ_CLI_SEED) --cli $(BENCH_BUILD)/release/boardy-viz
	$(MAKE) fuzz FUZZERS="views pipeline"

## schemas: validate every sample scenario and checked-in trace against schemas/ (Python's jsonschema; also run by `make test`).
schemas:
	python3 schemas/validate.py samples/*.json samples/traces/*.jsonl Tests/*/Fixtures/*.jsonl

## tsan: the test suite under the thread sanitizer (slow; not part of `make test`).
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

## asan: the test suite under AddressSanitizer (the C layer over Graphviz included; slow;
## not part of `make test`). Leak checks are off here (Graphviz 2.42 leaks on its own); `make
## memcheck` checks ours.
asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 BOARDY_SANITIZER=address $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

## memcheck: every sample and two generated large inputs rendered by the CLI under valgrind
## (installed with apt if missing); fails on invalid accesses and on memory lost in cgraph, cdt or
## our C layer. Not part of `make test`.
memcheck: deps
	@command -v valgrind > /dev/null || { $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y valgrind; }
	BENCH_BUILD=$(BENCH_BUILD) bash .ci/memcheck

## scale: the scale and concurrency tests at full size (8 threads x 100,000 events through the live
## scheduler, a 1,000,000-event trace through stats in bounded memory; the 100,000-deep chain and
## 10,000-gate tests run in `make test` already). Not part of `make test`.
scale: deps
	$(SWIFT) build --build-tests
	BOARDY_SCALE=1 $(SWIFT) test --skip-build --filter 'ScaleTests|EngineTests|BarrierRuleTests'

## fuzz-log: Boardy's debug log round trip on generated scenarios (issue 44): each case runs with
## the engine's log on, `ingest`s the log, and must give the recorded trace's requests,
## activations, outputs, completions and commands in order (as Boardy's log names motherboards);
## a run with what the log cannot tell apart is held to the same steps, each as often. Release
## build; FUZZ_LOG_RUNS cases (default 100000) from FUZZ_LOG_SEED. Prints name=value lines last.
FUZZ_LOG_RUNS ?= 100000
FUZZ_LOG_SEED ?= 1
fuzz-log: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-fuzz-cli
	$(BENCH_BUILD)/release/boardy-fuzz-cli --log-round-trip 1 --runs $(FUZZ_LOG_RUNS) --seconds 100000 --seed $(FUZZ_LOG_SEED) --keep-going 1 --failures .build-fuzz-cli/log-failures

## fuzz-replay: every trace replays (issue 47). Each generated case draws its own bounds (cut at
## `until` in a third of them, a horizon of 1-120 s, 20-2,000 events), simulates, replays, explores
## (60 schedules) and replays every failure found: all must be the same. Release build;
## FUZZ_REPLAY_RUNS cases (default 1000000) from FUZZ_REPLAY_SEED; prints name=value lines last
## (cases cut, stopped by each bound, explored failures replayed). Failures go to
## .build-fuzz-cli/replay-failures/N/ (scenario.json, bounds.txt, message.txt).
## FUZZ_REPLAY_BOUNDS chooses other bounds to draw from, e.g.
## FUZZ_REPLAY_BOUNDS="--horizons 0.5,2,10 --max-events 10,50,300 --until-one-in 2 --until-below 20".
FUZZ_REPLAY_RUNS   ?= 1000000
FUZZ_REPLAY_SEED   ?= 1
FUZZ_REPLAY_BOUNDS ?=
fuzz-replay: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_BUILD) --product boardy-fuzz-cli
	$(BENCH_BUILD)/release/boardy-fuzz-cli --replay 1 --runs $(FUZZ_REPLAY_RUNS) --seconds 1000000 --seed $(FUZZ_REPLAY_SEED) $(FUZZ_REPLAY_BOUNDS) --keep-going 1 --failures .build-fuzz-cli/replay-failures

## fuzz: libFuzzer (with AddressSanitizer) on the trace reader, the scenario loader and Tealium's
## barrier settings parser, each for FUZZ_SECONDS (default 60) or FUZZ_RUNS executions; seeds from
## samples/ and Fuzz/corpus/<target>/ (checked in: seeds and every crash found, as regressions).
## Crashes are written to .build-fuzz/crashes/. Not part of `make test`.
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= -1
FUZZ_BUILD    = .build-fuzz
FUZZERS       = trace-reader scenario-loader barrier-settings views pipeline ingest
# Graphviz (2.42) leaks on its own in layout and in cgraph's string pool: the view and pipeline
# targets, which call it, run without leak detection.
fuzz: deps
	for f in $(FUZZERS); do \
	  $(SWIFT) build -c release --scratch-path $(FUZZ_BUILD) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld --product fuzz-$$f || exit 1; \
	done
	mkdir -p $(addprefix $(FUZZ_BUILD)/work/,$(FUZZERS)) $(addprefix Fuzz/corpus/,$(FUZZERS)) $(FUZZ_BUILD)/crashes
	cp samples/traces/*.jsonl Tests/*/Fixtures/*.jsonl $(FUZZ_BUILD)/work/trace-reader/
	cp samples/traces/*.jsonl $(FUZZ_BUILD)/work/views/
	cp samples/*.json $(FUZZ_BUILD)/work/scenario-loader/
	for f in $(FUZZERS); do \
	  echo "== fuzz-$$f"; leaks=; case $$f in views) leaks=-detect_leaks=0;; pipeline) leaks="-detect_leaks=0 -len_control=0 -max_len=512";; esac; \
	  ASAN_OPTIONS=$$( [ -n "$$leaks" ] && echo detect_leaks=0 ) $(FUZZ_BUILD)/release/fuzz-$$f $(FUZZ_BUILD)/work/$$f Fuzz/corpus/$$f -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) \
	    -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crashes/$$f- \
	    $$leaks || exit 1; \
	done

clean:
	rm -rf .build .build-release .build-tsan .build-asan .build-fuzz $(OUT)
