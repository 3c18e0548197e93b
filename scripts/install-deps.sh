#!/usr/bin/env bash
# Installs the Debian packages railyard needs to build, test and run its integration tests; with
# --main, only what building and running railyard needs (make run).
# Idempotent: installs only what is missing, so running it twice costs nothing.
set -euo pipefail

# What `make run` needs: a compiler, the build tools and the libraries railyard links.
MAIN_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev      # cluster spec parsing (with line/column marks for errors)
  nlohmann-json3-dev   # plan.json and other machine output
  libcli11-dev         # command-line parsing
  libfmt-dev           # formatting
  libsqlite3-dev       # the inventory ledger (embedded, transactional, crash-safe)
  libsimdjson-dev      # LLDP JSON and plan.json at 100,000-GPU scale (GB/s parsing)
  libutf8proc-dev      # Unicode NFKC and case folding of approver names (the two-person rule)
  libcpp-httplib-dev   # `railyard serve`'s HTTP server
  libpqxx-dev          # the PostgreSQL ledger's client
)
# What `make test` needs beside them: the test and bench libraries, the sanitizer tree, and the real
# peers the integration tests run (simulators, daemons, a browser).
TEST_PACKAGES=(
  libgtest-dev libgmock-dev   # unit tests
  libbenchmark-dev     # bench/
  ibsim-utils infiniband-diags opensm  # real InfiniBand peers (and a subnet manager) for the integration tests
  lldpd iproute2       # real LLDP peers in network namespaces (verify tests)
  pciutils ethtool     # lspci and ethtool, run by `railyard collect` (and its live test)
  sqlite3              # the ledger tests read the database with its shell
  clang libclang-rt-dev lld  # the sanitizer + libFuzzer tree (make asan-test, make fuzz); lld links it twice as fast
  clang-format         # the layout of the C++ (.clang-format), checked by ctest `formatting`
  help2man             # railyard(1), generated from railyard --help at build time (the .deb carries it)
  clustershell         # clush: the fleet recipe of docs/facts.md runs in the tests as written
  time jq              # bench/: /usr/bin/time for peak RSS; jq as the verify baseline
  netplan.io           # `netplan generate` checks the host files `railyard config hosts` writes
  shellcheck systemd python3-yaml  # every generated script, unit and NVUE file through its real consumer (tests/hostile/generators_test.sh)
  strace               # tests/integration/rollout_kill_test.sh: SIGKILL injected at every write point of a rollout command
  slurmctld slurmd slurm-client munge  # a real Slurm (in namespaces) takes every drain and resume script rollout writes
  wrk                  # bench/serve_bench.sh: p99 latency per endpoint under 64 connections, beside a static file server
  network-manager      # `nmcli --offline` reads its keyfiles with NetworkManager's own reader (daemon masked, below)
  chromium             # headless: tests plan.html in a real browser (DOM and screenshots)
  python3-websocket    # drives that browser over the DevTools protocol: serve's login and every dashboard view
  curl                 # drives serve in the tests
  postgresql           # the PostgreSQL ledger's tests start a real server (initdb in a temp dir)
)
PACKAGES=("${MAIN_PACKAGES[@]}")
[ "${1:-}" = "--main" ] || PACKAGES+=("${TEST_PACKAGES[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The tests need nmcli, not the NetworkManager daemon: on a machine running systemd it is masked
# before the package is installed, so it never starts and never takes over this machine's interfaces.
if [[ " ${missing[*]} " == *" network-manager "* ]] && [ -d /run/systemd/system ]; then
  echo "install-deps: masking NetworkManager.service (only nmcli --offline is used)"
  $SUDO systemctl mask NetworkManager.service NetworkManager-wait-online.service NetworkManager-dispatcher.service
fi
# Slurm and munge are run by the tests in namespaces of their own, never as this machine's services.
if [[ " ${missing[*]} " =~ " "(munge|slurmctld|slurmd)" " ]] && [ -d /run/systemd/system ]; then
  echo "install-deps: masking munge, slurmctld and slurmd (the tests start their own)"
  $SUDO systemctl mask munge.service slurmctld.service slurmd.service
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
