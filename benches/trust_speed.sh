#!/usr/bin/env bash
# What `ctxcurate trust --show` costs on a large real Python project
# (consent round 13): pip's installed sources as a project whose
# summary_command is `python3 -m pip --version`, so the consent scan reads
# every module pip's entry point imports (about 100 files, some over
# 100 KB). Prints the wall and user time of each binary and, given two,
# whether their reviews (stdout and stderr) are the same: a speed-up must
# not read less.
#
#   benches/trust_speed.sh [BIN [OLD_BIN]]
#
# BIN defaults to target/release/ctxcurate (built first when missing).
# The pip sources default to /usr/lib/python3/dist-packages/pip; set PIP
# to use another copy. Round 13: 22.5 s (ctx-s9) -> 1.8 s, the same review.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$PWD/target/release/ctxcurate}
old=${2:-}
[ -x "$bin" ] || cargo build --release
pip=${PIP:-/usr/lib/python3/dist-packages/pip}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/p" "$work/home"
cp -r "$pip" "$work/p/pip"
find "$work/p" -name __pycache__ -prune -exec rm -rf {} +
echo 'x = 1' > "$work/p/a.py"
printf '[project]\nsummary_command = "python3 -m pip --version"\n[[presets.default.files]]\npath = "a.py"\nview_mode = "summary"\n' \
  > "$work/p/ctxcurate.toml"
run() {
  local b=$1 out=$2
  (cd "$work/p" && env -i PATH="$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
    XDG_STATE_HOME="$work/home/.local/state" /usr/bin/time -f "%e s wall, %U s user, %M KB" \
    "$b" trust --show >"$out.out" 2>"$out.err") || true
  echo "$b: $(tail -1 "$out.err")"
  sed -i '$d' "$out.err"
}
run "$bin" "$work/new"
if [ -n "$old" ]; then
  run "$old" "$work/old"
  if cmp -s "$work/new.out" "$work/old.out" && cmp -s "$work/new.err" "$work/old.err"; then
    echo "same review ($(wc -l <"$work/new.out") lines)"
  else
    echo "the reviews differ:"; diff "$work/old.out" "$work/new.out" | head -20 || true
    diff "$work/old.err" "$work/new.err" | head -20 || true
  fi
fi
