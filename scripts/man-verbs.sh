#!/usr/bin/env bash
# Writes a help2man include file with a COMMANDS section: every verb's and sub-verb's own --help,
# verbatim, so railyard(1) documents each command the binary has. Usage: man-verbs.sh RAILYARD OUT
set -euo pipefail
RAILYARD=$1
OUT=$2
verbs() {  # verbs [VERB]: the sub-verbs listed under "Subcommands:" in that command's --help
  "$RAILYARD" "$@" --help | sed -n '/^Subcommands:$/,/^$/{/^  [a-z]/s/^  \([a-z-]*\).*/\1/p}'
}
roff() {  # help text as literal roff: backslashes escaped, no line read as a request
  sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
}
{
  echo "[COMMANDS]"
  for verb in $(verbs); do
    echo ".SS \"railyard $verb\""
    echo ".nf"
    "$RAILYARD" "$verb" --help | roff
    echo ".fi"
    for sub in $(verbs "$verb"); do
      echo ".SS \"railyard $verb $sub\""
      echo ".nf"
      "$RAILYARD" "$verb" "$sub" --help | roff
      echo ".fi"
    done
  done
} > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
