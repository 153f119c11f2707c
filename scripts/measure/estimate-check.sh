#!/usr/bin/env bash
# How honest `nqueens estimate` is: counts N whole on one thread (user CPU seconds, set-up
# included), then estimates it from samples of SHARE of that time (one thread, three seeds),
# and prints each projection (tasks + set-up) against the measured time, and whether the
# projected solutions' interval holds A000170(N).
#
#   scripts/measure/estimate-check.sh N [SHARE] [SEEDS]     (defaults: 0.1, "1 2 3")
#
# Uses the binary in $NQUEENS if set (else builds target/release/nqueens).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:?usage: $0 N [SHARE] [SEEDS]}
share=${2:-0.1}
seeds=${3:-1 2 3}
if [[ -z ${NQUEENS:-} ]]; then
  cargo build --release --quiet
  NQUEENS=target/release/nqueens
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
/usr/bin/time -f "%U" -o "$tmp" "$NQUEENS" count "$n" -t 1 --json >/dev/null
whole=$(cat "$tmp")
budget=$(awk -v w="$whole" -v s="$share" 'BEGIN { b = w * s; printf "%.3f", (b < 0.01 ? 0.01 : b) }')
echo "N=$n: whole count on 1 thread: $whole user s; samples of $budget s ($share of it)"
for seed in $seeds; do
  "$NQUEENS" estimate "$n" -t 1 --seconds "$budget" --seed "$seed" --json |
    python3 -c '
import json, sys
e = json.load(sys.stdin)
whole = float(sys.argv[1])
c, s = e["core_seconds"], e["solutions"]
setup = e["setup_seconds"]
proj = c["value"] + setup
lo = (c["low"] or 0) + setup
hi = (c["high"] or float("inf")) + setup
holds = s["low"] is not None and s["low"] <= e["known"] <= s["high"]
print("  seed %d: %d tasks; projected %.1f s (95%%: %.1f to %.1f) = %.3f of the measured %.1f s;"
      " solutions %.4e vs %d: interval holds it: %s"
      % (e["seed"], len(e["sampled"]), proj, lo, hi, proj / whole, whole, s["value"], e["known"], holds))
' "$whole"
done
