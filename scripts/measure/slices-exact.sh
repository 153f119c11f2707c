#!/usr/bin/env bash
# The quadrant method's path for boards past N = 23 (quarter slices built per row set, no
# table, no memo), forced onto small boards whose counts are known: every N from 4 to MAX
# must give A000170 and A002562 exactly (`count` cross-checks both and exits 3 on a
# difference). Prints one line per N with the time it took. With PARTS=P, the striped plan
# of N = 26 to 28 instead, each combination a task in P parts (NQUEENS_QUARTER_PARTS).
#
#   scripts/measure/slices-exact.sh [MAX] [THREADS]      (defaults: 21, 2)
#   PARTS=5 scripts/measure/slices-exact.sh 18 1
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
max=${1:-21}
threads=${2:-2}
cargo build --release --quiet
for ((n = 4; n <= max; n++)); do
  out=$(NQUEENS_QUARTER_SLICES=1 NQUEENS_QUARTER_PARTS=${PARTS:-} target/release/nqueens count "$n" -a quadrants -t "$threads" --json)
  grep -q '"matches_known":true' <<<"$out" && grep -q '"matches_known_unique":true' <<<"$out" || {
    echo "N=$n: $out" >&2
    exit 3
  }
  echo "N=$n total $(field total "$out") unique $(field unique "$out") (matches A000170 and A002562) in $(field seconds "$out") s"
done
