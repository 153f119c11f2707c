#!/usr/bin/env bash
# Why a solution costs more CPU at 16 threads than at 1 (1.34-1.49x at N = 20 on the 16-core
# device machine, as the performance log records): the same work alone and with every core busy, for
# three kinds of work, in one run on a many-core machine.
#
#   scripts/measure/many-cores-why.sh [OUTDIR]    (uses target/release/nqueens; BIN=path overrides)
#
# Steps (each line is written to OUTDIR/many-cores-why.txt as soon as it is measured):
#   1. no tables, AVX-512: `count 18 -a symmetric -k wide -t 1`, alone, then P copies at once
#   2. no tables, scalar:  the same with `-k fast` at N = 16
#      (if 1 and 2 slow down alike with every core busy, it is the all-core clock or the host;
#      if only 1 does, the AVX-512 clock; if neither, what the quadrant method shares: caches)
#   3. the quadrant method, N = 20 in P shards by work (`--shard I/P -t 1`): all P at once
#      (P processes, one thread each), then the whole count at P threads (one process), then
#      each shard alone: the same work three ways, CPU per solution of each
#   4. step 3's three ways with NQUEENS_QUADRANT_BUILD=avx2 (shards alone: the first 4 only)
#   5. the whole count at the thread counts in THREADS (default "8 4 2"): the scaling table
# P is the number of CPUs (PROCS overrides). Where `perf stat` reads cycles and instructions,
# steps 1 and 3 are also run under it (instructions per solution alike and cycles not would say
# the cores waited). The CPUs' MHz is read from /proc/cpuinfo in the middle of each run at once.
# SMALL=1 runs the steps at N = 12, 11 and 14 (a check of the script, not a measure).
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
out=${1:-.}
mkdir -p "$out"
log=$out/many-cores-why.txt
bin=${BIN:-target/release/nqueens}
p=${PROCS:-$(nproc)}
read -r -a threads <<<"${THREADS:-8 4 2}"
nb=18 nf=16 nq=20 wait1=1 wait2=2
[[ -z ${SMALL:-} ]] || { nb=12 nf=11 nq=14 wait1=0.1 wait2=0.2; }
say() { echo "$*" | tee -a "$log"; }
mhz() { awk -F: '/^cpu MHz/ { s += $2; n++ } END { if (n) printf "%.0f", s / n; else print "-" }' /proc/cpuinfo; }
perf_ok=
perf stat -x, -e cycles,instructions true 2>&1 | grep -q '^[0-9]' && perf_ok=1

say "# $(date -u +%FT%TZ) nqueens $("$bin" --version) on $(nproc) CPUs, P = $p, perf: ${perf_ok:-no}"
say "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), MHz idle $(mhz)"
say "step what build n threads shard wall_s user_s sys_s solutions core_ns_per_solution mhz"

# one TAG BUILD N THREADS SHARD ARGS...: one timed count; prints its line (without the MHz).
one() {
  local tag=$1 build=$2 n=$3 t=$4 shard=$5
  shift 5
  local args=(count "$n" -t "$t" --quiet "$@")
  [[ $shard == - ]] || args+=(--shard "$shard")
  timed_json "$build" "${args[@]}"
  echo "$tag $build $n $t $shard $wall $user $sys $total $(core_ns "$user" "$sys" "$total")"
}

# many STEP WHAT BUILD N ARGS...: P one-thread copies at once (shards I/P when WHAT is shards);
# one line each, then the sum.
many() {
  local step=$1 what=$2 build=$3 n=$4 i m=-
  shift 4
  local tmp=$out/.many
  rm -rf "$tmp"
  mkdir -p "$tmp"
  for ((i = 0; i < p; i++)); do
    if [[ $what == shards ]]; then
      one "$step" "$build" "$n" 1 "$i/$p" "$@" >"$tmp/$i" &
    else
      one "$step" "$build" "$n" 1 - "$@" >"$tmp/$i" &
    fi
  done
  sleep "$wait2"
  m=$(mhz)
  wait
  for ((i = 0; i < p; i++)); do say "$(sed "s/^$step /$step $what-at-once /" "$tmp/$i") $m"; done
  cat "$tmp"/* | awk -v s="$step" -v w="$what" -v b="$build" -v n="$n" -v m="$m" '
    { if ($6 > wall) wall = $6; u += $7; y += $8; t += $9 }
    END { printf "%s %s-at-once-sum %s %d %d - %.2f %.2f %.2f %d %.3f %s\n", s, w, b, n, NR, wall, u, y, t, (u + y) / t * 1e9, m }' |
    tee -a "$log"
  rm -rf "$tmp"
}

# alone STEP WHAT BUILD N THREADS SHARD ARGS...: one count by itself, with the MHz midway.
alone() {
  local step=$1 what=$2 tmp=$out/.alone
  shift 2
  one "$step" "$@" >"$tmp" &
  sleep "$wait1"
  local m
  m=$(mhz)
  wait
  say "$(sed "s/^$step /$step $what /" "$tmp") $m"
  rm -f "$tmp"
}

# perfed WHAT CMD...: cycles and instructions of one command (when perf reads them).
perfed() {
  [[ -n $perf_ok ]] || return 0
  local what=$1
  shift
  perf stat -x, -e cycles,instructions -o "$out/.perf" "$@" >/dev/null 2>&1
  say "perf $what $(awk -F, '/cycles|instructions/ { printf "%s=%s ", $3, $1 }' "$out/.perf")"
  rm -f "$out/.perf"
}

for k in wide fast; do
  s=1 n=$nb
  [[ $k == wide ]] || { s=2 n=$nf; }
  alone "$s" alone default "$n" 1 - -a symmetric -k "$k"
  many "$s" copies default "$n" -a symmetric -k "$k"
done
for b in default avx2; do
  s=$([[ $b == default ]] && echo 3 || echo 4)
  many "$s" shards "$b" "$nq" -a quadrants
  alone "$s" whole "$b" "$nq" "$p" - -a quadrants
  last=$p
  if [[ $b != default ]] && ((last > 4)); then last=4; fi
  for ((i = 0; i < last; i++)); do alone "$s" shard-alone "$b" "$nq" 1 "$i/$p" -a quadrants; done
done
for t in "${threads[@]}"; do alone 5 whole default "$nq" "$t" - -a quadrants; done
perfed "step1-alone" "$bin" count "$nb" -a symmetric -k wide -t 1 --quiet
perfed "step3-whole-P-threads" "$bin" count "$nq" -a quadrants -t "$p" --quiet
perfed "step3-shard-0-alone" "$bin" count "$nq" -a quadrants -t 1 --shard "0/$p" --quiet
say "# done $(date -u +%FT%TZ)"
