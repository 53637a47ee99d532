#!/usr/bin/env bash
# What a packed build sends (issue 25): `ctxcurate build --target T
# --budget B --stats-json` on real projects, at 8k, 30k and 100k tokens.
# Per target and budget it prints how many of the target's direct imports
# are in the output in some form (full, skeleton, outline, masked) of how
# many there are, whether the target is at the user's own view, the
# tokens used and how many candidates were left out.
#
#   benches/pack.sh [BINARY]
#
# BINARY defaults to target/release/ctxcurate, built first. The projects:
# rich and Brotli (its C sources) from PyPI sdists and numpy's wheel
# (pinned, fetched into target/corpora when absent, as .ci/run does), the
# `ignore` crate from the cargo registry and rxjs from npm. Each is copied
# into a scratch folder, so the corpora stay untouched. Brotli's
# `decode.c` is packed twice: as the user's whole file, and masked as a
# user would curate it (signatures, one function in full) through a
# preset entry, the user's view the pack must keep.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpora=$root/target/corpora
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${1:-}" ]; then
  ctx=$(realpath "$1")
else
  cargo build --release --locked -q
  ctx=$root/target/release/ctxcurate
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
if [ ! -d "$corpora/numpy-2.4.6" ]; then
  dl=$(mktemp -d)
  python3 -m pip download -q --no-deps --only-binary :all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 -d "$dl" numpy==2.4.6
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$dl"/numpy-2.4.6-*.whl "$corpora/numpy-2.4.6"
  rm -rf "$dl"
fi
if [ ! -d "$corpora/npm/rxjs/package" ]; then
  mkdir -p "$corpora/npm/rxjs"
  (cd "$corpora/npm/rxjs" && npm pack -q --silent rxjs@7.8.2 >/dev/null && tar xzf ./*.tgz && rm -f ./*.tgz)
fi
ignore_src=$(ls -d "$HOME"/.cargo/registry/src/*/ignore-0.4.* 2>/dev/null | sort -V | tail -n 1)

copy() { # SRC NAME: the project, without the .py files numpy's wheel compiles
  mkdir -p "$work/$2"
  cp -r "$1"/. "$work/$2"
}
copy "$corpora/rich-15.0.0" rich
copy "$corpora/numpy-2.4.6" numpy
copy "$corpora/brotli-1.2.1" brotli
cp -r "$work/brotli" "$work/brotli-masked"
copy "$corpora/npm/rxjs/package" rxjs
[ -n "$ignore_src" ] && copy "$ignore_src" ignore
# The user's view of decode.c: the API as signatures, the function they
# work on in full.
cat >"$work/brotli-masked/ctxcurate.toml" <<'TOML'
[presets.default]

[[presets.default.files]]
path = "c/dec/decode.c"
view_mode = "masked"
mask_default = "sig"
ast_mask = { "BrotliDecoderDecompressStream" = "def" }
TOML

# project target view
cases=(
  "rich rich/table.py full"
  "numpy numpy/lib/_shape_base_impl.py full"
  "brotli c/dec/decode.c full"
  "brotli-masked c/dec/decode.c masked"
  "rxjs src/internal/Observable.ts full"
)
[ -n "$ignore_src" ] && cases+=("ignore src/walk.rs full")

printf '%-14s %-34s %7s %9s %7s %8s %8s\n' project target budget imports view tokens left_out
for case in "${cases[@]}"; do
  read -r project target view <<<"$case"
  for budget in 8000 30000 100000; do
    stats=$(cd "$work/$project" && "$ctx" build --target "$target" --budget "$budget" \
      --allow-partial --stats-json -o "$work/out.md" 2>&1 >/dev/null | tail -n 1 || true)
    python3 - "$project" "$target" "$view" "$budget" "$stats" <<'PY'
import json, sys
project, target, view, budget, line = sys.argv[1:]
try:
    s = json.loads(line)
except ValueError:
    print(f"{project:<14} {target:<34} {budget:>7}  error: {line[:80]}")
    sys.exit()
items = s["items"]
imports = [i for i in items if i["role"] == "import"]
present = sum(1 for i in imports if i["mode"] is not None)
t = next((i for i in items if i["role"] == "target"), None)
at_view = "yes" if t is not None and t["mode"] == view else f"no:{t and t['mode']}"
left = sum(1 for i in items if i["mode"] is None)
print(f"{project:<14} {target:<34} {budget:>7} {present:>4}/{len(imports):<4} "
      f"{at_view:>7} {s['stats']['tokens']:>8} {left:>8}")
PY
  done
done
