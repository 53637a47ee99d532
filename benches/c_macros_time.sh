#!/usr/bin/env bash
# What reading a project's own C/C++ macros costs (issue 36's time
# target: a cold skeleton build no more than 10% slower with them than
# without). Copies TREE (default /usr/include) to a temp dir with a preset
# that shows every file as a skeleton, then alternates builds with the
# project's macros and without them (CTXCURATE_BENCH_NO_PROJECT_MACROS=1),
# RUNS pairs, and prints each run's user+sys CPU and wall seconds, its
# peak memory (max RSS, MiB) and the with/without ratio of each pair.
#
#   benches/c_macros_time.sh [TREE] [RUNS] [cold|warm]
#
# cold (the default): the cache is removed before each build. warm: each
# side's cache is made by one untimed build first, and every timed build
# finds it (an unchanged project built again).
#
# CTXCURATE=path/to/ctxcurate times that binary instead of this checkout's
# release build.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(realpath "${1:-/usr/include}")
runs=${2:-3}
mode=${3:-cold}
case $mode in cold | warm) ;; *) echo "mode: cold or warm, not $mode" >&2; exit 2 ;; esac
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
build() { # one build, timed into $work/t; $1 = with|without
  local env=()
  [ "$1" = without ] && env=(CTXCURATE_BENCH_NO_PROJECT_MACROS=1)
  (cd "$work/tree" && env "${env[@]}" /usr/bin/time -f '%U %S %e %M' -o "$work/t" \
    "$ctx" build -o "$work/out.md" >/dev/null 2>&1) || true
}
one() { # prints "cpu wall rss" of one build; $1 = with|without
  rm -rf "$work/tree/.ctxcurate"
  if [ "$mode" = warm ]; then
    # Each side keeps its own cache between its builds.
    if [ -d "$work/cache-$1" ]; then
      mv "$work/cache-$1" "$work/tree/.ctxcurate"
    else
      build "$1"
    fi
  fi
  build "$1"
  if [ "$mode" = warm ]; then mv "$work/tree/.ctxcurate" "$work/cache-$1"; fi
  awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4 / 1024}' "$work/t"
}
printf 'tree: %s, %s pairs, %s\n%-6s %10s %10s %8s %10s %10s %8s %7s %7s\n' "$src" "$runs" "$mode" \
  pair "with cpu" "with wall" "with MiB" "w/o cpu" "w/o wall" "w/o MiB" "cpu x" "wall x"
for i in $(seq "$runs"); do
  read -r wc ww wm < <(one with)
  read -r oc ow om < <(one without)
  printf '%-6s %10s %10s %8s %10s %10s %8s %7.2f %7.2f\n' "$i" "$wc" "$ww" "$wm" "$oc" "$ow" "$om" \
    "$(echo "$wc / $oc" | bc -l)" "$(echo "$ww / $ow" | bc -l)"
done
