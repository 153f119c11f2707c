#!/usr/bin/env bash
# What the release profile's link-time optimisation and codegen units cost in build time and
# buy in counting speed: each variant is built from scratch (its dependencies included, as on
# a fresh clone with the crates downloaded) in target/profiles/NAME and timed, then the same
# one-thread counts run with every build, interleaved, RUNS times, and each build's median
# user CPU is given against the first variant's.
#
#   scripts/measure/build-profiles.sh                  (variants: fat LTO 1 unit, thin 16, none 16)
#   VARIANTS="fat:true:1 thin:thin:16" RUNS=5 scripts/measure/build-profiles.sh
#   REUSE=1 scripts/measure/build-profiles.sh          (keep builds already in target/profiles)
#   COUNTS="count 18 -t 1|count 22 --shard 5/128 -t 1" scripts/measure/build-profiles.sh
#
# A variant is NAME:LTO:CODEGEN_UNITS[:OPT_LEVEL] (Cargo's CARGO_PROFILE_RELEASE_LTO,
# _CODEGEN_UNITS and _OPT_LEVEL; the opt-level is release's 3 unless given).
# Counts default to the quadrant method at N = 18 to 22 on one thread (N = 21 and 22 as one
# shard each, to keep the run to minutes); every count is checked against A000170 by the
# program itself (its exit status).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/measure/stats.sh
source scripts/measure/stats.sh
read -r -a variants <<<"${VARIANTS:-fat:true:1 thin:thin:16 none:false:16}"
runs=${RUNS:-3}
IFS='|' read -r -a counts <<<"${COUNTS:-count 18 -t 1|count 19 -t 1|count 20 -t 1|count 21 --shard 3/8 -t 1|count 22 --shard 5/128 -t 1}"
dir=target/profiles
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# CPU: $(cpu_line); $(nproc) logical CPUs; rustc $(rustc --version | cut -d' ' -f2)"
echo "# build: cargo build --release from scratch (dependencies included), wall seconds"
for v in "${variants[@]}"; do
  IFS=: read -r name lto cu opt <<<"$v"
  opt=${opt:-3}
  if [[ ${REUSE:-0} == 1 && -x $dir/$name/release/nqueens ]]; then
    echo "build $name (lto=$lto, codegen-units=$cu, opt-level=$opt): reused"
    continue
  fi
  rm -rf "${dir:?}/$name"
  start=$(date +%s.%N)
  CARGO_TARGET_DIR=$dir/$name CARGO_PROFILE_RELEASE_LTO=$lto CARGO_PROFILE_RELEASE_CODEGEN_UNITS=$cu \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt cargo build --release --quiet
  end=$(date +%s.%N)
  echo "build $name (lto=$lto, codegen-units=$cu, opt-level=$opt): $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s"
done

echo "# counts: user CPU seconds, median of $runs, interleaved by build; ratio to ${variants[0]%%:*}"
for c in "${counts[@]}"; do
  read -r -a args <<<"$c"
  for ((r = 0; r < runs; r++)); do
    for v in "${variants[@]}"; do
      name=${v%%:*}
      TIMEFORMAT='%U'
      { time "$dir/$name/release/nqueens" "${args[@]}" --json >/dev/null; } 2>>"$tmp/$name"
    done
  done
  line="$c:"
  base=""
  for v in "${variants[@]}"; do
    name=${v%%:*}
    read -r median _ _ < <(stats "$tmp/$name")
    base=${base:-$median}
    line+=$(awk -v n="$name" -v m="$median" -v b="$base" 'BEGIN { printf "  %s %.2f s (%.3f)", n, m, m / b }')
    rm -f "$tmp/$name"
  done
  echo "$line"
done
