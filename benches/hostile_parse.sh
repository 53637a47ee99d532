#!/usr/bin/env bash
# What one hostile file costs `ctxcurate symbols` (issue 37: a parse has a
# deadline, 3 s of CPU per 512 KiB, and a memory bound, 64 MiB and 256
# bytes per byte). Writes each shape at SIZE bytes (default 1000000, under
# the default max_file_size) and prints its wall and CPU seconds, its peak
# memory (max RSS, MiB) and whether the parse was stopped. A row whose CPU
# is well past the deadline, or whose memory grows faster than its size
# across two SIZEs, is a regression.
#
#   benches/hostile_parse.sh [SIZE]
#
# Shapes: C++ template chains (`X<X<…int>>…`, `A<A<…`, sweep 12 N1, 1.7 GB
# before the bound), `template<template<…` and a line of one macro word
# (the C pre-pass looked back over the line for every word, sweep 12 N2:
# 31 s), the malformed expression of round 3 (`x= 1 + = 1 + …`) and deep
# brackets; `template<`/`impl<` in Java and C# and `$(` in PHP (sweep 12
# N3/N8: 17 GB for 200 KB of Java, a stack overflow for PHP, before the
# vendored tree-sitter's fixes). Do not run an older build on those
# shapes at full size without a memory limit (`ulimit -v`).
#
# CTXCURATE=path/to/ctxcurate times that binary instead of this checkout's
# release build.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${CTXCURATE:-}" ]; then cargo build --release --locked -q; fi
ctx=${CTXCURATE:-$PWD/target/release/ctxcurate}
python3 - "$size" "$work" <<'PY'
import sys
size, work = int(sys.argv[1]), sys.argv[2]
def fill(unit, head="", tail=""):
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail
half = size // 4
shapes = {
    "chain.cpp": "X<" * half + "int" + ">" * half + " x;\n",
    "open_chain.cpp": fill("A<"),
    "templates.cpp": fill("template<", tail="class T\n"),
    "macro_words.c": fill("API ", tail="\n"),
    "expression.ts": fill("= 1 + ", head="x= 1 + ", tail="1\n"),
    "expression.cpp": fill("= 1 + ", head="int x= 1 + ", tail="1;\n"),
    "brackets.rs": fill("{"),
    "brackets.py": fill("("),
    "templates.java": fill("template<"),
    "impls.cs": fill("impl<"),
    "dollars.php": fill("$(", head="<?php "),
}
for name, text in shapes.items():
    with open(f"{work}/{name}", "w") as f:
        f.write(text)
PY
printf '%-16s %8s %8s %8s %9s  %s\n' shape bytes wall cpu "peak MiB" stopped
for file in "$work"/*.*; do
  name=${file##*/}
  # time's line comes last on the same stderr as the tool's notes.
  HOME=$work XDG_CONFIG_HOME=$work XDG_CACHE_HOME=$work \
    /usr/bin/time -f '%e %U %S %M' "$ctx" symbols "$file" >/dev/null 2>"$work/err" || true
  read -r wall user sys rss <<<"$(tail -1 "$work/err")"
  stopped=no
  grep -q 'stopped after' "$work/err" && stopped=yes
  cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
  printf '%-16s %8s %8s %8s %9s  %s\n' "$name" "$(stat -c %s "$file")" "$wall" "$cpu" "$((rss / 1024))" "$stopped"
done

# `map` over COUNT malformed Lua files of SIZE bytes each, in one
# process: prints its wall and CPU seconds and peak memory.
map_of_lua() {
  local count=$1 size=$2 dir=$work/lua-$1-$2
  mkdir -p "$dir"
  python3 - "$dir" "$count" "$size" <<'PY'
import sys
folder, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
line = "x= 1 + = 1 + " * (size // 13)
for i in range(count):
    with open(f"{folder}/f{i}.lua", "w") as f:
        f.write(f"-- {i}\n{line}\n")
PY
  printf '[presets.default]\n[[presets.default.files]]\npath = "*.lua"\n' >"$dir/ctxcurate.toml"
  (cd "$dir" && HOME=$work XDG_CONFIG_HOME=$work XDG_CACHE_HOME=$work XDG_STATE_HOME=$work \
    /usr/bin/time -f '%e %U %S %M' "$ctx" map >/dev/null 2>"$work/err") || true
  read -r wall user sys rss <<<"$(tail -1 "$work/err")"
  printf '%-16s %8s %8s %8s %9s  %s\n' "map $count × lua" "$((count * size))" "$wall" \
    "$(python3 -c "print(f'{$user + $sys:.2f}')")" "$((rss / 1024))" "-"
}

# Many hostile files in one command (recheck 14, F4): twelve malformed
# 1 MB Lua files. Each parse has its own deadline (6 s of CPU for 1 MB);
# past two deadlines of stopped parses the rest get a tenth (at least 1 s
# then, 0.25 s since recheck 15). ctx-s10: 69 s of CPU; with the
# allowance: about 26 s.
map_of_lua 12 1000000

# Files that each finish just under their deadline (recheck 15, F1): 24
# malformed 75 KB Lua files, ~2.5 s of CPU each, none stopped. A finished
# parse that took more than a tenth of its deadline counts to the
# allowance too. ctx-s11: 58.6 s of CPU; ctx-s12c: 15.8 s.
map_of_lua 24 75000
