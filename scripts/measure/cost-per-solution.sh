#!/usr/bin/env bash
# The quadrant method's cost per solution at large N, from a few seeded shards: each shard
# `count N -a quadrants --shard I/K -t 1` is run under /usr/bin/time, and its user CPU seconds
# (steadier than wall time on a shared machine) give
#   core-ns per solution = mean user s of the shards x K / A000170(N) x 1e9
# (the issue's measure), and, beside it, the shards' own user s / their solutions.
#
#   scripts/measure/cost-per-solution.sh N K I [I ...]          (RUNS=1 by default)
#   BASELINE_REV=a6d98da scripts/measure/cost-per-solution.sh 22 512 5 77 300
#     (also builds that revision in target/baseline and runs the same shards with it,
#     interleaved with the current build's, and prints the ratio of the two costs)
#   BASELINE_BIN=/path/to/nqueens scripts/measure/cost-per-solution.sh 20 8 3 5
#
# The two builds' plans may differ (a shard I/K is not the same tasks in both): the measure
# is per solution, so each build's shards are compared through A000170(N). Every shard's
# total is kept; a shard that fails stops the script.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
n=${1:?usage: scripts/measure/cost-per-solution.sh N K I [I ...]}
k=${2:?usage: scripts/measure/cost-per-solution.sh N K I [I ...]}
shift 2
(($# > 0)) || { echo "usage: scripts/measure/cost-per-solution.sh N K I [I ...]" >&2; exit 2; }
shards=("$@")
runs=${RUNS:-1}
known=$(awk -v n="$n" '$1 == n { print $2 }' data/oeis/b000170.txt)
[[ -n $known ]] || { echo "A000170($n) is not known: no cost per solution" >&2; exit 2; }

prepare
builds=("cur=$bin")
if [[ -n ${BASELINE_REV:-} ]]; then
  build_revision "$BASELINE_REV"
  builds+=("base=$base_bin")
elif [[ -n ${BASELINE_BIN:-} ]]; then
  builds+=("base=$BASELINE_BIN")
fi

echo "# count $n -a quadrants --shard I/$k -t 1, shards ${shards[*]}, $runs run(s) each, interleaved; user CPU s"
echo "# CPU: $(cpu_line)"
printf '%-5s %6s %5s %10s %20s\n' build shard run user_s solutions
for ((r = 1; r <= runs; r++)); do
  for i in "${shards[@]}"; do
    for b in "${builds[@]}"; do
      name=${b%%=*}
      exe=${b#*=}
      "/usr/bin/time" -f %U -o "$tmp/time" "$exe" count "$n" -a quadrants --shard "$i/$k" -t 1 \
        --quiet >"$tmp/out"
      user=$(tail -n 1 "$tmp/time")
      # awk reads all: `head` would close grep's pipe, and pipefail stop the script.
      total=$(grep -o '"total":[0-9]*' "$tmp/out" | awk -F: 'NR == 1 { print $2 }')
      printf '%-5s %6s %5s %10s %20s\n' "$name" "$i" "$r" "$user" "$total"
      echo "$user $total" >>"$tmp/$name"
    done
  done
done
echo
printf '%-5s %14s %22s %24s\n' build mean_user_s "core-ns/solution (xK)" "core-ns/solution (own)"
for b in "${builds[@]}"; do
  name=${b%%=*}
  read -r mean per_k own < <(awk -v k="$k" -v known="$known" '
    { u += $1; s += $2; c++ }
    END { m = u / c; printf "%.3f %.3f %.3f\n", m, m * k / known * 1e9, u / s * 1e9 }' "$tmp/$name")
  printf '%-5s %14s %22s %24s\n' "$name" "$mean" "$per_k" "$own"
  echo "$per_k" >"$tmp/$name.per"
done
if [[ -f $tmp/base.per ]]; then
  awk 'NR == FNR { c = $1; next }
    c > 0 { printf "ratio base / cur (xK): %.3f\n", $1 / c; next }
    { print "ratio base / cur (xK): n/a (too fast to time)" }' \
    "$tmp/cur.per" "$tmp/base.per"
fi
