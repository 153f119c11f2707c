#!/usr/bin/env bash
# Every core on one task (issue 55): one drawn task of a plan (`estimate N --tasks 1 --seed
# SEED`) counted at each thread count in turn, ROUNDS rounds, interleaved so that the machine's
# drift hits them alike; each line says its wall and CPU seconds (the process's user + system),
# wall over CPU (1.00: one thread busy; 0.50: two threads all the way), the CPU per solution
# against the first thread count's in its round, and the peak memory.
#
#   scripts/measure/one-task-threads.sh N SEED [THREADS...]   (default threads: 1 and every CPU)
#
# BIN overrides target/release/nqueens; ROUNDS (default 1) repeats the thread counts;
# OUT names the log (default one-task-threads.txt, appended). Settings of the plan
# (NQUEENS_QUARTER_PARTS, NQUEENS_QUADRANT_BUILD) are passed through. SMALL=1 counts per task of
# N = 16 (a check of the script, not a measure).
set -uo pipefail
cd "$(dirname "$0")/../.."
n=${1:-}
seed=${2:-}
if [[ ! $n =~ ^[0-9]+$ || ! $seed =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/measure/one-task-threads.sh N SEED [THREADS...] (N and SEED plain numbers)" >&2
  exit 2
fi
shift 2
threads=("$@")
[[ ${#threads[@]} -gt 0 ]] || threads=(1 "$(nproc)")
for t in "${threads[@]}"; do
  [[ $t =~ ^[0-9]+$ && $t -ge 1 ]] || { echo "threads must be plain numbers from 1: $t" >&2; exit 2; }
done
[[ -z ${SMALL:-} ]] || n=16
bin=${BIN:-target/release/nqueens}
rounds=${ROUNDS:-1}
log=${OUT:-one-task-threads.txt}
say() { echo "$*" | tee -a "$log"; }
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh

say "# $(date -u +%FT%TZ) nqueens $("$bin" --version) on $(nproc) CPUs; N = $n, seed $seed"
say "# CPU: $(cpu_line)"
say "round threads task wall_s cpu_s wall_over_cpu solutions core_ns_per_solution vs_first peak_mib"
for ((r = 0; r < rounds; r++)); do
  first=
  for t in "${threads[@]}"; do
    timed_json default estimate "$n" --tasks 1 --seed "$seed" -t "$t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    solutions=$(field solutions "$json")
    task=$(field task "$json")
    peak=$(awk -v b="$(field peak_memory_bytes "$json")" 'BEGIN { printf "%.0f", b / 1048576 }')
    ns=$(core_ns "$user" "$sys" "$solutions")
    [[ -n $first ]] || first=$ns
    vs=$(awk -v a="$ns" -v b="$first" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    ratio=$(awk -v w="$wall" -v c="$cpu" 'BEGIN { if (c > 0) printf "%.2f", w / c; else print "-" }')
    say "$r $t $task $wall $cpu $ratio $solutions $ns $vs $peak"
  done
done
