#!/usr/bin/env bash
# Compare algorithms and kernels on the same count: every combination is run RUNS times,
# interleaved, at one thread count; prints median times, nodes, and each median's ratio to the
# yardstick (the first combination: the plain recursive mirror-halved counter).
#
#   scripts/measure/compare.sh N [RUNS] [THREADS]          (defaults: RUNS=3, THREADS=1)
#   COMBOS="mirror:simple symmetric:fast" scripts/measure/compare.sh 16
#   COMBOS="mirror:simple symmetric:wide symmetric:wide@2" scripts/measure/compare.sh 17
#     (ALGORITHM:KERNEL@T runs that combination on T threads instead of THREADS)
#   BASELINE_REV=10a79ef COMBOS="symmetric:wide" scripts/measure/compare.sh 17 5
#     (also builds that git revision in target/baseline and runs every combination with it
#     too, labelled base/..., interleaved with the current build's runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
n=${1:?usage: scripts/measure/compare.sh N [RUNS] [THREADS]}
runs=${2:-3}
threads=${3:-1}
read -r -a combos <<<"${COMBOS:-mirror:simple mirror:fast mirror:lanes mirror:wide symmetric:simple symmetric:fast symmetric:lanes symmetric:wide}"

prepare
bins=("cur=$bin")
if [[ -n ${BASELINE_REV:-} ]]; then
  build_revision "$BASELINE_REV"
  bins+=("base=$base_bin")
  labels=()
  for c in "${combos[@]}"; do labels+=("$c" "base/$c"); done
  combos=("${labels[@]}")
fi
echo "# nqueens count $n --threads $threads; $runs runs per combination, interleaved${BASELINE_REV:+; base/ = revision $BASELINE_REV}"
for ((r = 1; r <= runs; r++)); do
  for c in "${combos[@]}"; do
    bin=${bins[0]#*=}
    spec=$c
    if [[ $c == base/* ]]; then
      bin=${bins[1]#*=}
      spec=${c#base/}
    fi
    t=$threads
    [[ $spec == *@* ]] && t=${spec##*@}
    spec=${spec%@*}
    json=$(checked_count "$n" --threads "$t" --algorithm "${spec%%:*}" --kernel "${spec##*:}")
    key=${c//\//_}
    field seconds "$json" >> "$tmp/$key"
    field nodes "$json" > "$tmp/$key.nodes"
  done
done
printf '%-22s %10s %10s %10s %14s %8s\n' algorithm:kernel median_s min_s max_s nodes ratio
base=""
for c in "${combos[@]}"; do
  key=${c//\//_}
  read -r med min max < <(stats "$tmp/$key")
  [[ -n $base ]] || base=$med
  awk -v c="$c" -v med="$med" -v min="$min" -v max="$max" -v base="$base" -v nodes="$(cat "$tmp/$key.nodes")" \
    'BEGIN { printf "%-22s %10.3f %10.3f %10.3f %14s %8.3f\n", c, med, min, max, nodes, med / base }'
done
