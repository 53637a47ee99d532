#!/usr/bin/env bash
# What reading a project's own C/C++ macros costs (issue 36's time
# target: a cold skeleton build no more than 10% slower with them than
# without). Copies TREE (default /usr/include) to a temp dir with a preset
# that shows every file as a skeleton, then alternates cold builds (cache
# removed before each) with the project's macros and without them
# (CTXCURATE_BENCH_NO_PROJECT_MACROS=1), RUNS pairs, and prints each run's
# user+sys CPU and wall seconds and the with/without ratio of each pair.
#
#   benches/c_macros_time.sh [TREE] [RUNS]
#
# CTXCURATE=path/to/ctxcurate times that binary instead of this checkout's
# release build.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(realpath "${1:-/usr/include}")
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${CTXCURATE:-}" ]; then cargo build --release --locked -q; fi
ctx=${CTXCURATE:-$PWD/target/release/ctxcurate}
cp -a "$src" "$work/tree"
rm -rf "$work/tree/.ctxcurate"
cat > "$work/tree/ctxcurate.toml" <<'TOML'
[[presets.default.files]]
path = "**"
view_mode = "skeleton"
TOML
export XDG_STATE_HOME=$work/state
cold() { # prints "cpu wall" of one cold build; $1 = with|without
  rm -rf "$work/tree/.ctxcurate"
  local env=()
  [ "$1" = without ] && env=(CTXCURATE_BENCH_NO_PROJECT_MACROS=1)
  (cd "$work/tree" && env "${env[@]}" /usr/bin/time -f '%U %S %e' -o "$work/t" \
    "$ctx" build -o "$work/out.md" >/dev/null 2>&1) || true
  awk '{printf "%.2f %.2f\n", $1 + $2, $3}' "$work/t"
}
printf 'tree: %s, %s pairs\n%-6s %12s %12s %12s %12s %8s %8s\n' "$src" "$runs" \
  pair "with cpu" "with wall" "w/o cpu" "w/o wall" "cpu x" "wall x"
for i in $(seq "$runs"); do
  read -r wc ww < <(cold with)
  read -r oc ow < <(cold without)
  printf '%-6s %12s %12s %12s %12s %8.2f %8.2f\n' "$i" "$wc" "$ww" "$oc" "$ow" \
    "$(echo "$wc / $oc" | bc -l)" "$(echo "$ww / $ow" | bc -l)"
done
