#!/bin/sh
# What each tree-sitter grammar adds to the release binary: the code and
# data (text + data + bss, as `size` counts them) of the static library each
# grammar crate compiles from its C parser, plus the current release
# binary's size. A proxy (the linker may drop a little), without a cold
# release build: run it after any `cargo build --release`.
#
#   [PROFILE=debug] benches/grammar_cost.sh [TARGET_DIR]   (default: ./target)
# (the dev profile builds the grammars at opt-level 2: within 0.1% of release)
set -eu
target=${1:-target}
profile=${PROFILE:-release}
build="$target/$profile/build"
[ -d "$build" ] || { echo "no $build: build --release first" >&2; exit 1; }
printf '%-24s %10s %10s\n' grammar "code+data" "archive"
for out in "$build"/tree-sitter-*/out; do
    lib=$(ls "$out"/*.a 2>/dev/null | head -n 1) || true
    [ -n "$lib" ] || continue
    crate=$(basename "$(dirname "$out")" | sed 's/-[0-9a-f]\{16\}$//')
    bytes=$(size -t "$lib" | tail -n 1 | awk '{print $4}')
    printf '%-24s %10d %10d\n' "$crate" "$bytes" "$(stat -c %s "$lib")"
done | sort -u -k1,1 | sort -k2 -n -r | awk '{ print; sum += $2 } END { printf "%-24s %10d\n", "all grammars + runtime", sum }'

bin="$target/$profile/ctxcurate"
if [ -f "$bin" ]; then
    printf '\n%s binary %s: %d bytes (%s)\n' "$profile" "$bin" "$(stat -c %s "$bin")" \
        "$(size "$bin" | tail -n 1 | awk '{print "text " $1 ", data " $2}')"
fi
