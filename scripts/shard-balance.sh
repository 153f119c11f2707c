#!/usr/bin/env bash
# How evenly `count --shard I/K` splits the work: each shard's node count (deterministic, so
# this is a property of the assignment, not of timing), the mean, and slowest / mean.
#
#   scripts/shard-balance.sh N K [COUNT OPTIONS]   e.g. scripts/shard-balance.sh 17 8 -a symmetric
set -euo pipefail
N=${1:?usage: $0 N K}
K=${2:?usage: $0 N K [COUNT OPTIONS]}
shift 2
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
source "$(dirname "$0")/measure/stats.sh"
printf "%-6s %-8s %s\n" shard tasks nodes
tmp=$(mktemp)
for ((i = 0; i < K; i++)); do
  out=$("$NQUEENS" count "$N" --shard "$i/$K" "$@")
  nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' <<<"$out")
  printf "%-6s %-8s %s\n" "$i/$K" "$(field tasks "$out")" "$nodes"
  echo "$nodes" >>"$tmp"
done
awk '{ s += $1; if ($1 > m) m = $1 } END { printf "mean %.0f  slowest %.0f  slowest/mean %.3f\n", s / NR, m, m / (s / NR) }' "$tmp"
rm -f "$tmp"
