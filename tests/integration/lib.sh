# Shared by the integration scripts: `check NAME COMMAND...` counts a pass or prints the
# failure; `finish` prints the "N passed, N failed" line CI reads and sets the exit status.
pass=0
fail=0
check() {
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
finish() {
  echo "$pass passed, $fail failed"
  test "$fail" -eq 0
}
