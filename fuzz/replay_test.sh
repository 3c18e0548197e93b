#!/usr/bin/env bash
# ctest fuzz_seed_replay: each fuzz target, built with fuzz/replay_main.cc, over the seeds `make fuzz`
# starts from (the examples for the spec, the real samples for each parser, facts collected from them),
# once each. It fails where the fuzzer would on its first pass: a crash, a trap or an uncaught exception.
set -euo pipefail
BUILD=$1
SRC=$2
"$BUILD/spec_fuzz" "$SRC"/examples/*.yaml "$SRC"/examples/rollout/*.yaml "$SRC"/tests/integration/*.yaml
"$SRC/fuzz/run_parsers.sh" "$BUILD" 0
