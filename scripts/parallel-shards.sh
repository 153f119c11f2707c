#!/usr/bin/env bash
# One count split into K shards run side by side on this machine with GNU parallel (one thread
# each), then merged and checked. Rerunning after an interruption resumes every shard from its
# checkpoint; finished shards are not counted again.
#
#   scripts/parallel-shards.sh N K [JOBS]      e.g. scripts/parallel-shards.sh 17 8 2
#   NQUEENS=/path/to/nqueens DIR=runs/n17 scripts/parallel-shards.sh 17 8
#
# The shards go to DIR (default shards-nN-kK, in the current folder).
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
# The nqueens to run: NQUEENS, else the one on the PATH, else this checkout's release build.
# Found before anything is made, so that a missing one leaves nothing behind.
if [[ -z ${NQUEENS:-} ]]; then
  here=$(cd "$(dirname "$0")/.." && pwd)
  if command -v nqueens >/dev/null; then
    NQUEENS=$(command -v nqueens)
  elif [[ -x $here/target/release/nqueens ]]; then
    NQUEENS=$here/target/release/nqueens
  else
    echo "$(basename "$0"): no nqueens found: install it (cargo install --path . --locked), build" \
      "it (cargo build --release), or name it with NQUEENS=/path/to/nqueens" >&2
    exit 2
  fi
fi
# A bare name is looked up on the PATH, as the shell would.
[[ $NQUEENS == */* ]] || NQUEENS=$(command -v "$NQUEENS" || echo "$NQUEENS")
[[ -x $NQUEENS ]] || { echo "$(basename "$0"): NQUEENS=$NQUEENS is not a program to run" >&2; exit 2; }
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
