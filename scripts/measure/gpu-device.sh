#!/usr/bin/env bash
# The device check of the GPU backend (docs/guide/gpu.md), one call on a machine with an NVIDIA
# GPU: exactness first, then speed, within a time budget. Prints a log; keep it in docs/runs/gpu/
# and its figures in docs/performance/log.md.
#
#   scripts/measure/gpu-device.sh            (builds with cargo, then runs every step)
#   NQ=bin/nqueens EXAMPLES=bin scripts/measure/gpu-device.sh
#                                            (binaries built elsewhere with --features gpu,probe:
#                                             for a machine without cargo)
#   YGCH=/path/to/n_queens scripts/measure/gpu-device.sh
#                                            (ygch's counter beside ours: docs/guide/gpu.md#the-peer)
#   BUDGET=400 LIMIT=90 NS="20 21" scripts/measure/gpu-device.sh
#                                            (seconds for the whole check, and for one timed run;
#                                             which N to time)
#   STEPS="3 5" scripts/measure/gpu-device.sh  (only these steps; 0 always runs)
#   GPU_NS="20" scripts/measure/gpu-device.sh  (step 3 counts only these N on the GPU)
#
# 0. the GPU and the runtime compiler found, and one small count on the GPU;
# 1. exactness: count N --gpu for N = 4..18, each against A000170 (count checks it: exit 3 if
#    not) and its records against the CPU's (a shard of every task: the same digest);
# 2. a run of N = 14 in 4 shards, 0 and 2 counted on the GPU, 1 and 3 on the CPU, merged: its
#    digest is the one of the run counted on the CPU alone; audited by the CPU;
# 3. speed, wall seconds: count N --gpu, the whole CPU with the default method, and ygch's
#    counter where YGCH is given;
# 4. the kernel's two searches side by side (examples/gpu_searches.rs), each total against
#    A000170;
# 5. the quadrant method's leaves prototype (examples/leaves_on_gpu.rs): the largest sieve of
#    N = 22 task 100 matched on the GPU, exact against the CPU's sieve, pattern tests per second
#    beside one core's;
# 6. every core on one task: a one-task estimate of N = 27 at 16 and 4 threads (wall and user
#    seconds, peak memory).
# A step that would start past the budget is skipped and says so. Exit 3 if a count differs.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
NS=${NS:-20 21}
LIMIT=${LIMIT:-90}
BUDGET=${BUDGET:-420}
STEPS=${STEPS:-0 1 2 3 4 5 6}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
failed=0

echo "== $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null || echo '?') on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || echo "(no nvidia-smi)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
if [[ -z ${NQ:-} ]]; then
  cargo build --release --features gpu,probe --quiet --bin nqueens --example gpu_searches --example leaves_on_gpu || exit 1
  NQ=$ROOT/target/release/nqueens
  EXAMPLES=$ROOT/target/release/examples
fi
EXAMPLES=${EXAMPLES:-$(dirname "$NQ")}
# NVRTC under its unversioned name, where only a versioned one is installed (CUDA 13's
# libnvrtc.so.13 is not among the names the loader tries).
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so '; then
  found=$(ldconfig -p 2>/dev/null | grep -o '/[^ ]*libnvrtc\.so\.[0-9]*$' | head -1)
  [[ -z $found ]] && found=$(find /usr/local/cuda*/ /opt /usr/lib -name 'libnvrtc.so.[0-9]*' 2>/dev/null | head -1)
  if [[ -n $found ]]; then
    mkdir -p "$W/lib" && ln -s "$found" "$W/lib/libnvrtc.so"
    export LD_LIBRARY_PATH="$W/lib:$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "NVRTC: $found"
  fi
fi

# Whether `seconds` more fit in the budget; if not, says the step is skipped.
fits() { if (( SECONDS + $1 > BUDGET )); then echo "(skipped: $2 would pass the budget of $BUDGET s at $SECONDS s)"; return 1; fi; }
# `timed WHAT CMD...`: CMD's wall seconds (and its total), or why it stopped.
timed() {
  local what=$1; shift
  local t0 t1; t0=$(date +%s.%N)
  if timeout "$LIMIT" "$@" >"$W/out" 2>&1; then
    t1=$(date +%s.%N)
    echo "$what: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s  $(grep -o '"total":[0-9]*\|queens result [0-9]*' "$W/out" | head -1)"
  else
    echo "$what: stopped or failed (limit $LIMIT s): $(tail -2 "$W/out" | tr '\n' ' ')"
  fi
}
digest() { "$NQ" merge --json "$@" | sed 's/.*"run_digest":"\([0-9a-f]*\)".*/\1/'; }

echo "== 0. the GPU"
"$NQ" --version
if ! "$NQ" count 8 --gpu --json -t 1; then
  echo "the GPU cannot count: what the machine has"
  ldconfig -p | grep -i -E 'nvrtc|libcuda' | head
  ls /usr/local/cuda*/lib64 2>/dev/null | grep -i nvrtc | head
  exit 1
