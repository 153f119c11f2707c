#!/usr/bin/env bash
# The audit's slices at large N: SLICES slices of each of TASKS random tasks of the quadrant
# method's plan of N, each counted by backtracking and by the method (`nqueens audit --plan
# N`): how long each way takes, and whether they agree. Prints one Markdown row per N, as
# docs/PERFORMANCE.md keeps them; a slice whose two counts differ stops the script (exit 3).
#
#   scripts/measure/slices-recount.sh [N ...]        (default: 20 24 28)
#   TASKS=2 SLICES=3 SEED=1 THREADS=2 scripts/measure/slices-recount.sh 28
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
number() {
  [[ $2 =~ ^[0-9]+$ ]] || { echo "slices-recount.sh: $1 must be a number, not '$2'" >&2; exit 2; }
}
tasks=${TASKS:-2}; slices=${SLICES:-3}; seed=${SEED:-1}; threads=${THREADS:-2}
for v in "TASKS:$tasks" "SLICES:$slices" "SEED:$seed" "THREADS:$threads"; do number "${v%%:*}" "${v#*:}"; done
(($# > 0)) || set -- 20 24 28
for n in "$@"; do number N "$n"; done
prepare
echo "# nqueens audit --plan N --tasks $tasks --slices $slices --seed $seed -t $threads; CPU: $(cpu_line)"
echo "| N | slices | agree | with solutions | backtracking s (median, max) | method s (median, max) |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
for n in "$@"; do
  json=$("$bin" audit --plan "$n" --tasks "$tasks" --slices "$slices" --seed "$seed" -t "$threads" --json)
  values() { grep -o "\"$1\":[0-9.eE+-]*" <<<"$json" | cut -d: -f2; }
  values backtracking_seconds >"$tmp/b"
  values method_seconds >"$tmp/m"
  count=$(wc -l <"$tmp/b")
  agree=$(grep -o '"agrees":true' <<<"$json" | wc -l)
  nonzero=$(values backtracking | grep -vxc 0 || true)
  read -r bm _ bx < <(stats "$tmp/b")
  read -r mm _ mx < <(stats "$tmp/m")
  printf '| %s | %s | %s | %s | %.2f, %.2f | %.2f, %.2f |\n' "$n" "$count" "$agree" "$nonzero" "$bm" "$bx" "$mm" "$mx"
  ((agree == count)) || { echo "slices-recount.sh: a slice of N = $n differs: $json" >&2; exit 3; }
done
