#!/usr/bin/env bash
# Chosen tasks of the quadrant method's plan counted by this build and by another at the same
# time, each on one vCPU of its own (`taskset`), with `examples/task_cost`: the thread CPU
# seconds of each task, their sums and the ratio. For plans whose tasks count differently in
# the two builds (the transposes, for one, move counts between an even board's tasks), the same task ids drawn at random are the fair sample: the ratio of the sums is the
# ratio of the plans' costs, whatever each task's own solutions.
#
#   BASELINE_TASK_COST=/path/to/other/task_cost scripts/measure/task-cost-vs.sh N PARTS ID...
#   (PARTS as for task_cost: 0 the board's plan, 1 one combination a task at N = 28)
#   DRAW=6 SEED=46 ... scripts/measure/task-cost-vs.sh N PARTS   (ids drawn: DRAW of the plan's
#   first MAX ids, MAX=1155624 by default, N = 26's task count)
#
# Names the CPU; runs the two builds on vCPUs 0 and 1.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
n=${1:?usage: scripts/measure/task-cost-vs.sh N PARTS [ID...]}
parts=${2:?usage: scripts/measure/task-cost-vs.sh N PARTS [ID...]}
shift 2
other=${BASELINE_TASK_COST:?set BASELINE_TASK_COST to the other build of examples/task_cost}
ids=("$@")
if ((${#ids[@]} == 0)); then
  read -r -a ids < <(python3 -c "import random; random.seed(${SEED:-46}); \
print(' '.join(str(random.randrange(${MAX:-1155624})) for _ in range(${DRAW:-6})))")
fi
cargo build --release --quiet --example task_cost
ours=$ROOT/target/release/examples/task_cost
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); N=$n parts=$parts; ids ${ids[*]}"
out=$(mktemp -d)
taskset -c 0 "$ours" "$n" "$parts" "${ids[@]}" >"$out/ours" &
taskset -c 1 "$other" "$n" "$parts" "${ids[@]}" >"$out/other" &
wait
echo "id solutions_ours seconds_ours solutions_other seconds_other"
paste "$out/ours" "$out/other" | awk '{print $1, $2, $3, $5, $6; a += $3; b += $6}
  END {printf "sum: ours %.2f s, other %.2f s, other/ours %.3f\n", a, b, (a > 0 ? b / a : 0)}'
rm -r "$out"