fi

if [[ " $STEPS " == *" 1 "* ]]; then
echo "== 1. exactness, N = 4..18 (step at $SECONDS s)"
for n in $(seq 4 18); do
  if ! g=$("$NQ" count "$n" --gpu --json -t 1 2>&1); then echo "N=$n gpu FAILED: $g"; failed=1; continue; fi
  echo "N=$n gpu: $(echo "$g" | grep -o '"total":[0-9]*'), $(echo "$g" | grep -o '"matches_known":[a-z]*'), $(echo "$g" | grep -o '"nodes":[0-9]*'), $(echo "$g" | grep -o '"seconds":[0-9.]*')"
  "$NQ" count "$n" --gpu --shard 0/1 -t 1 -o "$W/g$n.json" 2>/dev/null
  "$NQ" count "$n" -a symmetric --shard 0/1 -t "$(nproc)" -o "$W/c$n.json" 2>/dev/null
  if [[ $(digest "$W/g$n.json") == $(digest "$W/c$n.json") ]]; then
    echo "N=$n records: the same digest as the CPU's"
  else
    echo "N=$n records DIFFER from the CPU's"; failed=1
  fi
done
fi

if [[ " $STEPS " == *" 2 "* ]]; then
echo "== 2. one run, shards on the GPU and the CPU (step at $SECONDS s)"
mkdir -p "$W/mixed" "$W/cpu"
for i in 0 1 2 3; do
  if (( i % 2 == 0 )); then on=--gpu; else on="-a symmetric"; fi
  # shellcheck disable=SC2086
  "$NQ" count 14 $on --shard "$i/4" -o "$W/mixed/s$i.json" 2>/dev/null
  "$NQ" count 14 -a symmetric --shard "$i/4" -o "$W/cpu/s$i.json" 2>/dev/null
done
"$NQ" merge "$W/mixed" | tail -3
if [[ $(digest "$W/mixed") == $(digest "$W/cpu") ]]; then echo "mixed run: the same digest as the CPU's run"
else echo "mixed run DIFFERS"; failed=1; fi
"$NQ" audit --sample 1 "$W/mixed/s0.json" 2>&1 | tail -2
fi

if [[ " $STEPS " == *" 3 "* ]]; then
echo "== 3. speed (wall seconds; limit $LIMIT s a run; step at $SECONDS s)"
for n in $NS; do
  fits 60 "N=$n" || break
  if [[ " ${GPU_NS:-$NS} " == *" $n "* ]]; then timed "N=$n gpu" "$NQ" count "$n" --gpu --json; fi
  timed "N=$n cpu default method, $(nproc) threads" "$NQ" count "$n" --json
  # ygch's program takes N and the rows it places on the host (5, as its README says for one GPU
  # and N <= 22) and prints "parallel N queens result TOTAL".
  if [[ -n ${YGCH:-} ]]; then timed "N=$n ygch" "$YGCH" "$n" "${YGCH_ROWS:-5}"; fi
done
fi

if [[ " $STEPS " == *" 4 "* ]]; then
echo "== 4. the kernel's two searches (nq_count, nq_count32; step at $SECONDS s)"
for n in $NS; do
  fits 60 "gpu_searches $n" || break
  RUNS=1 timeout "$LIMIT" "$EXAMPLES/gpu_searches" "$n" || echo "gpu_searches $n: stopped or failed ($?)"
done
fi

if [[ " $STEPS " == *" 5 "* ]]; then
echo "== 5. the quadrant method's leaves on the GPU (prototype; step at $SECONDS s)"
if fits 60 "leaves_on_gpu"; then
  # shellcheck disable=SC2086
  timeout "$LIMIT" "$EXAMPLES/leaves_on_gpu" ${LEAVES:-22 100} || echo "leaves_on_gpu: stopped or failed ($?)"
fi
fi

if [[ " $STEPS " == *" 6 "* ]]; then
echo "== 6. every core on one task: N = 27, one drawn task (step at $SECONDS s)"
for t in $(nproc) 4; do
  fits 90 "estimate 27 at $t threads" || break
  python3 - "$NQ" "$t" "$LIMIT" <<'PY' || echo "estimate 27 at $t threads: stopped or failed"
import resource, subprocess, sys, time
nq, threads, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
t0 = time.time()
r = subprocess.run([nq, "estimate", "27", "--tasks", "1", "--seed", "11", "-t", threads],
                   capture_output=True, text=True, timeout=limit)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
wall = time.time() - t0
print("\n".join(r.stdout.splitlines()[-3:]))
print(f"threads {threads}: wall {wall:.1f} s, user {u.ru_utime:.1f} s, wall/user {wall / max(u.ru_utime, 1e-9):.3f}, peak {u.ru_maxrss} KiB, exit {r.returncode}")
PY
done
fi

echo "== done at $SECONDS s"
(( failed )) && { echo "a count DIFFERED or failed: see above"; exit 3; }
exit 0
