#!/usr/bin/env bash
# `build --watch` on a generated tree of FILES small files (default
# 100,000 in 2,000 folders): how long until it watches (the first build,
# the walk and one watch per folder), its RSS then, and after every file
# is touched at once (a `git checkout` storm): how many rebuilds the storm
# caused (bounded: an overflowed report is one rebuild, not 100,000) and
# the RSS after. Not a timed assert: numbers to compare by hand.
#
#   benches/watch_storm.sh [FILES] [PROFILE]     (PROFILE: release|debug)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-100000}
profile=${2:-release}
if [ "$profile" = release ]; then cargo build --release --quiet; fi
bin=$PWD/target/$profile/ctxcurate
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
python3 - "$work/tree" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per = 50
for d in range((n + per - 1) // per):
    p = f"{root}/pkg{d // 100}/mod{d}"
    os.makedirs(p, exist_ok=True)
    for f in range(min(per, n - d * per)):
        with open(f"{p}/f{f}.py", "w") as fh:
            fh.write(f"x = {f}\n")
with open(f"{root}/ctxcurate.toml", "w") as fh:
    fh.write('[[presets.default.files]]\npath = "pkg0/mod0/f0.py"\n')
PY
cd "$work/tree"
start=$(date +%s.%N)
"$bin" build --watch -o "$work/out.md" >/dev/null 2>"$work/err" &
pid=$!
until grep -q '^watching' "$work/err"; do sleep 0.02; done
ready=$(echo "$(date +%s.%N) - $start" | bc)
rss_ready=$(ps -o rss= -p "$pid")
find . -name '*.py' -print0 | xargs -0 touch
sleep 4
rebuilds=$(grep -c ' changed · ' "$work/err" || true)
rss_after=$(ps -o rss= -p "$pid")
kill -TERM "$pid"
wait "$pid" && status=0 || status=$?
pid=
echo "files=$files watching after ${ready}s rss=${rss_ready}KB"
echo "storm: every file touched -> $rebuilds rebuild(s), rss=${rss_after}KB, exit $status"
