#!/usr/bin/env bash
# Packs a build as a .deb (cpack), installs it with apt (which pulls the runtime libraries
# dpkg-shlibdeps listed), runs the installed railyard on its installed example, checks its man page
# and completions, and removes it. Usage: package-test.sh BUILD_DIR
set -euo pipefail
BUILD=${1:?usage: package-test.sh BUILD_DIR}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if dpkg-query -W -f='${Status}' railyard 2> /dev/null | grep -q "install ok installed"; then
  echo "package-test: a railyard package is installed already; refusing to replace it" >&2
  exit 1
fi
rm -f "$BUILD"/railyard_*.deb
(cd "$BUILD" && cpack -G DEB > /dev/null)
deb=$(realpath "$BUILD"/railyard_*.deb)
dpkg-deb --field "$deb" Package Version Depends
WORK=$(mktemp -d)
cleanup() {
  $SUDO dpkg -r railyard > /dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" > /dev/null
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }
[ "$(command -v railyard)" = /usr/bin/railyard ] || fail "railyard is not /usr/bin/railyard"
# A fresh Debian has none of the -dev packages this machine built with: every library the binary links
# directly (its NEEDED entries) must come from a package its Depends names, and none of those may be a
# -dev package. The libraries those pull in are their own packages' Depends.
depends=" $(dpkg-deb --field "$deb" Depends | sed 's/([^)]*)//g; s/|/,/g; s/ //g; s/,/ /g') "
case "$depends" in *"-dev "*) fail "Depends names a -dev package:$depends" ;; esac
for soname in $(objdump -p /usr/bin/railyard | awk '$1 == "NEEDED" {print $2}'); do
  lib=$(ldd /usr/bin/railyard | awk -v s="$soname" '$1 == s {print $3}')
  [ -n "$lib" ] || fail "$soname: not found by the loader"
  owner=$(dpkg -S "$lib" 2> /dev/null || dpkg -S "$(realpath "$lib")" 2> /dev/null || dpkg -S "${lib#/usr}" 2> /dev/null || true)
  pkg=${owner%%:*}
  [ -n "$pkg" ] || fail "$soname ($lib) belongs to no package"
  case "$depends" in *" $pkg "*) ;; *) fail "$soname comes from $pkg, which the package's Depends does not name:$depends" ;; esac
done
/usr/bin/railyard --version
/usr/bin/railyard plan /usr/share/doc/railyard/examples/superpod-h100-4su.yaml -o "$WORK/plan" > "$WORK/summary.txt" \
  || fail "the installed railyard could not plan its installed example"
[ -s "$WORK/plan/plan.json" ] || fail "no plan.json"
# Unpacked first: grep -q stops at its match, and under pipefail the zcat it cut short fails the pipe.
zcat /usr/share/man/man1/railyard.1.gz > "$WORK/railyard.1" || fail "no railyard(1)"
grep -q '^\.TH RAILYARD' "$WORK/railyard.1" || fail "railyard(1) is not a man page"
grep -q '^\.SS "railyard ledger import"' "$WORK/railyard.1" || fail "railyard(1) does not hold each verb's help"
# shellcheck disable=SC2016
bash -c 'source /usr/share/bash-completion/completions/railyard; COMP_WORDS=(railyard pl); COMP_CWORD=1; _railyard; [ "${COMPREPLY[*]}" = plan ]' \
  || fail "bash completion does not complete 'pl' to plan"
[ -s /usr/share/zsh/vendor-completions/_railyard ] || fail "no zsh completion"
[ -s /usr/share/doc/railyard/README.md ] || fail "no docs"
$SUDO dpkg -r railyard > /dev/null
[ ! -e /usr/bin/railyard ] || fail "dpkg -r left /usr/bin/railyard"
echo "package-test: $(basename "$deb") installs, plans, has its man page and completions, and removes cleanly"
