#!/usr/bin/env bash
# Thread scaling of `count N`: runs the count RUNS times at each thread count, interleaved
# (1, 2, 1, 2, ...) so that machine noise hits all of them alike, and prints the median,
# min and max wall time, and the speedup of the medians against the first thread count.
#
#   scripts/measure/scaling.sh N [RUNS] [THREADS...]      (defaults: RUNS=5, THREADS="1 2")
#
# Extra options for count (algorithm, kernel) go in NQUEENS_ARGS, e.g.
#   NQUEENS_ARGS="--algorithm mirror --kernel simple" scripts/measure/scaling.sh 17 3 1 2
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
n=${1:?usage: scripts/measure/scaling.sh N [RUNS] [THREADS...]}
runs=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
threads=("$@")
(( ${#threads[@]} )) || threads=(1 2)

prepare
echo "# nqueens count $n ${NQUEENS_ARGS:-}; $runs runs per thread count, interleaved"
for ((r = 1; r <= runs; r++)); do
  for t in "${threads[@]}"; do
    # shellcheck disable=SC2086
    json=$(checked_count "$n" --threads "$t" ${NQUEENS_ARGS:-})
    field seconds "$json" >> "$tmp/$t"
    nodes=$(field nodes "$json")
  done
done
printf '%-8s %10s %10s %10s %8s %14s\n' threads median_s min_s max_s speedup nodes_per_s
base=""
for t in "${threads[@]}"; do
  read -r med min max < <(stats "$tmp/$t")
  [[ -n $base ]] || base=$med
  awk -v t="$t" -v med="$med" -v min="$min" -v max="$max" -v base="$base" -v nodes="$nodes" \
    'BEGIN { printf "%-8s %10.3f %10.3f %10.3f %8.2f %14.3e\n", t, med, min, max, base / med, nodes / med }'
done
