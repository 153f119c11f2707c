#!/usr/bin/env bash
# One count split over a Slurm job array: each array task counts one shard (or several), with
# a checkpoint so that a preempted or requeued task resumes where it stopped.
#
#   scripts/slurm-submit.sh 21 1000 --concurrency 50          # N=21 in 1000 shards, 50 at a time
#   nqueens status results                                    # how far it is
#   nqueens merge results                                     # when all are done
#
# or by hand, for K within the cluster's MaxArraySize:
#
#   mkdir -p logs                                             # Slurm opens the log before this runs
#   sbatch --array=0-999%50 scripts/slurm-array.sh 21 1000
#
# Arguments: [ARRAY OPTIONS] N K [COUNT OPTIONS...] (e.g. --algorithm symmetric). Shards count
# from 0, as SLURM_ARRAY_TASK_ID does. Array task A counts the shards OFFSET + A + j*STEP for
# j = 0 .. PER-1 (those below K): so K can pass the cluster's MaxArraySize. The array options,
# before N, say how (scripts/slurm-submit.sh passes them as arguments, which reach the job
# under any --export; each falls back to the environment variable named, then the default):
#   --offset OFFSET        NQUEENS_SHARD_OFFSET (0)
#   --step STEP            NQUEENS_SHARD_STEP (the array's length, SLURM_ARRAY_TASK_COUNT)
#   --per-task PER         NQUEENS_SHARDS_PER_TASK (1)
#   --nqueens BINARY       NQUEENS (nqueens, on the PATH)
#   --run-dir DIR          NQUEENS_RUN_DIR (the job's working directory)
#   --checkpoint-every S   NQUEENS_CHECKPOINT_EVERY (60)
#   --progress-every S     NQUEENS_PROGRESS_EVERY (300)
# The array's concurrency (%50) is independent of K, so make K much larger than the nodes you
# get: Slurm hands the shards out as nodes free up, which balances a cluster of unequal
# machines. Threads: SLURM_CPUS_PER_TASK.
# Results and checkpoints are laid out by N, K and shard under results/ and checkpoints/, in
# directories of 1,000 shards (results/n21-k1000/000/n21-k1000-shard-7.json), in the submission
# directory (or $NQUEENS_RUN_DIR): resubmitting the same array skips the finished shards and
# resumes the rest. A finished shard's checkpoint is removed.
#SBATCH --job-name=nqueens
#SBATCH --cpus-per-task=8
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
# The log directory must exist when the array is submitted (Slurm opens the file first; a
# missing directory fails every task before this script runs): mkdir -p logs.
#SBATCH --output=logs/nqueens-%A-%a.log
set -euo pipefail
usage="usage: sbatch --array=0-\$((K-1))[%CONCURRENCY] $0 [--offset O] [--step S] [--per-task P] [--nqueens BINARY] [--run-dir DIR] [--checkpoint-every S] [--progress-every S] [--dry-run] N K [COUNT OPTIONS...]"
dry_run=""
while [[ ${1:-} == -* ]]; do
  case $1 in
  -h | --help)
    # The comment at the top of this file is its manual.
    sed -n '2,/^#SBATCH/p' "$0" | grep -v '^#SBATCH' | sed 's/^# \{0,1\}//'
    echo "$usage"
    exit 0
    ;;
  --dry-run)
    # What this array task would count, and the commands, without counting anything.
    dry_run=1
    shift
    continue
    ;;
  esac
  [[ $# -ge 2 ]] || { echo "slurm-array.sh: $1 needs a value; $usage" >&2; exit 2; }
  case $1 in
  --offset) NQUEENS_SHARD_OFFSET=$2 ;;
  --step) NQUEENS_SHARD_STEP=$2 ;;
  --per-task) NQUEENS_SHARDS_PER_TASK=$2 ;;
  --nqueens) NQUEENS=$2 ;;
  --run-dir) NQUEENS_RUN_DIR=$2 ;;
  --checkpoint-every) NQUEENS_CHECKPOINT_EVERY=$2 ;;
  --progress-every) NQUEENS_PROGRESS_EVERY=$2 ;;
  *) echo "slurm-array.sh: unknown option $1 before N; $usage" >&2; exit 2 ;;
  esac
  shift 2
