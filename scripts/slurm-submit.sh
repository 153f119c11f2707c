#!/usr/bin/env bash
# Submits a count of N in K shards to Slurm as job arrays no longer than the cluster's
# MaxArraySize (read from `scontrol show config`), each array task counting PER shards, with
# the concurrency asked for: scripts/slurm-array.sh does the counting.
#
#   scripts/slurm-submit.sh N K [--concurrency C] [--per-task PER] [--max-array M]
#                           [--sbatch "SBATCH OPTIONS"] [--dry-run] [-- COUNT OPTIONS...]
#
# --dry-run prints the sbatch command of each array instead of submitting it (without a
# reachable controller it takes --max-array M, or Slurm's default of 1001); -h or --help
# prints this.
#
#   scripts/slurm-submit.sh 28 1000000 --concurrency 2000 --per-task 10 --sbatch "--cpus-per-task=16 --time=2-0"
#
# K shards make T = ceil(K / PER) array tasks, in arrays of at most L = min(MaxArraySize, T)
# tasks: array j, of LEN tasks, counts the shards j*L*PER + A + m*LEN (A its task, m = 0 ..
# PER-1). With more than one array they run one after another (each depends on the one
# before, afterany), each at most C at a time, so that no more than C shards run at once; choose PER so that one
# array holds them all (PER = ceil(K / MaxArraySize)) to have no wait between arrays.
# Logs go to logs/ARRAY-J/ (made here: Slurm opens a log before the job runs). Prints the
# job ids, one per line. What each array counts (its offset, step and shards per task), and
# NQUEENS, NQUEENS_RUN_DIR, NQUEENS_CHECKPOINT_EVERY and NQUEENS_PROGRESS_EVERY where set, go
# to scripts/slurm-array.sh as arguments, so they hold under --export=NONE (or
# SBATCH_EXPORT=NONE, or a site's default) as under the default --export=ALL.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: $0 N K [--concurrency C] [--per-task PER] [--max-array M] [--sbatch \"OPTIONS\"] [--dry-run] [-- COUNT OPTIONS...]" >&2
  exit 2
}
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  # The comment at the top of this file is its manual.
  sed -n '2,/^set -euo/p' "$0" | grep -v '^set -euo' | sed 's/^# \{0,1\}//'
  exit 0
fi
number() {
  [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || {
    echo "slurm-submit.sh: $1 must be a positive decimal number, not '$2'" >&2
    exit 2
  }
}
(($# >= 2)) || usage
N=$1 K=$2
shift 2
number N "$N"
number K "$K"
C="" PER=1 MAX="" SBATCH="" DRY=""
while (($#)); do
  case $1 in
  --dry-run) DRY=1; shift ;;
  --concurrency) C=${2:-}; number --concurrency "$C"; shift 2 ;;
  --per-task) PER=${2:-}; number --per-task "$PER"; shift 2 ;;
  --max-array) MAX=${2:-}; number --max-array "$MAX"; shift 2 ;;
  --sbatch) SBATCH=${2:-}; shift 2 ;;
  --) shift; break ;;
  *) usage ;;
  esac
done
if [[ -z $MAX ]]; then
  # No controller (or no Slurm here) is said, not died on: a failed scontrol gives nothing.
  MAX=$({ scontrol show config 2>/dev/null || true; } | awk '$1 == "MaxArraySize" {print $3}')
  if [[ -z $MAX && -n $DRY ]]; then
    echo "slurm-submit.sh: cannot read MaxArraySize ('scontrol show config' gave nothing): the dry run takes Slurm's default, 1001 (give --max-array M)" >&2
    MAX=1001
  fi
  [[ -n $MAX ]] || { echo "slurm-submit.sh: cannot read MaxArraySize: 'scontrol show config' gave nothing (is Slurm installed, and its controller reachable?): give --max-array M" >&2; exit 1; }
  number MaxArraySize "$MAX"
fi
T=$(((K + PER - 1) / PER))
L=$((T < MAX ? T : MAX))
ARRAYS=$(((T + L - 1) / L))
# The binary as an absolute path where it is given as a path (the job runs in the run directory).
if [[ ${NQUEENS:-} == */* ]]; then
  NQUEENS="$(cd "$(dirname "$NQUEENS")" && pwd)/$(basename "$NQUEENS")"
fi
cd "${NQUEENS_RUN_DIR:-.}"
passed=(--run-dir "$PWD")
[[ -z ${NQUEENS:-} ]] || passed+=(--nqueens "$NQUEENS")
[[ -z ${NQUEENS_CHECKPOINT_EVERY:-} ]] || passed+=(--checkpoint-every "$NQUEENS_CHECKPOINT_EVERY")
[[ -z ${NQUEENS_PROGRESS_EVERY:-} ]] || passed+=(--progress-every "$NQUEENS_PROGRESS_EVERY")
prev=""
for ((j = 0; j < ARRAYS; j++)); do
  offset=$((j * L * PER))
  # This array's tasks: as many as hold one of its shards.
  left=$(((K - offset + PER - 1) / PER))
  len=$((left < L ? left : L))
  spec="0-$((len - 1))${C:+%$C}"
  if [[ -n $DRY ]]; then
    echo "would run: sbatch --parsable --array=$spec --output=logs/array-$j/nqueens-%A-%a.log ${prev:+--dependency=afterany:$prev }$SBATCH $HERE/slurm-array.sh --offset $offset --step $len --per-task $PER ${passed[*]} $N $K $*"
    prev="<array $j>"
    continue
  fi
  mkdir -p "logs/array-$j"
  # shellcheck disable=SC2086 # SBATCH is options, split on purpose
  id=$(sbatch --parsable --array="$spec" --output="logs/array-$j/nqueens-%A-%a.log" \
    ${prev:+--dependency=afterany:$prev} $SBATCH "$HERE/slurm-array.sh" \
    --offset "$offset" --step "$len" --per-task "$PER" "${passed[@]}" "$N" "$K" "$@")
  id=${id%%;*}
  echo "slurm-submit: array $j of $ARRAYS: job $id, tasks $spec, shards $offset.. of $K ($PER shards per task, step $len)" >&2
  echo "$id"
  prev=$id
done
