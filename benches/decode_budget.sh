#!/usr/bin/env bash
# A build of N small files, each holding VALUES base64 bzip2 streams of
# 64 MiB of zeros (108 characters each): every text a build's scanner
# reads shares one decode budget (32 MiB), so the time stays flat
# whatever N (recheck 22: each streamed stretch had a budget of its own,
# 50 files took 56 s in a debug build, 2 s now). Not a timed assert:
# numbers to compare by hand, one line per N.
#
#   benches/decode_budget.sh [PROFILE] [N…]     (PROFILE: release|debug)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-release}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 50 200)
if [ "$profile" = release ]; then cargo build --release --quiet; fi
bin=$PWD/target/$profile/ctxcurate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "${counts[@]}"; do
  project=$work/p$n
  mkdir -p "$project/many"
  python3 - "$project/many" "$n" "${VALUES:-20}" <<'PY'
import base64, bz2, sys
root, n, values = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bomb = base64.b64encode(bz2.compress(b"\0" * (64 << 20), 9)).decode()
for k in range(n):
    with open(f"{root}/f{k}.py", "w") as fh:
        fh.write("".join(f'X{i} = "{bomb}"\n' for i in range(values)))
PY
  printf '[presets.default]\nfiles = ["many/**"]\n' >"$project/ctxcurate.toml"
  start=$(date +%s%N)
  (cd "$project" && "$bin" -q build >/dev/null 2>&1) || true
  ms=$((($(date +%s%N) - start) / 1000000))
  printf '%5d files x %s values: %d ms\n' "$n" "${VALUES:-20}" "$ms"
done
