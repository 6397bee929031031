# Rightsize build. "make run" serves the site on http://127.0.0.1:8000;
# "make test" runs every test (native, WebAssembly in headless Chromium,
# end-to-end on the built site) and installs what it needs first.

SHELL := /bin/bash
GO ?= go
# URL path the site is served under; see README "Deploy".
PREFIX ?= /
ADDR ?= 127.0.0.1:8000
SUB_PREFIX := /tools/rightsize/
# rightsize/app and rightsize/app/page are built without inlining: go-app's
# chained element builders inlined into every render function made the
# package 870 KB of code; without it app.wasm is about 51 KB smaller in
# brotli (and app/page's formatting inlined into its callers another 43 KB),
# and the page's render work is dominated by the DOM, not by call overhead.
# rightsize/catalog/... (the catalog's lookups and the launch emitters, run
# once per answer, not per simulated step) likewise: about 19 KB smaller in
# brotli. rightsize/estimator/plan (the ranking, rows and reasons around
# the estimator's and the simulator's calls) likewise: about 10 KB smaller
# in brotli, BenchmarkPlan the same within its noise (training 10-15 ms,
# serving 20-23 ms an op either way, 2026-11-29). The estimator and the
# simulator keep inlining: they are the hot loops (make bench).
NOINLINE := -gcflags=rightsize/app/...=-l -gcflags=rightsize/catalog/...=-l -gcflags=rightsize/estimator/plan/...=-l
WASM_FLAGS := -trimpath -ldflags="-s -w" $(NOINLINE)
export CI

.PHONY: all run dist wasm test deps vet test-native test-wasm test-e2e repro size bench hello fuzz clean validate profile

all: dist

# app.wasm is rebuilt every time: go build's cache makes an unchanged tree cheap.
wasm:
	@mkdir -p build
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -o build/app.wasm ./cmd/web

dist: wasm
	$(GO) run ./cmd/build -wasm build/app.wasm -out dist -prefix $(PREFIX)

run: dist
	$(GO) run ./cmd/serve -dir dist -addr $(ADDR) -prefix $(PREFIX)

