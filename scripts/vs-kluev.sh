#!/usr/bin/env bash
# Our counter against Evgeny Kluev's quadrant counter (../shared/anchors/kluev.sh), side by
# side on this machine: RUNS runs of each, interleaved, each timed by the same wall clock
# around the whole process (start-up and table building included); prints the medians, the
# ratio Kluev / ours, and our peak memory. A count that differs from A000170 stops the script.
# This is a benchmark, not a build or a test: it may use ../shared.
#
#   scripts/vs-kluev.sh N [RUNS] [THREADS] [ALGORITHM]   (defaults: 3 runs, 2 threads, auto)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/stats.sh
source scripts/stats.sh
n=${1:?usage: scripts/vs-kluev.sh N [RUNS] [THREADS] [ALGORITHM]}
runs=${2:-3}
threads=${3:-2}
alg=${4:-auto}
kluev=../shared/anchors/kluev.sh
[ -x "$kluev" ] || { echo "vs-kluev.sh: $kluev not found (it lives in the shared folder)" >&2; exit 2; }
prepare
known=$(awk -v n="$n" '$1==n {print $2}' data/oeis/b000170.txt)
# kluev.sh builds its binary for N on first use (and then counts once): outside the timing.
[ -x "/tmp/anchors-kluev/nq-$n" ] || "$kluev" "$n" "$threads" >/dev/null
now() { date +%s.%N; }
for ((r = 1; r <= runs; r++)); do
  t0=$(now)
  json=$(checked_count "$n" --threads "$threads" --algorithm "$alg")
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >> "$tmp/ours"
  field peak_memory_bytes "$json" > "$tmp/peak"
  out=$("$kluev" "$n" "$threads")
  read -r _ total secs <<<"$out"
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
awk -v o="$om" -v k="$km" -v p="$(cat "$tmp/peak")" \
  'BEGIN { printf "ratio kluev/ours %.2f; our peak memory %.1f MiB\n", k / o, p / 1048576 }'
