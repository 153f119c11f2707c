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
