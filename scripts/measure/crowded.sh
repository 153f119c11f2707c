#!/usr/bin/env bash
# Two builds on the same shard beside a noisy neighbour: a process streaming over MIB MiB
# (examples/neighbour.rs) on the last CPU keeps the shared last-level cache full of its own
# lines, while A and B count the shard in turn on CPU 0 (A B B A each round, so that drift
# hits both alike). Each run's user CPU seconds, and the sums' ratio. What a rented machine's
# other tenants do to a count, and a stand-in for a CPU with less cache.
#
#   scripts/measure/crowded.sh A B N I/K [ROUNDS] [MIB]
#   scripts/measure/crowded.sh /tmp/base/nqueens target/release/nqueens 22 77/128 2 1024
#
# A and B are programs run as `A count N -a quadrants --shard I/K -t 1`; the shard's totals
# must agree. The neighbour is built first (cargo build --release --example neighbour).
set -euo pipefail
cd "$(dirname "$0")/../.."
a=${1:?usage: scripts/measure/crowded.sh A B N I/K [ROUNDS] [MIB]}
b=${2:?usage: scripts/measure/crowded.sh A B N I/K [ROUNDS] [MIB]}
n=${3:?usage: scripts/measure/crowded.sh A B N I/K [ROUNDS] [MIB]}
shard=${4:?usage: scripts/measure/crowded.sh A B N I/K [ROUNDS] [MIB]}
rounds=${5:-1}
mib=${6:-1024}
[[ $n =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ && $mib =~ ^[1-9][0-9]*$ &&
  $shard =~ ^[0-9]+/[1-9][0-9]*$ ]] ||
  { echo "crowded: N, ROUNDS and MIB must be plain numbers and the shard a number/number" >&2; exit 2; }
(($(nproc) >= 2)) || { echo "crowded: needs two CPUs" >&2; exit 2; }
cargo build -q --release --example neighbour
dir=$(mktemp -d)
taskset -c "$(($(nproc) - 1))" target/release/examples/neighbour "$mib" &
neighbour=$!
trap 'kill "$neighbour" 2>/dev/null; rm -rf "$dir"' EXIT
# One run of program $1, named $2: its user seconds, or the script stops.
run() {
  /usr/bin/time -f %U -o "$dir/$2.time" taskset -c 0 "$1" count "$n" -a quadrants \
    --shard "$shard" -t 1 >"$dir/$2.out" 2>"$dir/$2.err" ||
    { echo "crowded: $1 failed: $(tail -1 "$dir/$2.err")" >&2; exit 1; }
  grep -o '"total":[0-9]*' "$dir/$2.out" | cut -d: -f2 >"$dir/$2.total"
}
sum_a=0
sum_b=0
for round in $(seq "$rounds"); do
  for who in a b b a; do
    if [[ $who == a ]]; then run "$a" a; else run "$b" b; fi
    t=$(cat "$dir/$who.time")
    echo "round $round: ${who^^} $t s"
    if [[ $who == a ]]; then
      sum_a=$(awk -v x="$sum_a" -v y="$t" 'BEGIN { print x + y }')
    else
      sum_b=$(awk -v x="$sum_b" -v y="$t" 'BEGIN { print x + y }')
    fi
  done
  [[ $(cat "$dir/a.total") == "$(cat "$dir/b.total")" ]] ||
    { echo "crowded: totals differ: $(cat "$dir/a.total") against $(cat "$dir/b.total")" >&2; exit 1; }
done
awk -v a="$sum_a" -v b="$sum_b" -v m="$mib" 'BEGIN {
  printf "user s beside a %d MiB neighbour: A %.2f, B %.2f; B / A %s\n", m, a, b,
    (a > 0 ? sprintf("%.3f", b / a) : "n/a")
}'
