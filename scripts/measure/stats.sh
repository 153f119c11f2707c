# Shared by the timing scripts (sourced, not run).
# stats FILE: prints "median min max" of the numbers in FILE, one per line.
stats() {
  sort -g "$1" | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.9f %.9f %.9f\n", m, v[1], v[NR] }'
}

# field NAME JSON: the value of a top-level number field of a one-line JSON object.
field() {
  sed -E "s/.*\"$1\":([0-9.eE+-]+).*/\\1/" <<<"$2"
}

# prepare: builds the release binary; sets $bin, and $tmp (a directory removed on exit).
prepare() {
  cargo build --release --quiet
  bin=target/release/nqueens
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# checked_count ARGS...: prints the JSON of `nqueens count ARGS --json`; a count that differs
# from the known value stops the script (exit 3): a fast wrong answer is not a result.
checked_count() {
  local json
  json=$("$bin" count "$@" --json)
  if grep -q '"matches_known":false' <<<"$json"; then
    echo "wrong count: $json" >&2
    exit 3
  fi
  echo "$json"
}

# build_revision REV: builds git revision REV in target/baseline (a detached worktree, reused
# while it is at REV) and sets $base_bin to its release binary.
build_revision() {
  local base_dir=target/baseline want
  want=$(git rev-parse "$1^{commit}")
  if [[ $(git -C "$base_dir" rev-parse HEAD 2>/dev/null) != "$want" ]]; then
    rm -rf "$base_dir"
    git worktree prune
    git worktree add --detach "$base_dir" "$want" >/dev/null
  fi
  (cd "$base_dir" && cargo build --release --quiet)
  base_bin=$base_dir/target/release/nqueens
}

# cpu_line: one line naming this CPU (model name, family and model, which vector extensions it
# has) and the quadrant build a run will use (NQUEENS_QUADRANT_BUILD caps it).
cpu_line() {
  local name fam model vec
  name=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  fam=$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
  model=$(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
  vec=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|avx512f|avx512vl|avx512_vpopcntdq' | tr '\n' ' ')
  echo "$name (family $fam, model $model; ${vec% }); quadrant build: ${NQUEENS_QUADRANT_BUILD:-the richest it runs}"
}

# timed_json BUILD ARGS...: runs `$bin ARGS... --json` under bash's time, with
# NQUEENS_QUADRANT_BUILD=BUILD unless BUILD is `default`; sets $wall, $user and $sys (seconds),
# $json (its output) and $total (its solutions).
timed_json() {
  local build=$1 tf envs=() TIMEFORMAT='%R %U %S'
  shift
  [[ $build == default ]] || envs=("NQUEENS_QUADRANT_BUILD=$build")
  tf=$(mktemp)
  { time env "${envs[@]}" "$bin" "$@" --json >"$tf.json"; } 2>"$tf"
  json=$(cat "$tf.json")
  read -r wall user sys <"$tf"
  rm -f "$tf" "$tf.json"
  total=$(grep -o '"total":[0-9]*' <<<"$json" | head -n 1 | cut -d: -f2)
}

# core_ns USER SYS SOLUTIONS: CPU nanoseconds per solution, (USER + SYS) / SOLUTIONS, or `-`.
core_ns() {
  awk -v u="$1" -v s="$2" -v n="${3:-0}" \
    'BEGIN { if (n > 0) printf "%.3f", (u + s) / n * 1e9; else print "-" }'
}
