#!/usr/bin/env bash
# One count split into K shards run side by side on this machine with GNU parallel (one thread
# each), then merged and checked. Rerunning after an interruption resumes every shard from its
# checkpoint; finished shards are not counted again.
#
#   scripts/parallel-shards.sh N K [JOBS]      e.g. scripts/parallel-shards.sh 17 8 2
#
# Needs GNU parallel (`apt install parallel`); without it the same runs go through xargs -P.
set -euo pipefail
N=${1:?usage: $0 N K [JOBS]}
K=${2:?usage: $0 N K [JOBS]}
JOBS=${3:-$(nproc)}
# Plain decimal numbers only: a value that bash arithmetic would evaluate (`N[$(cmd)]`) or read
# as another number is refused before any arithmetic sees it.
for v in "N:$N" "K:$K" "JOBS:$JOBS"; do
  [[ ${v#*:} =~ ^[1-9][0-9]{0,9}$ ]] || {
    echo "parallel-shards.sh: ${v%%:*} must be a positive decimal number, not '${v#*:}'" >&2
    exit 2
  }
done
NQUEENS=${NQUEENS:-target/release/nqueens}
DIR=${DIR:-shards-n$N-k$K}
mkdir -p "$DIR"
export NQUEENS N K DIR
one() {
  local i=$1 out="$DIR/shard-$1.json"
  [[ -s $out ]] && return 0
  # Written atomically; the checkpoint (and its lock) removed once the result is there.
  "$NQUEENS" count "$N" --shard "$i/$K" --threads 1 --checkpoint "$DIR/shard-$i.ckpt" -o "$out"
}
export -f one
if command -v parallel >/dev/null; then
  seq 0 $((K - 1)) | parallel --halt now,fail=1 -j "$JOBS" one {}
else
  echo "GNU parallel not found: using xargs -P $JOBS" >&2
  seq 0 $((K - 1)) | xargs -P "$JOBS" -I{} bash -c 'one {}'
fi
"$NQUEENS" merge "$DIR"
