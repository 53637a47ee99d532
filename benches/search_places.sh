#!/usr/bin/env bash
# What many search places cost `ctxcurate map` (recheck 15, F7/F8): an
# import was probed in every Python root and every include folder, so
# the cost was their product. Shapes:
#   python: 3,000 folders each holding a package (each a Python root),
#           1,000 files × 10 imports of missing modules;
#   cc:     8,000 existing `-I` folders in compile_commands.json (790 KB,
#           under the 1 MiB a config is read to), 2,000 C files × 20
#           includes;
#   tree:   8,000 `xN/include/` folders with one header each (include
#           folders found in the tree, no config), the same C files;
#   shared: 8,000 roots each holding a package of the same name
#           (`rN/common/`), 2,000 files × 20 imports of missing modules
#           of it (at most 64 roots are searched for one name).
# Prints wall and CPU seconds per shape. ctx-s11: python 38 s wall / 18 s
# CPU, cc 92 s / 47 s, tree 124 s / 59 s, shared past 150 s (loaded
# machine).
#
#   benches/search_places.sh            # this checkout's release build
#   CTXCURATE=path/to/ctxcurate benches/search_places.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${CTXCURATE:-}" ]; then cargo build --release --locked -q; fi
ctx=${CTXCURATE:-$PWD/target/release/ctxcurate}
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
py = f"{work}/python"
os.makedirs(f"{py}/src")
for i in range(3000):
    os.makedirs(f"{py}/r{i}/pkg{i}")
    open(f"{py}/r{i}/pkg{i}/__init__.py", "w").close()
for i in range(1000):
    with open(f"{py}/src/m{i}.py", "w") as f:
        f.write("".join(f"import miss{(i + j) % 5000}.sub\n" for j in range(10)) + f"a{i} = 1\n")
def c_files(base):
    os.makedirs(f"{base}/src", exist_ok=True)
    for i in range(2000):
        with open(f"{base}/src/m{i}.c", "w") as f:
            f.write("".join(f'#include "h{(i * 7 + j) % 5000}.h"\n#include <sys{j}.h>\n' for j in range(10)))
            f.write(f"int f{i}(void) {{ return 0; }}\n")
cc = f"{work}/cc"
c_files(cc)
flags = " ".join(f"-Id/d{i}" for i in range(8000))
for i in range(8000):
    os.makedirs(f"{cc}/d/d{i}")
    open(f"{cc}/d/d{i}/only{i}.h", "w").write(f"int y{i};\n")
json.dump([{"directory": ".", "file": f"src/m{k}.c", "command": f"cc {flags} -c src/m{k}.c"} for k in range(10)],
          open(f"{cc}/compile_commands.json", "w"))
shared = f"{work}/shared"
os.makedirs(f"{shared}/src")
for i in range(8000):
    os.makedirs(f"{shared}/r{i}/common")
    open(f"{shared}/r{i}/common/__init__.py", "w").close()
for i in range(2000):
    with open(f"{shared}/src/m{i}.py", "w") as f:
        f.write("".join(f"import common.miss{(i + j) % 5000}\nfrom common.nope{j} import x\n" for j in range(10)) + f"a{i} = 1\n")
tree = f"{work}/tree"
c_files(tree)
for i in range(8000):
    os.makedirs(f"{tree}/x{i}/include")
    open(f"{tree}/x{i}/include/only{i}.h", "w").write(f"int y{i};\n")
for shape, pattern in [("python", "src/*.py"), ("shared", "src/*.py"), ("cc", "src/*.c"), ("tree", "src/*.c")]:
    with open(f"{work}/{shape}/ctxcurate.toml", "w") as f:
        f.write(f'[presets.default]\n[[presets.default.files]]\npath = "{pattern}"\n')
PY
printf '%-8s %8s %8s %9s\n' shape wall cpu "peak MiB"
for shape in python shared cc tree; do
  (cd "$work/$shape" && HOME=$work XDG_CONFIG_HOME=$work XDG_CACHE_HOME=$work XDG_STATE_HOME=$work \
    /usr/bin/time -f '%e %U %S %M' timeout 300 "$ctx" map >/dev/null 2>"$work/err") || true
  read -r wall user sys rss <<<"$(tail -1 "$work/err")"
  printf '%-8s %8s %8s %9s\n' "$shape" "$wall" "$(python3 -c "print(f'{$user + $sys:.2f}')")" "$((rss / 1024))"
done
