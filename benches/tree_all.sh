#!/usr/bin/env bash
# `build --tree all` on a generated project of FILES empty files (default
# 100,000) under DEPTH chained folders (default 60), 200 folders of 500
# files at the bottom, one file in the context: the cost of drawing a
# project's directory tree, which the deep paths make depth times longer
# when each level looks for its part from the start of the path. Wall
# time, user time and peak RSS of each binary named (default this
# checkout's release build), twice. Not a timed assert: numbers to
# compare by hand (a binary of an older commit beside this one).
#
#   benches/tree_all.sh [FILES] [DEPTH] [BINARY...]
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-100000}
depth=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  cargo build --release --quiet
  bins=("$PWD/target/release/ctxcurate")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/tree" "$files" "$depth" <<'PY'
import os, sys
root, n, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
chain = "/".join(f"level{i:02d}" for i in range(depth)) or "."
per = 500
for d in range((n + per - 1) // per):
    base = os.path.join(root, chain, f"pkg{d:03d}", "sub", "inner")
    os.makedirs(base, exist_ok=True)
    for f in range(min(per, n - d * per)):
        open(os.path.join(base, f"f{f:03d}.py"), "w").close()
with open(f"{root}/top.py", "w") as fh:
    fh.write("x = 1\n")
with open(f"{root}/ctxcurate.toml", "w") as fh:
    fh.write('[[presets.default.files]]\npath = "top.py"\n')
PY
cd "$work/tree"
for run in 1 2; do
  for bin in "${bins[@]}"; do
    /usr/bin/time -f "$bin: %e s wall, %U s user, %M KB peak" \
      "$bin" -q build --tree all -o "$work/out.md" 2>&1 | grep 'KB peak'
  done
done