# deps installs the browser the WebAssembly and end-to-end tests drive.
deps:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		echo "installing chromium (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }
	@chromium --version 2>/dev/null || chromium-browser --version
	@# A CJK font, so the Chinese page's screenshots show glyphs, not boxes.
	@fc-list :lang=zh 2>/dev/null | grep -q . || { \
		echo "installing a CJK font (Debian package fonts-wqy-microhei)"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq fonts-wqy-microhei; }
	@# PyYAML, the parser SkyPilot reads task files with, so the launch YAML's PyYAML test runs (it skips without it).
	@python3 -c "import yaml" 2>/dev/null || { \
		echo "installing PyYAML (Debian package python3-yaml)"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3 python3-yaml; }
	@# GitHub's Markdown renderer, so the Markdown export's rendering test runs (it skips without it).
	@command -v cmark-gfm >/dev/null 2>&1 || { \
		echo "installing cmark-gfm (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq cmark-gfm; }

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./estimator/... ./catalog ./app/... ./cmd/web

test-native:
	$(GO) test -count=1 -timeout 30m ./...

# The tool is located natively (without GOOS=js), then runs the js/wasm test
# binaries in headless Chromium.
test-wasm: deps
	WBT="$$($(GO) tool -n wasmbrowsertest)" && \
	GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 30m -exec="$$WBT" ./estimator/... ./catalog ./app/...

test-e2e: deps dist
	$(GO) run ./cmd/build -wasm build/app.wasm -out build/dist-sub -prefix $(SUB_PREFIX)
	@# a "next release": the same site plus one asset, so its version differs
	rm -rf build/web-next && cp -r web build/web-next && echo next > build/web-next/next.txt
	$(GO) run ./cmd/build -wasm build/app.wasm -web build/web-next -out build/dist-next -prefix /
	RIGHTSIZE_DIST=$(CURDIR)/dist RIGHTSIZE_DIST_SUB=$(CURDIR)/build/dist-sub RIGHTSIZE_DIST_NEXT=$(CURDIR)/build/dist-next \
	RIGHTSIZE_DIST_SUB_PREFIX=$(SUB_PREFIX) RIGHTSIZE_ARTIFACTS=$(CURDIR)/build/artifacts \
		$(GO) test -count=1 -timeout 30m -v -run 'E2E|Budget' ./cmd/serve

# repro: two builds of the same tree must be byte-identical.
repro: dist
	rm -rf build/repro && mkdir -p build/repro
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -o build/repro/app.wasm ./cmd/web
	$(GO) run ./cmd/build -wasm build/repro/app.wasm -out build/repro/dist -prefix $(PREFIX)
	diff -r dist build/repro/dist && echo "reproducible: dist/ is byte-identical across builds"

test: deps vet test-native test-wasm test-e2e repro
	@echo "make test: all tests passed"

size: dist
	@printf "app.wasm  raw %10d B\n" $$(stat -c %s dist/web/app.wasm)
	@printf "app.wasm gzip %10d B\n" $$(stat -c %s dist/web/app.wasm.gz)
	@printf "app.wasm   br %10d B  (budget 2362000, goal 1600000)\n" $$(stat -c %s dist/web/app.wasm.br)
	@# Code bytes per package, from a build that keeps its function names.
	@GOOS=js GOARCH=wasm $(GO) build -trimpath $(NOINLINE) -o build/app-names.wasm ./cmd/web
	@$(GO) run ./cmd/wasmsize -top 25 build/app-names.wasm
	@# Against go-app's hello world built the same way (issue "the page as one
	@# pure view": app.wasm at most 1.25x hello in brotli): each section raw
	@# and in brotli, and the packages that add the most code. About 2 min.
	@mkdir -p build/hello
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -o build/hello/app-names.wasm ./cmd/serve/testdata/hello
	@$(GO) run ./cmd/wasmsize -top 20 -base build/hello/app-names.wasm build/app-names.wasm

# hello: go-app's hello world, built and generated exactly like Rightsize,
# the baseline make bench compares load times with.
hello:
	@mkdir -p build/hello
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -o build/hello/app.wasm ./cmd/serve/testdata/hello
	$(GO) run ./cmd/build -hello -wasm build/hello/app.wasm -out build/hello/dist -prefix /

# Each fuzz target for FUZZTIME (go test runs one -fuzz target at a time);
# the seed corpora also run as plain tests under make test. Every Fuzz
# function in the tree has a line (TestMakeFuzzListsEveryTarget).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzEstimate$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzThroughput$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzParseCount$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzParseSeconds$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzParseChoices$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzDisaggServing$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator -run '^$$' -fuzz '^FuzzStepSecondsDP$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog -run '^$$' -fuzz '^FuzzParsePriceSheet$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog -run '^$$' -fuzz '^FuzzAsOfTime$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseAWSOffer$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseAWSSpot$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseAzurePage$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseGCPPage$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseOCIProducts$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseGPUClouds$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseGPUHuntCSV$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzParseFX$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/source -run '^$$' -fuzz '^FuzzGPUForName$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzServeScript$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzDisaggScript$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzTrainScript$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzSkyPilotYAML$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzScriptsRun$$' -fuzztime $(FUZZTIME)
	$(GO) test ./catalog/launch -run '^$$' -fuzz '^FuzzLitGPTScript$$' -fuzztime $(FUZZTIME)
	$(GO) test ./app -run '^$$' -fuzz '^FuzzFragment$$' -fuzztime $(FUZZTIME)
	$(GO) test ./app/page -run '^$$' -fuzz '^FuzzCompareLink$$' -fuzztime $(FUZZTIME)
	$(GO) test ./app/page -run '^$$' -fuzz '^FuzzParsePlan$$' -fuzztime $(FUZZTIME)
	$(GO) test ./app/page -run '^$$' -fuzz '^FuzzParseUnits$$' -fuzztime $(FUZZTIME)
	$(GO) test ./app/page -run '^$$' -fuzz '^FuzzExports$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/plan -run '^$$' -fuzz '^FuzzPlan$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/plan -run '^$$' -fuzz '^FuzzParseWorkload$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/plan -run '^$$' -fuzz '^FuzzParseLoadCurve$$' -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/rightsize -run '^$$' -fuzz '^FuzzParseDuration$$' -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/rightsize -run '^$$' -fuzz '^FuzzPlanFlags$$' -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/rightsize -run '^$$' -fuzz '^FuzzDisaggFlags$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/sim -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/sim -run '^$$' -fuzz '^FuzzParseCalibration$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/sim -run '^$$' -fuzz '^FuzzCalibrationJSON$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/sim -run '^$$' -fuzz '^FuzzRun$$' -fuzztime $(FUZZTIME)
	$(GO) test ./estimator/sim -run '^$$' -fuzz '^FuzzSortTimes$$' -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/wasmsize -run '^$$' -fuzz '^FuzzPackageSizes$$' -fuzztime $(FUZZTIME)

bench: deps dist hello
	$(GO) test -run '^$$' -bench . -benchmem ./estimator/... ./catalog/... ./app/...
	@echo "--- the same page benchmarks compiled to WebAssembly, in headless Chromium:"
	WBT="$$($(GO) tool -n wasmbrowsertest)" && \
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -exec="$$WBT" ./app ./app/page
	@echo "--- time to interactive, cold and warm, against go-app's hello world; input → updated tables:"
	RIGHTSIZE_DIST=$(CURDIR)/dist RIGHTSIZE_HELLO_DIST=$(CURDIR)/build/hello/dist RIGHTSIZE_COLDLOAD=5 \
		$(GO) test -count=1 -v -run 'ColdLoad|E2EInputUpdate' ./cmd/serve 2>&1 | grep -E 'start-up|cold|warm|ratio|input|ok|FAIL'
	@$(MAKE) --no-print-directory size

# profile: where an input's time goes in the browser. A site built with
# the WebAssembly symbol names kept (no -s), then Chromium's sampling
# profiler over 15 inputs, each from the change to the DOM written, by
# part (page view, go-app, estimator, Go runtime, browser) and function;
# then over 15 changes with their plans, each stretch over 50 ms by phase
# (planner, view, go-app, DOM calls, garbage collection) and function.
profile: deps
	@mkdir -p build/prof
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(NOINLINE) -o build/prof/app.wasm ./cmd/web
	$(GO) run ./cmd/build -wasm build/prof/app.wasm -out build/prof/dist -prefix /
	RIGHTSIZE_PROFILE=1 RIGHTSIZE_DIST=$(CURDIR)/build/prof/dist $(GO) test -count=1 -v -run 'TestE2E(Input|Start|Replan)Profile' ./cmd/serve

# validate: replay the public measurements in estimator/testdata/calibration
# through the estimate command and regenerate docs/accuracy.md (a test fails
# when the committed file is stale).
validate:
	$(GO) run ./cmd/rightsize validate --format markdown > docs/accuracy.md.tmp && mv docs/accuracy.md.tmp docs/accuracy.md

clean:
	rm -rf build dist
