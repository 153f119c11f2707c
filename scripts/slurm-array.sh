#!/usr/bin/env bash
# One count split over a Slurm job array: each array task counts one shard, with a checkpoint
# so a preempted or requeued task resumes where it stopped.
#
#   sbatch --array=0-15 scripts/slurm-array.sh 21 16     # N=21 in 16 shards
#   ... when all are done:
#   nqueens merge results/n21-shard-*-of-16.json
#
# Arguments: N K. The array range must be 0..K-1 (shards count from 0, as SLURM_ARRAY_TASK_ID).
#SBATCH --job-name=nqueens
#SBATCH --cpus-per-task=8
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=logs/nqueens-%A-%a.log
set -euo pipefail
N=${1:?usage: sbatch --array=0-\$((K-1)) $0 N K}
K=${2:?usage: sbatch --array=0-\$((K-1)) $0 N K}
I=${SLURM_ARRAY_TASK_ID:?run this under sbatch --array=0-$((K - 1))}
NQUEENS=${NQUEENS:-nqueens}
mkdir -p results checkpoints logs
out="results/n$N-shard-$I-of-$K.json"
# Write to a temporary name and rename: a half-written result never looks finished.
"$NQUEENS" count "$N" --shard "$I/$K" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --checkpoint "checkpoints/n$N-shard-$I-of-$K.ckpt" --checkpoint-every 60 \
  --progress --progress-every 300 >"$out.tmp"
mv "$out.tmp" "$out"
