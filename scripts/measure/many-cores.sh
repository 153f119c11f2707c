#!/usr/bin/env bash
# Thread scaling and the AVX2 build against the default, on a many-core machine, in one run:
# what docs/PERFORMANCE.md's many-core rows come from. Each count is timed by bash's own
# `time` (no /usr/bin/time needed on a bare machine): wall, user and system seconds, and the
# CPU per solution (user + system seconds over the run's own solutions, in core-ns).
#
#   scripts/measure/many-cores.sh [OUTDIR]        (uses target/release/nqueens; BIN=path overrides)
#
# Steps (each line is written to OUTDIR/many-cores.txt as soon as it is measured, so a run cut
# short keeps what it had):
#   1. N = 20, threads 16 8 4 2 1 (whole counts; THREADS overrides the list)
#   2. N = 21, 16 threads (whole), and 1 thread on shard 0/16 (striped: a sample of every part)
#   3. N = 20 shard 0/4 on 1 thread, default build and NQUEENS_QUADRANT_BUILD=avx2, twice,
#      interleaved
#   4. where KLUEV holds Kluev's binaries (nq-19: docs/guide/bench.md#the-peers), N = 19
#      at the largest thread count, ours and Kluev's, 3 runs interleaved
# SMALL=1 runs the same steps at N = 12, 13 and 11 (a check of the script, not a measure).
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
out=${1:-.}
mkdir -p "$out"
log=$out/many-cores.txt
bin=${BIN:-target/release/nqueens}
read -r -a threads <<<"${THREADS:-16 8 4 2 1}"
max=${threads[0]}
n20=20 n21=21 n19=19
[[ -z ${SMALL:-} ]] || { n20=12 n21=13 n19=11; }
say() { echo "$*" | tee -a "$log"; }

say "# $(date -u +%FT%TZ) nqueens $("$bin" --version) on $(nproc) CPUs"
say "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')," \
  "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|bmi2|avx512f|avx512vl|avx512_vpopcntdq' | tr '\n' ' ')"
lscpu 2>/dev/null | grep -E '^(Thread|Core|Socket|L2|L3|Model name)' | sed 's/^/# /' | tee -a "$log"
say "step build N threads shard wall_s user_s sys_s solutions core_ns_per_solution"

# run STEP BUILD N THREADS SHARD: one timed count, one line.
run() {
  local step=$1 build=$2 n=$3 t=$4 shard=$5
  local args=(count "$n" -a quadrants -t "$t" --quiet)
  [[ $shard == - ]] || args+=(--shard "$shard")
  timed_json "$build" "${args[@]}"
  if [[ $shard == - ]] && ! grep -q '"matches_known":true' <<<"$json"; then
    say "WRONG COUNT: $json"
  fi
  say "$step $build $n $t $shard $wall $user $sys $total $(core_ns "$user" "$sys" "$total")"
}

for t in "${threads[@]}"; do run 1 default "$n20" "$t" -; done
run 2 default "$n21" "$max" -
run 2 default "$n21" 1 0/16
for r in 1 2; do
  run 3 default "$n20" 1 0/4
  run 3 avx2 "$n20" 1 0/4
done
if [[ -x ${KLUEV:-/nonexistent}/nq-$n19 ]]; then
  TIMEFORMAT='%R %U %S'
  for r in 1 2 3; do
    run 4 default "$n19" "$max" -
    { time "$KLUEV/nq-$n19" "$max" >"$out/.kluev" 2>&1; } 2>"$out/.time"
    read -r wall user sys <"$out/.time"
    say "4 kluev $n19 $max - $wall $user $sys $(tr '\r' '\n' <"$out/.kluev" | awk '$1 == "Result:" { print $2 }' | tail -n 1) -"
  done
fi
rm -f "$out/.time" "$out/.kluev"
say "# done $(date -u +%FT%TZ)"
