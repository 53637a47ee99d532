#!/usr/bin/env bash
# How much of a project the repo map covers (issue 25): `ctxcurate map
# --target T --budget B --stats-json` on rich and Brotli (its C sources),
# at 1k, 2k and 8k tokens. Per target and budget it prints the files
# outlined, the files listed, the candidates and the tokens used.
#
#   benches/repo_map.sh [BINARY...]
#
# Each BINARY (default target/release/ctxcurate, built first) gets its own
# rows, so an old build and a new one compare side by side. The projects
# are the pinned sdists .ci/run fetches into target/corpora (fetched here
# when absent), copied into a scratch folder so the corpora stay untouched;
# each binary gets its own cache home.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpora=$root/target/corpora
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bins=()
if [ $# -gt 0 ]; then
  for b in "$@"; do bins+=("$(realpath "$b")"); done
else
  cargo build --release --locked -q
  bins=("$root/target/release/ctxcurate")
fi

fetch_sdist() { # NAME VERSION
  local dir=$corpora/$1-$2
  [ -d "$dir" ] && return
  local dl
  dl=$(mktemp -d)
  python3 -m pip download -q --no-deps --no-binary :all: -d "$dl" "$1==$2"
  mkdir -p "$corpora"
  tar xzf "$dl"/*.tar.gz -C "$corpora"
  rm -rf "$dl"
}
fetch_sdist rich 15.0.0
fetch_sdist brotli 1.2.1
cp -r "$corpora/rich-15.0.0" "$corpora/brotli-1.2.1" "$work/"

printf '%-10s %-22s %6s %9s %7s %10s %7s\n' binary target budget outlined listed candidates tokens
n=0
for ctx in "${bins[@]}"; do
  n=$((n + 1))
  for case in "rich-15.0.0 rich/table.py" "brotli-1.2.1 c/dec/decode.c"; do
    set -- $case
    for budget in 1024 2048 8192; do
      stats=$(cd "$work/$1" && XDG_CACHE_HOME="$work/cache$n" HOME="$work/home$n" \
        "$ctx" map -q --target "$2" --budget "$budget" --stats-json 2>&1 >/dev/null | head -1)
      python3 - "$n" "$2" "$budget" "$stats" <<'PY'
import json, sys
n, target, budget, stats = sys.argv[1:]
s = json.loads(stats)
print(f"{'#' + n:<10} {target:<22} {budget:>6} {s['outlined']:>9} {s['listed']:>7} {s['candidates']:>10} {s['tokens']:>7}")
PY
    done
  done
done