done
(($# >= 2)) || { echo "slurm-array.sh: give N and K; $usage" >&2; exit 2; }
N=$1
K=$2
shift 2
# Plain decimal numbers only: a value that bash arithmetic would evaluate (`I[$(cmd)]`) or
# read as another number (`k8`, `010`) is refused before any arithmetic sees it.
number() {
  [[ $2 =~ ^(0|[1-9][0-9]{0,9})$ ]] || {
    echo "slurm-array.sh: $1 must be a plain decimal number, not '$2'" >&2
    exit 2
  }
}
number N "$N"
number K "$K"
((K >= 1)) || { echo "slurm-array.sh: K must be at least 1" >&2; exit 2; }
if [[ -z ${SLURM_ARRAY_TASK_ID:-} && -n $dry_run ]]; then
  echo "slurm-array.sh: no SLURM_ARRAY_TASK_ID (not under sbatch): showing array task 0" >&2
  SLURM_ARRAY_TASK_ID=0
fi
[[ -n ${SLURM_ARRAY_TASK_ID:-} ]] || {
  echo "slurm-array.sh: run this under sbatch --array=0-$((K - 1)) (SLURM_ARRAY_TASK_ID is not set), or with --dry-run to see what it would count" >&2
  exit 2
}
A=$SLURM_ARRAY_TASK_ID
number SLURM_ARRAY_TASK_ID "$A"
OFFSET=${NQUEENS_SHARD_OFFSET:-0}
PER=${NQUEENS_SHARDS_PER_TASK:-1}
STEP=${NQUEENS_SHARD_STEP:-${SLURM_ARRAY_TASK_COUNT:-1}}
number NQUEENS_SHARD_OFFSET "$OFFSET"
number NQUEENS_SHARDS_PER_TASK "$PER"
number NQUEENS_SHARD_STEP "$STEP"
((PER >= 1 && STEP >= 1)) || { echo "slurm-array.sh: NQUEENS_SHARDS_PER_TASK and NQUEENS_SHARD_STEP must be at least 1" >&2; exit 2; }
NQUEENS=${NQUEENS:-nqueens}
cd "${NQUEENS_RUN_DIR:-.}"
run="n$N-k$K"
# Counts shard $1 of K, unless its result is there.
one_shard() {
  local I=$1 dir name out ckpt
  dir=$(printf '%03d' $((I / 1000)))
  name="$run-shard-$I"
  out="results/$run/$dir/$name.json"
  ckpt="checkpoints/$run/$dir/$name.ckpt"
  if [[ -s $out || -s results/$name.json ]]; then
    echo "shard $I/$K: already finished ($out), skipped"
    return 0
  fi
  if [[ -n $dry_run ]]; then
    echo "shard $I/$K: would run $NQUEENS count $N --shard $I/$K --threads ${SLURM_CPUS_PER_TASK:-1}" \
      "--checkpoint $ckpt --checkpoint-every ${NQUEENS_CHECKPOINT_EVERY:-60} --progress" \
      "--progress-every ${NQUEENS_PROGRESS_EVERY:-300} ${OPTIONS[*]} > $out.tmp, then rename it $out"
    return 0
  fi
  mkdir -p "results/$run/$dir" "checkpoints/$run/$dir"
  echo "shard $I/$K of N=$N on $(hostname), ${SLURM_CPUS_PER_TASK:-1} threads, $(date -u +%FT%TZ)"
  # Written under a temporary name and renamed: a half-written result never looks finished.
  "$NQUEENS" count "$N" --shard "$I/$K" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --checkpoint "$ckpt" --checkpoint-every "${NQUEENS_CHECKPOINT_EVERY:-60}" \
    --progress --progress-every "${NQUEENS_PROGRESS_EVERY:-300}" "${OPTIONS[@]}" >"$out.tmp"
  mv "$out.tmp" "$out"
  # The result holds all the checkpoint held: a million shards leave no million checkpoints.
  rm -f "$ckpt" "$ckpt.lock"
  echo "shard $I/$K: finished ($out)"
}
OPTIONS=("$@")
counted=0
for ((j = 0; j < PER; j++)); do
  I=$((OFFSET + A + j * STEP))
  if ((I >= K)); then
    continue
  fi
  one_shard "$I"
  counted=$((counted + 1))
done
if ((counted == 0)); then
  echo "array task $A (offset $OFFSET, step $STEP, $PER shards per task) holds no shard of $K: nothing to do" >&2
fi
