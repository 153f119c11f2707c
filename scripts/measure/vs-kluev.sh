#!/usr/bin/env bash
# Our counter against Evgeny Kluev's quadrant counter, side by side on this machine: RUNS runs of each, interleaved, each timed by the same wall clock
# around the whole process (start-up and table building included); prints the medians, the
# ratio Kluev / ours, and our peak memory. A count that differs from A000170 stops the script.
#
#   KLUEV=DIR scripts/measure/vs-kluev.sh N [RUNS] [THREADS] [ALGORITHM]   (defaults: 3 runs, 2 threads, auto)
#   BASELINE_REV=4fd7e95 scripts/measure/vs-kluev.sh 18 5
#     (also builds that revision in target/baseline and times it in the same rounds, so a
#     change is compared with what it changed, and both with Kluev's, in one run;
#     BASELINE_BIN=/path/to/nqueens takes a built binary instead)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
n=${1:?usage: scripts/measure/vs-kluev.sh N [RUNS] [THREADS] [ALGORITHM]}
runs=${2:-3}
threads=${3:-2}
alg=${4:-auto}
# KLUEV is a folder of Kluev's binaries, one per board size, named nq-N (his program fixes N
# when it is compiled): docs/guide/bench.md#the-peers says where to get it and how to build it.
kluev=${KLUEV:-}/nq-$n
[ -x "$kluev" ] || { echo "vs-kluev.sh: no $kluev: set KLUEV to a folder of Kluev's binaries nq-N (docs/guide/bench.md#the-peers)" >&2; exit 2; }
prepare
base_bin=${BASELINE_BIN:-}
[[ -z ${BASELINE_REV:-} ]] || build_revision "$BASELINE_REV"
known=$(awk -v n="$n" '$1==n {print $2}' data/oeis/b000170.txt)
now() { date +%s.%N; }
for ((r = 1; r <= runs; r++)); do
  t0=$(now)
  json=$(checked_count "$n" --threads "$threads" --algorithm "$alg")
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >> "$tmp/ours"
  field peak_memory_bytes "$json" > "$tmp/peak"
  if [[ -n $base_bin ]]; then
    t0=$(now)
    bin=$base_bin checked_count "$n" --threads "$threads" --algorithm "$alg" >/dev/null
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >> "$tmp/base"
  fi
  t0=$(now)
  total=$("$kluev" "$threads" 2>&1 | tr '\r' '\n' | awk '$1 == "Result:" { print $2 }' | tail -n 1)
  t1=$(now)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }')
  if [[ -n $known && $total != "$known" ]]; then
    echo "kluev counted $total, A000170($n) = $known" >&2
    exit 3
  fi
  echo "$secs" >> "$tmp/kluev"
done
read -r om omin omax < <(stats "$tmp/ours")
read -r km kmin kmax < <(stats "$tmp/kluev")
echo "# N=$n, $threads threads, $runs runs each, interleaved; CPU: $(cpu_line)"
printf '%-10s %10s %10s %10s\n' counter median_s min_s max_s
printf '%-10s %10.3f %10.3f %10.3f\n' "ours" "$om" "$omin" "$omax"
printf '%-10s %10.3f %10.3f %10.3f\n' "kluev" "$km" "$kmin" "$kmax"
if [[ -n $base_bin ]]; then
  read -r bm bmin bmax < <(stats "$tmp/base")
  printf '%-10s %10.3f %10.3f %10.3f\n' "base" "$bm" "$bmin" "$bmax"
  awk -v b="$bm" -v k="$km" -v o="$om" \
    'BEGIN { printf "ratio kluev/base %.2f; ratio base/ours %.3f\n", k / b, b / o }'
fi
awk -v o="$om" -v k="$km" -v p="$(cat "$tmp/peak")" \
  'BEGIN { printf "ratio kluev/ours %.2f; our peak memory %.1f MiB\n", k / o, p / 1048576 }'
