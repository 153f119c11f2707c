#!/usr/bin/env bash
# One count split over a Slurm job array: each array task counts one shard, with a checkpoint
# so that a preempted or requeued task resumes where it stopped.
#
#   mkdir -p logs                                             # Slurm opens the log before this runs
#   sbatch --array=0-999%50 scripts/slurm-array.sh 21 1000     # N=21 in 1000 shards, 50 at a time
#   nqueens status .                                          # how far it is
#   nqueens merge results/n21-k1000-shard-*.json              # when all are done
#
# Arguments: N K [COUNT OPTIONS...] (e.g. --algorithm symmetric). Shards count from 0, as
# SLURM_ARRAY_TASK_ID does: the array must cover 0..K-1, and its concurrency (%50) is
# independent of K, so make K much larger than the nodes you get: Slurm hands the shards out as
# nodes free up, which balances a cluster of unequal machines. Threads: SLURM_CPUS_PER_TASK.
# Results and checkpoints are named by N, K and shard, in the submission directory (or
# $NQUEENS_RUN_DIR): resubmitting the same array skips the finished shards and resumes the rest.
#SBATCH --job-name=nqueens
#SBATCH --cpus-per-task=8
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
# The log directory must exist when the array is submitted (Slurm opens the file first; a
# missing directory fails every task before this script runs): mkdir -p logs.
#SBATCH --output=logs/nqueens-%A-%a.log
set -euo pipefail
N=${1:?usage: sbatch --array=0-\$((K-1))[%CONCURRENCY] $0 N K [COUNT OPTIONS...]}
K=${2:?usage: sbatch --array=0-\$((K-1))[%CONCURRENCY] $0 N K [COUNT OPTIONS...]}
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
I=${SLURM_ARRAY_TASK_ID:?run this under sbatch --array=0-$((K - 1))}
number SLURM_ARRAY_TASK_ID "$I"
if ((I >= K)); then
  echo "array index $I is not a shard of $K (0..$((K - 1))): nothing to do" >&2
  exit 0
fi
NQUEENS=${NQUEENS:-nqueens}
cd "${NQUEENS_RUN_DIR:-.}"
mkdir -p results checkpoints logs
name="n$N-k$K-shard-$I"
out="results/$name.json"
if [[ -s $out ]]; then
  echo "shard $I/$K: already finished ($out), skipped"
  exit 0
fi
echo "shard $I/$K of N=$N on $(hostname), ${SLURM_CPUS_PER_TASK:-1} threads, $(date -u +%FT%TZ)"
# Written under a temporary name and renamed: a half-written result never looks finished.
"$NQUEENS" count "$N" --shard "$I/$K" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --checkpoint "checkpoints/$name.ckpt" --checkpoint-every "${NQUEENS_CHECKPOINT_EVERY:-60}" \
  --progress --progress-every "${NQUEENS_PROGRESS_EVERY:-300}" "$@" >"$out.tmp"
mv "$out.tmp" "$out"
echo "shard $I/$K: finished ($out)"
