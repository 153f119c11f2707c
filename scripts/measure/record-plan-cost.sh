#!/usr/bin/env bash
# What the record plan's whole combinations cost against the same combinations in 13 parts
# (the N = 28 plan before it), and the cost a solution at N = 26 beside them: user CPU
# seconds of one thread over the solutions (core-ns per solution), in one run, on this machine.
#
#   scripts/measure/record-plan-cost.sh [COMBINATIONS...]    (default: 3 combinations of N = 28 with
#                                                     solutions, and 4 tasks of N = 26)
#
# Names the CPU and the build (NQUEENS_QUADRANT_BUILD caps it, as for count).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release --quiet --example task_cost
COST=$ROOT/target/release/examples/task_cost
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), build cap: ${NQUEENS_QUADRANT_BUILD:-the richest}"
combos=("$@")
((${#combos[@]})) || combos=(1000 7000001 19000002)
ns() { awk -v s="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.3f", s / t * 1e9; else print "-" }'; }
for c in "${combos[@]}"; do
  read -r _ whole_t whole_s < <("$COST" 28 1 "$c")
  parts=$(seq $((c * 13)) $((c * 13 + 12)))
  # shellcheck disable=SC2086 # the ids, one argument each
  read -r parts_t parts_s < <("$COST" 28 13 $parts | awk '{t += $2; s += $3} END {print t, s}')
  echo "N=28 combination $c: whole $whole_t solutions in $whole_s s ($(ns "$whole_s" "$whole_t") core-ns), 13 parts $parts_t in $parts_s s ($(ns "$parts_s" "$parts_t") core-ns)"
done
"$COST" 26 0 100000 400000 700000 1000000 | while read -r id t s; do
  echo "N=26 task $id: $t solutions in $s s ($(ns "$s" "$t") core-ns)"
done
