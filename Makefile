# Two commands on a fresh Debian machine:
#   make run    installs what is missing, builds, and plans the bundled DGX SuperPOD example
#   make test   installs what is missing, builds, and runs every test
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=
EXAMPLE ?= examples/superpod-h100-4su.yaml

.PHONY: deps build run test asan-test bench clean

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD)

run: build
	./$(BUILD)/railyard plan $(EXAMPLE) -o out/$(basename $(notdir $(EXAMPLE)))

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j2

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library and tests (no benchmarks).
asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRAILYARD_SANITIZE=ON -DRAILYARD_BENCH=OFF $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(ASAN_BUILD)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j2

bench: build
	bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) out
