#!/usr/bin/env bash
# Side by side with the tools ctxcurate learns from, on one tree: whole-
# process wall time and peak RSS, medians of alternating runs. Each peer
# runs only when it is installed; the ratios are ctxcurate's time over the
# peer's (below 1: ctxcurate is faster).
#
#   benches/peers.sh [TREE | --generated[=FILES]] [RUNS]
#
# TREE defaults to a copy of the Python standard library's .py files (no
# site-packages); --generated makes a deterministic tree of FILES Python
# modules (default 100,000, about 155 MB; scripts/gen_pytree.py) under
# target/bench-trees, once. Peers: code2prompt and yek (`cargo install
# code2prompt yek`), files-to-prompt (`pip install files-to-prompt`, or set
# FILES_TO_PROMPT=path/to/it, e.g. in a venv), repomix (`npm install -g
# repomix`, or set REPOMIX=path/to/repomix). ctxcurate is built in release
# mode first; BEFORE=path/to/an/older/ctxcurate times that binary's warm
# `build -o FILE` too, alternating with this one's. Besides wall time and
# peak RSS, the table gives peak RSS as a share of the output's size for
# the `-o FILE` builds (issue 28's bar: at most 25%).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${2:-5}
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
files=$(find "$tree" -type f | wc -l)
bytes=$(du -sb "$tree" | cut -f1)

cargo build --release --locked -q
ctx=$PWD/target/release/ctxcurate
export XDG_STATE_HOME=$work/state
cat > "$tree/ctxcurate.toml" <<'TOML'
[project]
tokenizer = "o200k"
max_file_size = 100000000

[presets.default]
[[presets.default.files]]
path = "**/*.py"

[presets.skeleton]
[[presets.skeleton.files]]
path = "**/*.py"
view_mode = "skeleton"
TOML

repomix=${REPOMIX:-$(command -v repomix || true)}
ftp=${FILES_TO_PROMPT:-$(command -v files-to-prompt || true)}
before=${BEFORE:-}
have() { command -v "$1" >/dev/null 2>&1; }

# One timed run of "$@" in $tree, output to /dev/null: "seconds kilobytes".
measure() {
  (cd "$tree" && /usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/err") ||
    { echo "failed: $*" >&2; tail -3 "$work/err" >&2; echo "nan nan"; return; }
  cat "$work/t"
}

# median of the numbers on stdin
median() { python3 -c 'import sys,statistics as s; v=[float(x) for x in sys.stdin.read().split() if x!="nan"]; print(f"{s.median(v):.3f}" if v else "nan")'; }

declare -A wall rss
# Alternate the jobs run by run so that load spikes hit all alike.
job() { # name, command...
  local name=$1; shift
  read -r s k < <(measure "$@")
  wall[$name]+="$s "; rss[$name]+="$k "
}

cold_full() { "$ctx" cache clear >/dev/null; "$ctx" build --preset default; }
warm_full() { "$ctx" build --preset default; }
cold_skel() { "$ctx" cache clear >/dev/null; "$ctx" build --preset skeleton; }
export -f cold_full warm_full cold_skel; export ctx
out=$work/out.md
# Warm the cache (and the page cache) for the `-o FILE` builds.
(cd "$tree" && "$ctx" build --preset default -o "$out" 2>/dev/null)
[ -z "$before" ] || (cd "$tree" && "$before" build --preset default -o "$out" 2>/dev/null)

for _ in $(seq "$runs"); do
  job "ctxcurate full, cold" bash -c cold_full
  job "ctxcurate full, warm" bash -c warm_full
  # Right after a full build: the skeleton job below clears the cache.
  job "ctxcurate -o FILE, warm" "$ctx" build --preset default -o "$out"
  [ -z "$before" ] || job "before: -o FILE, warm" "$before" build --preset default -o "$out"
  job "ctxcurate skeleton, cold" bash -c cold_skel
  # code2prompt 4.x counts tokens by default (`--token-format raw`); 2.x
  # took `--tokens raw --no-clipboard`.
  have code2prompt && job "code2prompt --tokens" code2prompt . --output-file /dev/null --token-format raw
  have yek && job "yek --tokens" yek --tokens 100000000 .
  [ -n "$ftp" ] && job "files-to-prompt" "$ftp" . -o "$work/ftp.md"
  [ -n "$repomix" ] && job "repomix --compress" "$repomix" --compress --stdout .
done

printf '\ntree: %s (%s files, %.1f MB), %s runs each, %s cores\n\n' \
  "$tree" "$files" "$(echo "$bytes/1000000" | bc -l)" "$runs" "$(nproc)"
printf '%-28s %9s %9s\n' job "wall s" "RSS MB"
out_mb=$(echo "$(stat -c %s "$out")/1000000" | bc -l)
for name in "ctxcurate full, cold" "ctxcurate full, warm" "ctxcurate skeleton, cold" \
  "ctxcurate -o FILE, warm" "before: -o FILE, warm" \
  "code2prompt --tokens" "yek --tokens" "files-to-prompt" "repomix --compress"; do
  [ -n "${wall[$name]:-}" ] || continue
  w=$(echo "${wall[$name]}" | median); r=$(echo "${rss[$name]}" | median)
  share=""
  [[ "$name" == *"-o FILE"* ]] && share=$(printf '%5.1f%% of the output' "$(echo "100*$r*1024/($out_mb*1000000)" | bc -l)")
  printf '%-28s %9s %9.0f  %s\n' "$name" "$w" "$(echo "$r/1024" | bc -l)" "$share"
done
printf '\noutput: %.1f MB\n' "$out_mb"
ratio() { python3 -c "a,b=float('$1'),float('$2'); print(f'{a/b:.2f}' if a==a and b==b and b>0 else 'n/a')"; }
echo
[ -n "${wall["code2prompt --tokens"]:-}" ] && echo "cold full build / code2prompt --tokens: $(ratio "$(echo "${wall["ctxcurate full, cold"]}" | median)" "$(echo "${wall["code2prompt --tokens"]}" | median)")"
[ -n "${wall["yek --tokens"]:-}" ] && echo "cold full build / yek --tokens: $(ratio "$(echo "${wall["ctxcurate full, cold"]}" | median)" "$(echo "${wall["yek --tokens"]}" | median)")"
[ -n "${wall["files-to-prompt"]:-}" ] && echo "warm full build / files-to-prompt: $(ratio "$(echo "${wall["ctxcurate full, warm"]}" | median)" "$(echo "${wall["files-to-prompt"]}" | median)")"
[ -n "${wall["files-to-prompt"]:-}" ] && echo "warm build -o FILE / files-to-prompt: $(ratio "$(echo "${wall["ctxcurate -o FILE, warm"]}" | median)" "$(echo "${wall["files-to-prompt"]}" | median)")"
[ -n "${wall["before: -o FILE, warm"]:-}" ] && echo "warm build -o FILE / before: $(ratio "$(echo "${wall["ctxcurate -o FILE, warm"]}" | median)" "$(echo "${wall["before: -o FILE, warm"]}" | median)")"
[ -n "${wall["repomix --compress"]:-}" ] && echo "cold skeleton build / repomix --compress: $(ratio "$(echo "${wall["ctxcurate skeleton, cold"]}" | median)" "$(echo "${wall["repomix --compress"]}" | median)")"
exit 0
