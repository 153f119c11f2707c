#!/usr/bin/env bash
# The rehearsal of a record run at its real size: writes made-up, sealed shard results of the
# N = 28 plan for K shards (default 1,000,000; a test-only generator, tests/suite/rehearsal.rs, never
# reachable from the command line), then times merge and status of the whole run: seconds, peak
# memory, disk. The figures go in docs/PERFORMANCE.md.
#
#   scripts/measure/rehearsal.sh [DIR] [K] [N]    (DIR default /tmp/nqueens-rehearsal; needs ~5 GB free)
#   NQUEENS=/path/to/other/nqueens scripts/measure/rehearsal.sh DIR K N   (time another build's readers)
#
# N (default 28) is the board whose plan the files are of: 25 or below, a plan assigned to the
# shards by expected work (every file checked against one assignment), not striped.
# The files' total means nothing (the counts are made up): merge says so by finding no known
# value of A000170(28) to compare with, or, at a known N, by exit 3 (the total differs).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-/tmp/nqueens-rehearsal}
K=${2:-1000000}
N=${3:-28}
# NQUEENS: another build's binary to time on the same files (e.g. main's, to compare).
NQ=${NQUEENS:-$ROOT/target/release/nqueens}
(cd "$ROOT" && cargo build --release --quiet)
rm -rf "$DIR"
mkdir -p "$DIR"
# measure WHAT COMMAND...: times it; exit 3 (a made-up total that differs from A000170) is
# what a known N gives, and passes.
measure() {
  local what=$1
  shift
  /usr/bin/time -f "$what: %e s wall, %U s user, peak %M KiB" "$@" || (($? == 3))
}
cd "$ROOT"
measure "generate $K files" env NQUEENS_REHEARSAL_DIR="$DIR" NQUEENS_REHEARSAL_K="$K" NQUEENS_REHEARSAL_N="$N" \
  cargo test --release --quiet --test suite -- --ignored --exact rehearsal::rehearsal_writes_a_made_up_n28_run >/dev/null
echo "files: $(find "$DIR" -type f | wc -l), directories: $(find "$DIR" -type d | wc -l), disk: $(du -sh "$DIR" | cut -f1)"
measure "merge (directory)" "$NQ" merge "$DIR" | { grep -E '^(total|tasks|digest)' || true; }
find "$DIR" -name '*.json' >"$DIR.list"
measure "merge --list" "$NQ" merge --list "$DIR.list" >/dev/null
measure "status" "$NQ" status "$DIR" | tail -2
rm -f "$DIR.list"
