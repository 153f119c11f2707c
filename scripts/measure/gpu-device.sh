#!/usr/bin/env bash
# The device check of the GPU backend (issue 59, docs/guide/gpu.md), one call on a machine with
# an NVIDIA GPU: builds with --features gpu, checks exactness, then times. Prints a log (keep it
# in docs/runs/, its figures in docs/PERFORMANCE.md).
#
#   scripts/measure/gpu-device.sh                  (the checks and N = 18..21 timed)
#   YGCH=/path/to/n_queens scripts/measure/gpu-device.sh   (ygch's counter beside it: docs/guide/gpu.md#the-peer)
#   NS="18 19" LIMIT=120 scripts/measure/gpu-device.sh                     (which N to time, seconds each)
#
# 1. exactness: count N --gpu for N = 4..16, each against A000170 (count checks it: exit 3 if
#    not) and its records against the CPU's (a shard of every task: same total, same digest);
# 2. a run of N = 14 in 4 shards, 0 and 2 counted on the GPU, 1 and 3 on the CPU, merged: its
#    total and digest are those of the run counted on the CPU alone; audited by the CPU;
# 3. speed: count N --gpu, the whole CPU (symmetric, then the default method), and ygch's
#    counter where YGCH is given, side by side, wall seconds;
# 4. bench --gpu at N = 18: the GPU's solutions per second beside the CPU's;
# 5. the kernel's two searches side by side (examples/gpu_searches.rs): N = 18..21, each
#    total against A000170, seconds; then the faster with 3 to 6 rows on the host (at 20);
# 6. the quadrant method's leaves prototype: the largest sieve of N = 22 task 100 (and of
#    N = 24 task 1000 and N = 26 task 20000: larger row sets) matched on the GPU, exact
#    against the CPU's sieve (exit 3 if not), pattern tests per second beside one core's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NS=${NS:-18 19 20 21}
LIMIT=${LIMIT:-150}
W=$(mktemp -d)
echo "== $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null || echo '?') on $(hostname)"
nvidia-smi -L 2>&1 || echo "(no nvidia-smi)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || true
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
cargo build --release --features gpu --quiet
NQ=$ROOT/target/release/nqueens
digest() { "$NQ" merge --json "$@" | sed 's/.*"run_digest":"\([0-9a-f]*\)".*/\1/'; }

echo "== 1. exactness, N = 4..16"
for n in $(seq 4 16); do
  g=$("$NQ" count "$n" --gpu --json -t 1)
  echo "N=$n gpu: $(echo "$g" | grep -o '"total":[0-9]*'), $(echo "$g" | grep -o '"matches_known":[a-z]*'), $(echo "$g" | grep -o '"nodes":[0-9]*')"
  "$NQ" count "$n" --gpu --shard 0/1 -t 1 -o "$W/g$n.json"
  "$NQ" count "$n" -a symmetric --shard 0/1 -t "$(nproc)" -o "$W/c$n.json"
  [[ $(digest "$W/g$n.json") == $(digest "$W/c$n.json") ]] && echo "N=$n records: same digest as the CPU's" \
    || { echo "N=$n records DIFFER from the CPU's"; exit 3; }
done

echo "== 2. one run, shards on the GPU and the CPU"
mkdir -p "$W/mixed" "$W/cpu"
for i in 0 1 2 3; do
  if (( i % 2 == 0 )); then on=--gpu; else on="-a symmetric"; fi
  "$NQ" count 14 $on --shard "$i/4" -o "$W/mixed/s$i.json"
  "$NQ" count 14 -a symmetric --shard "$i/4" -o "$W/cpu/s$i.json"
done
"$NQ" merge "$W/mixed"
[[ $(digest "$W/mixed") == $(digest "$W/cpu") ]] && echo "mixed run: same digest as the CPU's run" \
  || { echo "mixed run DIFFERS"; exit 3; }
"$NQ" audit --sample 1 "$W/mixed/s0.json" | tail -2

echo "== 3. speed (wall seconds; limit ${LIMIT} s each)"
timed() { local what=$1; shift; local t0 t1; t0=$(date +%s.%N)
  if timeout "$LIMIT" "$@" >"$W/out" 2>&1; then t1=$(date +%s.%N)
    echo "$what: $(echo "$t1 - $t0" | bc) s  $(grep -o '"total":[0-9]*\|queens result [0-9]*' "$W/out" | head -1)"
  else echo "$what: stopped or failed (limit ${LIMIT} s): $(tail -1 "$W/out")"; fi; }
for n in $NS; do
  timed "N=$n gpu" "$NQ" count "$n" --gpu --json
  timed "N=$n cpu symmetric, $(nproc) threads" "$NQ" count "$n" -a symmetric --json
  timed "N=$n cpu default method, $(nproc) threads" "$NQ" count "$n" --json
  # ygch's program takes N and the rows it places on the host (5, as its README says for one GPU
  # and N <= 22) and prints "parallel N queens result TOTAL".
  if [[ -n ${YGCH:-} ]]; then timed "N=$n ygch" "$YGCH" "$n" "${YGCH_ROWS:-5}"; fi
done

echo "== 4. bench --gpu"
timeout "$LIMIT" "$NQ" bench --n 18 --threads "$(nproc)" --runs 3 --gpu || echo "bench --gpu: stopped or failed"

echo "== 5. the kernel's two searches (nq_count, nq_count32)"
cargo build --release --features gpu --quiet --example gpu_searches
timeout "$LIMIT" target/release/examples/gpu_searches $NS || echo "gpu_searches: stopped or failed ($?)"
for h in 3 5 6; do
  HOST_ROWS=$h RUNS=1 timeout "$LIMIT" target/release/examples/gpu_searches 20 || echo "host rows $h: stopped or failed"
done

echo "== 6. the quadrant method's leaves on the GPU (prototype)"
cargo build --release --features gpu --quiet --example leaves_on_gpu
for nt in "22 100" "24 1000" "26 20000"; do
  # shellcheck disable=SC2086
  timeout "$LIMIT" target/release/examples/leaves_on_gpu $nt || echo "leaves N T = $nt: stopped or failed ($?)"
done
rm -rf "$W"
