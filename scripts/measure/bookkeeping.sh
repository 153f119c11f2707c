#!/usr/bin/env bash
# The bookkeeping of a large run, measured (issue 43's table): merge, status and audit of
# docs/runs/n23; audit of ten one-task files against one; a merge of every task of the N = 28
# plan (4,457,401 records in 100 files, made up by the test-only generator of
# tests/suite/rehearsal.rs), its seconds, its peak and whether it fits 150 MiB of address space;
# merge, status and audit of one file of a third of that plan (1,485,801 records, as `count 28
# --shard 0/3` writes it), read a record at a time.
# Each line: what, wall seconds, user seconds, peak resident memory.
#
#   scripts/measure/bookkeeping.sh [DIR]        (DIR default /tmp/nqueens-bookkeeping)
#   NQUEENS=BINARY scripts/measure/bookkeeping.sh    (another build's binary on the same files)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-/tmp/nqueens-bookkeeping}
NQ=${NQUEENS:-$ROOT/target/release/nqueens}
(cd "$ROOT" && cargo build --release --quiet)
rm -rf "$DIR" && mkdir -p "$DIR"
measure() {
  local what=$1
  shift
  /usr/bin/time -f "$what: %e s wall, %U s user, peak %M KiB" "$@" >/dev/null
}
# A command whose exit code says something other than a failure (merge of one shard of three:
# 2, missing shards; status: 1, not finished; an audit of made-up counts: 3, they differ).
measure_any() {
  measure "$@" || true
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
echo "n28 in 100 files: $(du -sh "$DIR/n28" | cut -f1), $(find "$DIR/n28" -name '*.json' -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 4457401}') bytes per record"
measure "merge of 4,457,401 records in 100 files" "$NQ" merge "$DIR/n28"
measure "status of them" "$NQ" status "$DIR/n28"
if bash -c "ulimit -v 153600 && exec $NQ merge $DIR/n28 >/dev/null"; then
  echo "merge within 150 MiB of address space: ok"
else
  echo "merge within 150 MiB of address space: FAILED"
fi
# One file of a third of the N = 28 plan, every record found something (1,485,801 records).
(cd "$ROOT" && NQUEENS_REHEARSAL_DIR="$DIR/k3" NQUEENS_REHEARSAL_K=3 NQUEENS_REHEARSAL_EVERY=1 \
  cargo test --release --quiet --test suite -- --ignored --exact rehearsal::rehearsal_writes_a_made_up_n28_run >/dev/null)
ONE=$DIR/k3/n28-k3/000/n28-k3-shard-0.json
echo "one file of 1,485,801 records: $(du -h "$ONE" | cut -f1)"
measure_any "merge of that one file (exit 2: shards 1, 2 missing)" "$NQ" merge "$ONE"
measure_any "status of it" "$NQ" status "$ONE"
measure_any "audit of it (1 task, --backtracking, seed 1: made-up, differs)" \
  "$NQ" audit --backtracking --tasks 1 --seed 1 -t 1 "$ONE"
measure "merge of the three files" "$NQ" merge "$DIR/k3"
measure "status of the three files" "$NQ" status "$DIR/k3"
