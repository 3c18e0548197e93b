#!/usr/bin/env bash
# Checks the include graph of src/ against the layer table src/layers.txt: every `#include "part/…"`
# in a part's code (its tests aside: *_test.cc, *_testing.h) must name the part itself or one it may
# use; every directory under src/ but cli must be in the table; the table must have no cycle.
# Usage: scripts/check-layers.sh [SOURCE_DIR]   Prints each breach as file:line and exits 1 on any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
table="$root/src/layers.txt"
[[ -r $table ]] || { echo "check-layers: cannot read $table" >&2; exit 2; }

declare -A may_use
parts=()
lineno=0
while IFS= read -r line || [[ -n $line ]]; do
  lineno=$((lineno + 1))
  [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
  if [[ ! $line =~ ^([a-z_]+):([a-z_ ]*)$ ]]; then
    echo "$table:$lineno: expected 'part: parts it may use', got: $line" >&2
    exit 2
  fi
  part=${BASH_REMATCH[1]}
  deps=$(echo ${BASH_REMATCH[2]})  # spaces collapsed
  may_use[$part]=" $deps "
  parts+=("$part")
done < "$table"

breaches=0
for part in "${parts[@]}"; do
  for dep in ${may_use[$part]}; do
    if [[ -z ${may_use[$dep]+set} ]]; then
      echo "$table: $part may use '$dep', which is not a part in the table"
      breaches=$((breaches + 1))
    fi
  done
done

# No cycles: a depth-first walk that meets a part still on its path has found one.
declare -A state  # 1 on the current path, 2 done
cycle_from() {
  local p=$1 path=$2 d
  state[$p]=1
  for d in ${may_use[$p]}; do
    [[ -z ${may_use[$d]+set} ]] && continue
    if [[ ${state[$d]:-0} == 1 ]]; then
      echo "$table: cycle: $path -> $d"
      breaches=$((breaches + 1))
    elif [[ ${state[$d]:-0} == 0 ]]; then
      cycle_from "$d" "$path -> $d"
    fi
  done
  state[$p]=2
}
for part in "${parts[@]}"; do
  [[ ${state[$part]:-0} == 0 ]] && cycle_from "$part" "$part"
done

for dir in "$root"/src/*/; do
  part=$(basename "$dir")
  [[ $part == cli ]] && continue
  if [[ -z ${may_use[$part]+set} ]]; then
    echo "src/$part/: a part missing from src/layers.txt"
    breaches=$((breaches + 1))
    continue
  fi
  for file in "$dir"*.h "$dir"*.cc; do
    [[ -e $file ]] || continue
    case $file in *_test.cc | *_testing.h) continue ;; esac
    while IFS=: read -r number included; do
      other=${included%%/*}
      [[ $other == "$part" || ${may_use[$part]} == *" $other "* ]] && continue
      # Only a part's headers count: "nlohmann/json.hpp" and the like are not parts.
      [[ -n ${may_use[$other]+set} || $other == cli ]] || continue
      echo "src/$part/$(basename "$file"):$number: includes \"$included\", but $part may use only: $(echo ${may_use[$part]})"
      breaches=$((breaches + 1))
    done < <(grep -n -o '^#include "[a-z_]*/[^"]*"' "$file" | sed 's/#include "//; s/"$//')
  done
done

# The CLI is thin: a command parses its options and calls a part. A function of src/cli longer than
# 60 lines (from its first line at column 0 to its closing brace there) is a pipeline that belongs in
# a part.
for file in "$root"/src/cli/*.cc; do
  case $file in *_test.cc) continue ;; esac
  while IFS= read -r breach; do
    echo "src/cli/$(basename "$file"):$breach"
    breaches=$((breaches + 1))
  done < <(awk '
    start == 0 && /^[A-Za-z]/ && !/^(namespace|struct|class|using|enum|template|constexpr|static const|const )/ && !/;[[:space:]]*$/ {
      start = NR; name = $0; opened = 0
    }
    start && !opened && /\{[[:space:]]*$/ { opened = 1; next }
    start && !opened && /;[[:space:]]*$/ { start = 0; next }
    start && opened && /^\}/ {
      if (NR - start + 1 > 60) printf "%d: %d lines, over the CLI'"'"'s 60: %s\n", start, NR - start + 1, substr(name, 1, 70)
      start = 0
    }' "$file")
done

if ((breaches)); then
  echo "check-layers: $breaches breach(es) of src/layers.txt"
  exit 1
fi
echo "check-layers: ${#parts[@]} parts, include graph within src/layers.txt"
