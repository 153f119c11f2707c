#!/usr/bin/env bash
# A worker under --max-memory: one seeded task of N counted by
#   nqueens estimate N --tasks 1 -t 1 --seed SEED --max-memory M
# for each limit M (K, M, G: powers of 1024, as the tool reads them), with its cost per
# solution (the task's thread CPU time over its solutions, the estimate's `by a(N)` figure),
# its peak RSS, and whether the peak stayed within the limit. A peak past its limit is a
# broken promise: the script says so and exits 1.
#
#   scripts/measure/pieces-memory.sh N SEED M [M ...]          e.g. scripts/measure/pieces-memory.sh 28 6 1G 2G
#   BASELINE_BIN=/path/to/nqueens scripts/measure/pieces-memory.sh 28 6 1G
#     (the same task with that build too, run after the current build's for each limit)
#
# One N = 28 task is about 1 to 4 minutes of CPU on one thread; the tasks past N = 23 are what
# pieces are for (below it a worker's half-boards fit in one piece at any limit that is met).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
usage="usage: scripts/measure/pieces-memory.sh N SEED M [M ...]"
n=${1:?$usage}
seed=${2:?$usage}
shift 2
(($# > 0)) || { echo "$usage" >&2; exit 2; }

prepare
builds=("cur=$bin")
[[ -n ${BASELINE_BIN:-} ]] && builds+=("base=$BASELINE_BIN")

echo "# estimate $n --tasks 1 -t 1 --seed $seed --max-memory M; core-ns per solution by thread CPU time"
echo "# CPU: $(cpu_line)"
printf '%-6s %-8s %12s %12s %s\n' build limit core-ns peak within
broken=0
for m in "$@"; do
  limit=$(numfmt --from=iec "$m")
  for b in "${builds[@]}"; do
    name=${b%%=*}
    json=$("${b#*=}" estimate "$n" --tasks 1 -t 1 --seed "$seed" --max-memory "$m" --json)
    per=$(field seconds_per_solution "$json")
    peak=$(field peak_memory_bytes "$json")
    within=yes
    if ((peak > limit)); then
      within=NO
      broken=1
    fi
    printf '%-6s %-8s %12.3f %8.1f MiB %s\n' "$name" "$m" "$(awk -v s="$per" 'BEGIN { print s * 1e9 }')" \
      "$(awk -v p="$peak" 'BEGIN { print p / 1048576 }')" "$within"
  done
done
if ((broken)); then
  echo "a peak passed its limit" >&2
  exit 1
fi
