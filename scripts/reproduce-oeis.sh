#!/usr/bin/env bash
# Reproduce OEIS A000170 for n = 1..MAX: writes the computed b-file and compares it, line by
# line, with the known values in data/oeis/b000170.txt.
#
#   scripts/reproduce-oeis.sh MAX [OUT]     (default OUT: target/b000170-computed.txt)
#
# Extra options for the counter can be passed in NQUEENS_ARGS (e.g. "--threads 2"); NQUEENS
# names a binary to run instead of building and running target/release/nqueens.
# Exit status: 0 if every computed value with a known value matches, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:?usage: scripts/reproduce-oeis.sh MAX [OUT]}
out=${2:-target/b000170-computed.txt}
case $max in ''|*[!0-9]*) echo "MAX must be a whole number between 1 and 64, got '$max'" >&2; exit 2;; esac
if (( max < 1 || max > 64 )); then echo "MAX must be between 1 and 64, got $max" >&2; exit 2; fi

if [[ -n ${NQUEENS:-} ]]; then
  bin=$NQUEENS
else
  cargo build --release --quiet
  bin=target/release/nqueens
fi
mkdir -p "$(dirname "$out")"
echo "# A000170 computed by nqueens $("$bin" --version | cut -d' ' -f2), n = 1..$max" > "$out"
# The tool's own mark is not used: the comparison below reads the known b-file itself.
# shellcheck disable=SC2086
"$bin" table "1..$max" --algorithm symmetric ${NQUEENS_ARGS:-} | cut -d' ' -f1,2 >> "$out" || true

known=data/oeis/b000170.txt
status=0
while read -r n a; do
  [[ $n == \#* ]] && continue
  k=$(awk -v n="$n" '$1 == n { print $2 }' "$known")
  if [[ -z $k ]]; then
    echo "$n $a (no known value)"
  elif [[ $k == "$a" ]]; then
    echo "$n $a matches"
  else
    echo "$n $a DIFFERS from the known $k"
    status=1
  fi
done < "$out"
echo "computed b-file: $out"
exit $status
