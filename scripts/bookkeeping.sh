#!/usr/bin/env bash
# The bookkeeping of a large run, measured (issue 43's table): merge, status and audit of
# docs/runs/n23; audit of ten one-task files against one; a merge of every task of the N = 28
# plan (4,457,401 records in 100 files, made up by the test-only generator of
# tests/suite/rehearsal.rs), its seconds, its peak and whether it fits 150 MiB of address space.
# Each line: what, wall seconds, user seconds, peak resident memory.
#
#   scripts/bookkeeping.sh [DIR]        (DIR default /tmp/nqueens-bookkeeping)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-/tmp/nqueens-bookkeeping}
NQ=$ROOT/target/release/nqueens
(cd "$ROOT" && cargo build --release --quiet)
rm -rf "$DIR" && mkdir -p "$DIR"
measure() {
  local what=$1
  shift
  /usr/bin/time -f "$what: %e s wall, %U s user, peak %M KiB" "$@" >/dev/null
}
cd "$ROOT"
measure "merge docs/runs/n23 (64 files)" "$NQ" merge docs/runs/n23
measure "merge --digest v1 docs/runs/n23" "$NQ" merge --digest v1 docs/runs/n23
measure "status docs/runs/n23" "$NQ" status docs/runs/n23
# Ten one-task files of N = 20 (the quadrant method, K = its task count / 1 task each).
tasks=$("$NQ" estimate 20 --tasks 1 --json -t 1 | grep -o '"plan_tasks":[0-9]*' | cut -d: -f2)
mkdir -p "$DIR/n20"
for i in $(seq 0 9); do
  "$NQ" count 20 -a quadrants --shard "$i/$tasks" -t 1 >"$DIR/n20/s$i.json"
done
measure "audit 1 one-task file of N = 20" "$NQ" audit --same-method --seed 1 -t 1 "$DIR/n20/s0.json"
measure "audit 10 one-task files of N = 20" "$NQ" audit --same-method --seed 1 -t 1 "$DIR"/n20/s*.json
# Every task of the N = 28 plan, in 100 files.
(cd "$ROOT" && NQUEENS_REHEARSAL_DIR="$DIR/n28" NQUEENS_REHEARSAL_K=100 NQUEENS_REHEARSAL_EVERY=1 \
  cargo test --release --quiet --test suite -- --ignored --exact rehearsal::rehearsal_writes_a_made_up_n28_run >/dev/null)
echo "n28 in 100 files: $(du -sh "$DIR/n28" | cut -f1), $(find "$DIR/n28" -name '*.json' -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 4457401}') bytes a record"
measure "merge of 4,457,401 records in 100 files" "$NQ" merge "$DIR/n28"
measure "status of them" "$NQ" status "$DIR/n28"
if bash -c "ulimit -v 153600 && exec $NQ merge $DIR/n28 >/dev/null"; then
  echo "merge within 150 MiB of address space: ok"
else
  echo "merge within 150 MiB of address space: FAILED"
fi
