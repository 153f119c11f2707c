#!/usr/bin/env bash
# Two builds on the same shard at once, one vCPU each, then swapped: each build's user CPU
# seconds in both places, and their sum's ratio. On a shared, noisy machine the two runs of a
# round see the same noise, and swapping evens out the two vCPUs.
#
#   scripts/measure/side-by-side.sh A B N I/K [ROUNDS]
#   scripts/measure/side-by-side.sh target/baseline/release/nqueens target/release/nqueens 22 77/128 2
#
# A and B are programs run as `A count N -a quadrants --shard I/K -t 1` (a wrapper script that
# sets variables and `exec`s a binary will do). The shard's total must be the same in both
# runs of a round: a difference stops the script.
set -euo pipefail
a=${1:?usage: scripts/measure/side-by-side.sh A B N I/K [ROUNDS]}
b=${2:?usage: scripts/measure/side-by-side.sh A B N I/K [ROUNDS]}
n=${3:?usage: scripts/measure/side-by-side.sh A B N I/K [ROUNDS]}
shard=${4:?usage: scripts/measure/side-by-side.sh A B N I/K [ROUNDS]}
rounds=${5:-1}
# Plain numbers only: nothing here is evaluated as bash arithmetic.
[[ $n =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ && $shard =~ ^[0-9]+/[1-9][0-9]*$ ]] ||
  { echo "side-by-side: N and ROUNDS must be plain numbers and the shard a number/number" >&2; exit 2; }
(($(nproc) >= 2)) || { echo "side-by-side: needs two CPUs" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One run: program, CPU, name of its files.
run() {
  /usr/bin/time -f %U -o "$dir/$3.time" taskset -c "$2" "$1" count "$n" -a quadrants \
    --shard "$shard" -t 1 >"$dir/$3.out" 2>"$dir/$3.err"
}
total() { grep -o '"total":[0-9]*' "$dir/$1.out" | cut -d: -f2; }
sum_a=0
sum_b=0
for round in $(seq "$rounds"); do
  for swap in 0 1; do
    run "$a" "$swap" a &
    pa=$!
    run "$b" $((1 - swap)) b &
    pb=$!
    # Both are waited for before either's failure stops the script: none is left running.
    ra=0
    rb=0
    wait "$pa" || ra=$?
    wait "$pb" || rb=$?
    ((ra == 0)) || { echo "side-by-side: $a failed: $(tail -1 "$dir/a.err")" >&2; exit 1; }
    ((rb == 0)) || { echo "side-by-side: $b failed: $(tail -1 "$dir/b.err")" >&2; exit 1; }
    [[ $(total a) == "$(total b)" ]] ||
      { echo "side-by-side: totals differ: $(total a) against $(total b)" >&2; exit 1; }
    ta=$(cat "$dir/a.time")
    tb=$(cat "$dir/b.time")
    echo "round $round.$((swap + 1)): A $ta s (vCPU $swap), B $tb s (vCPU $((1 - swap))), total $(total a)"
    sum_a=$(awk -v x="$sum_a" -v y="$ta" 'BEGIN { print x + y }')
    sum_b=$(awk -v x="$sum_b" -v y="$tb" 'BEGIN { print x + y }')
  done
done
awk -v a="$sum_a" -v b="$sum_b" 'BEGIN {
  printf "user s: A %.2f, B %.2f; B / A %s\n", a, b, (a > 0 ? sprintf("%.3f", b / a) : "n/a")
}'
