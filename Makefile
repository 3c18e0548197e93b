# Two commands on a fresh Debian machine:
#   make run    installs what is missing, builds, and plans the bundled DGX SuperPOD example
#   make test   installs what is missing, builds, and runs every test
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=
EXAMPLE ?= examples/superpod-h100-4su.yaml

FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 30
PARSER_FUZZ_SECONDS ?= 8

.PHONY: deps build run test asan-test fuzz fuzz-long bench clean

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD)

run: build
	./$(BUILD)/railyard plan $(EXAMPLE) -o out/$(basename $(notdir $(EXAMPLE)))

test: build
	scripts/run-tests.sh $(BUILD)

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library and tests (no benchmarks).
asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRAILYARD_SANITIZE=ON -DRAILYARD_BENCH=OFF $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(ASAN_BUILD)
	scripts/run-tests.sh $(ASAN_BUILD)

# libFuzzer on the spec parser and planner, seeded with the bundled examples.
fuzz: deps
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DRAILYARD_FUZZ=ON -DRAILYARD_TESTS=OFF -DRAILYARD_BENCH=OFF > /dev/null
	@cmake --build $(FUZZ_BUILD) --target fuzzers
	@mkdir -p $(FUZZ_BUILD)/corpus/spec && cp examples/*.yaml examples/rollout/*.yaml tests/integration/*.yaml $(FUZZ_BUILD)/corpus/spec/
	./$(FUZZ_BUILD)/spec_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -dict=fuzz/spec.dict $(FUZZ_BUILD)/corpus/spec
	@fuzz/run_parsers.sh $(FUZZ_BUILD) $(PARSER_FUZZ_SECONDS)

# Every fuzz target for 10 minutes (spec/planner, facts/doctor, ledger and each parser), seeded by all fixtures.
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=600 PARSER_FUZZ_SECONDS=600

bench: build
	bench/run.sh $(BUILD)
	bench/verify_bench.sh $(BUILD)
	bench/doctor_bench.sh $(BUILD)
	bench/ledger_bench.sh $(BUILD)
	bench/rollout_bench.sh $(BUILD)
	bench/config_bench.sh $(BUILD)
	bench/switch_bench.sh $(BUILD)
	bench/kernel_log_bench.sh $(BUILD)
	bench/burnin_bench.sh $(BUILD)
	bench/plan_html_bench.sh $(BUILD)
	bench/serve_bench.sh $(BUILD)
	./$(BUILD)/parse_bench --benchmark_counters_tabular=true

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) out
