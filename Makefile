# Two commands on a fresh Debian machine:
#   make run    installs what the binary needs, builds it alone, and plans the bundled DGX SuperPOD example
#   make test   installs what is missing, builds, and runs every test
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=
# -g1: line tables and function names, enough for a backtrace or a profile, at two thirds of -g's
# compile time (full debug info added 46% to an -O2 compile here); debug a Debug build.
RELEASE_FLAGS ?= -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
EXAMPLE ?= examples/superpod-h100-4su.yaml

# The sanitizer tests and the fuzzers share one clang tree (ASan + UBSan, coverage-instrumented for
# libFuzzer): one build instead of two. Debug (-O0) because clang compiles it in half the time of an
# optimised sanitized build, and CI spends more time compiling than fuzzing; fuzz-long optimises.
SANITIZED_BUILD_TYPE ?= Debug
FUZZ_BUILD ?= $(ASAN_BUILD)
FUZZ_SECONDS ?= 30
PARSER_FUZZ_SECONDS ?= 8

.PHONY: deps build-main build run test package asan-test fuzz fuzz-long bench clean format

deps:
	@scripts/install-deps.sh

# The binary alone, from the packages it links (install-deps.sh --main): no test library, no peer,
# no test target. `make build` and `make test` set the tests back on in the same tree.
build-main:
	@scripts/install-deps.sh --main
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(RELEASE_FLAGS) -DRAILYARD_TESTS=OFF -DRAILYARD_BENCH=OFF $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD) --target railyard

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(RELEASE_FLAGS) -DRAILYARD_TESTS=ON -DRAILYARD_BENCH=ON $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD)

run: build-main
	./$(BUILD)/railyard plan $(EXAMPLE) -o out/$(basename $(notdir $(EXAMPLE)))

test: build
	scripts/run-tests.sh $(BUILD)

# A .deb of the build (binary, railyard(1), bash/zsh completions, docs, examples), installed, run and removed.
package: build
	scripts/package-test.sh $(BUILD)

# Line tables are all a sanitizer report needs, and cheaper to emit than full debug info.
SANITIZED_CMAKE = -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=$(SANITIZED_BUILD_TYPE) \
  -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only -DRAILYARD_SANITIZE=ON -DRAILYARD_FUZZ=ON -DRAILYARD_BENCH=OFF -DRAILYARD_PCH=ON $(CMAKE_FLAGS)

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library, the tests and the fuzzers.
asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) $(SANITIZED_CMAKE) > /dev/null
	@cmake --build $(ASAN_BUILD)
	# Fewer hostile generator cases: each runs railyard a dozen times, 10x slower in this tree.
	RAILYARD_CASES=8 scripts/run-tests.sh $(ASAN_BUILD) -LE kills-processes

# libFuzzer on the spec parser and planner, seeded with the bundled examples.
fuzz: deps
	@cmake -S . -B $(FUZZ_BUILD) $(SANITIZED_CMAKE) > /dev/null
	@cmake --build $(FUZZ_BUILD) --target fuzzers
	@mkdir -p $(FUZZ_BUILD)/corpus/spec && cp examples/*.yaml examples/rollout/*.yaml tests/integration/*.yaml $(FUZZ_BUILD)/corpus/spec/
	./$(FUZZ_BUILD)/spec_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -dict=fuzz/spec.dict $(FUZZ_BUILD)/corpus/spec
	@fuzz/run_parsers.sh $(FUZZ_BUILD) $(PARSER_FUZZ_SECONDS)

# Every fuzz target for 10 minutes (spec/planner, facts/doctor, ledger and each parser), seeded by all fixtures.
# Optimised (its own tree): ten minutes buys several times the executions of a -O0 build.
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=600 PARSER_FUZZ_SECONDS=600 FUZZ_BUILD=build-fuzz SANITIZED_BUILD_TYPE=RelWithDebInfo

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
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-fuzz out

# Lays the C++ out as .clang-format says (ctest `formatting` checks it).
format:
	scripts/check-format.sh . --fix
