#!/usr/bin/env bash
# How evenly `count --shard I/K` splits the work: each shard's node count (deterministic, so
# this is a property of the assignment, not of timing), the mean, and slowest / mean.
#
#   scripts/shard-balance.sh N K [COUNT OPTIONS]   e.g. scripts/shard-balance.sh 17 8 -a symmetric
set -euo pipefail
N=${1:?usage: $0 N K}
K=${2:?usage: $0 N K [COUNT OPTIONS]}
shift 2
NQUEENS=${NQUEENS:-target/release/nqueens}
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
