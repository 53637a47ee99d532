#!/usr/bin/env bash
# What a task costs (issue 35): a task build ranks every file of the
# project, so its first run reads and indexes all of them; the second reads
# the index from the cache. Times, as medians of RUNS whole-process runs:
#
#   - the cold full build of the tree (cache cleared: every file counted),
#   - the cold task build (cache cleared: every file indexed and counted),
#   - the warm task build (a second task on the unchanged tree),
#
#   benches/task_speed.sh [TREE | --generated[=FILES]] [RUNS]
#
# TREE defaults to a copy of the Python standard library's .py files;
# --generated uses the deterministic tree of benches/peers.sh (100,000
# Python modules, scripts/gen_pytree.py). The bars: a cold task build
# within 2x a cold full build, a warm one under 0.5 s on the stdlib and
# under 3 s on 100,000 files. ctxcurate is built in release mode first.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ "${1:-}" == --generated* ]]; then
  count=${1#--generated}; count=${count#=}; count=${count:-100000}
  tree=$PWD/target/bench-trees/py$count
  if [ ! -f "$tree.done" ]; then
    rm -rf "$tree"
    python3 scripts/gen_pytree.py "$tree" "$count"
    touch "$tree.done"
  fi
elif [ -n "${1:-}" ]; then
  tree=$(realpath "$1")
else
  stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
  tree=$work/stdlib
  python3 - "$stdlib" "$tree" <<'PY'
import pathlib, shutil, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for p in src.rglob("*.py"):
    if "site-packages" in p.parts or not p.is_file():
        continue
    out = dst / p.relative_to(src)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(p, out)
PY
fi

# CTXCURATE=path/to/ctxcurate times that binary instead of this checkout's.
if [ -z "${CTXCURATE:-}" ]; then cargo build --release --locked -q; fi
ctx=${CTXCURATE:-$PWD/target/release/ctxcurate}
export XDG_STATE_HOME=$work/state
cd "$tree"
[ -f ctxcurate.toml ] || cat > ctxcurate.toml <<'TOML'
[project]
tokenizer = "o200k"

[presets.all]
files = ["**"]

[presets.task]
files = []
TOML

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() { # prints seconds of one run of "$@"
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
cold_full() { "$ctx" cache clear >/dev/null 2>&1 || true; "$ctx" build --preset all -o "$work/out.md"; }
cold_task() {
  "$ctx" cache clear >/dev/null 2>&1 || true
  "$ctx" build --preset task --task "parse the header of a mail message and decode its charset" \
    --budget 32000 -o "$work/out.md"
}
warm_task() {
  "$ctx" build --preset task --task "the socket server closes a connection after a timeout" \
    --budget 32000 -o "$work/out.md"
}

declare -A results
for name in cold_full cold_task warm_task; do
  [ "$name" = warm_task ] && warm_task >/dev/null 2>&1 # the index is made once
  results[$name]=$(for _ in $(seq "$runs"); do time_of "$name"; done | median)
done
files=$(find "$tree" -type f | wc -l)
printf 'tree: %s (%s files), %s runs each, medians\n' "$tree" "$files" "$runs"
printf '%-12s %8.2f s\n' "cold full" "${results[cold_full]}"
printf '%-12s %8.2f s  (%.2fx the cold full build)\n' "cold task" "${results[cold_task]}" \
  "$(echo "${results[cold_task]} / ${results[cold_full]}" | bc -l)"
printf '%-12s %8.2f s\n' "warm task" "${results[warm_task]}"
