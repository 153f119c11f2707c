#!/usr/bin/env bash
# The CPU per solution at 1 thread and at P threads on the very same work (issue 46's many-core
# criterion, at N = 20 and 21): each shard is counted at P threads REPS times, then at 1
# thread, then at P threads REPS times again, so that the machine's drift hits both alike; the
# AVX2 build against the default the same way. For a many-core machine, in one run.
#
#   scripts/measure/many-cores-same-work.sh [OUTDIR]     (uses target/release/nqueens; BIN=path overrides)
#
# WORK lists "N SHARD" pairs, comma-separated (default "21 0/16, 21 8/16, 20 1/4": a sixteenth
# of N = 21 takes about 80 s at 1 thread on the 16-core device machine); AVX2 (default "20 1/4")
# the pairs also counted with NQUEENS_QUADRANT_BUILD=avx2; P is the number of CPUs (PROCS
# overrides), REPS the repeats at P threads on each side of the 1-thread count (default 3).
# Each count's line (wall, user and system s, solutions, core-ns per solution: user + system
# over the shard's own solutions) is written to OUTDIR/many-cores-same-work.txt as it ends,
# then a summary line per pair and build: the 1-thread figure, the median of the P-thread
# ones, and their ratio. SMALL=1 counts N = 14 and 13 (a check of the script, not a measure).
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
out=${1:-.}
mkdir -p "$out"
log=$out/many-cores-same-work.txt
bin=${BIN:-target/release/nqueens}
p=${PROCS:-$(nproc)}
reps=${REPS:-3}
work=${WORK:-21 0/16, 21 8/16, 20 1/4}
avx2=${AVX2:-20 1/4}
[[ -z ${SMALL:-} ]] || { work="14 0/4, 13 1/2"; avx2="14 0/4"; }
say() { echo "$*" | tee -a "$log"; }

say "# $(date -u +%FT%TZ) nqueens $("$bin" --version) on $(nproc) CPUs, P = $p, REPS = $reps"
say "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
say "n shard build threads wall_s user_s sys_s solutions core_ns_per_solution"

# one N SHARD BUILD THREADS: one timed count of the shard; prints its line, appends its
# core-ns to $out/.ns.N.SHARD.BUILD.THREADS.
one() {
  local n=$1 shard=$2 build=$3 t=$4 ns
  timed_json "$build" count "$n" -a quadrants -t "$t" --shard "$shard" --quiet
  ns=$(core_ns "$user" "$sys" "$total")
  say "$n $shard $build $t $wall $user $sys ${total:--} $ns"
  echo "$ns" >>"$out/.ns.$n.${shard/\//-}.$build.$t"
}

# same N SHARD BUILD: P threads REPS times, 1 thread, P threads REPS times; then the summary.
same() {
  local n=$1 shard=$2 build=$3 i key
  key="$n.${shard/\//-}.$build"
  rm -f "$out/.ns.$key".*
  for ((i = 0; i < reps; i++)); do one "$n" "$shard" "$build" "$p"; done
  one "$n" "$shard" "$build" 1
  for ((i = 0; i < reps; i++)); do one "$n" "$shard" "$build" "$p"; done
  local single many
  single=$(cat "$out/.ns.$key.1")
  many=$(sort -g "$out/.ns.$key.$p" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  say "summary $n $shard $build 1-thread $single $p-threads-median $many ratio" \
    "$(awk -v a="$many" -v b="$single" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')"
  rm -f "$out/.ns.$key".*
}

IFS=, read -r -a pairs <<<"$work"
for pair in "${pairs[@]}"; do
  read -r n shard <<<"$pair"
  same "$n" "$shard" default
done
IFS=, read -r -a pairs <<<"$avx2"
for pair in "${pairs[@]}"; do
  read -r n shard <<<"$pair"
  same "$n" "$shard" avx2
done
say "# done $(date -u +%FT%TZ)"
