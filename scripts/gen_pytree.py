#!/usr/bin/env python3
"""Generate a large, deterministic Python tree for benchmarks (issue 28's
100,000-file build, `benches/peers.sh --generated`):

    python3 scripts/gen_pytree.py DIR [FILES]

FILES (default 100,000) modules of about 1.5 KB each, 100 per folder
(`pkg_NNN/sub_N/mod_NNN.py`), each with a docstring, imports, functions and
a class whose names, numbers and comments vary. The same FILES give the
same bytes on every machine (a fixed seed, no dependence on the Python
installed); DIR must not exist yet or be empty.
"""

import os
import random
import sys

WORDS = (
    "alpha beta gamma delta value items count index total result record "
    "buffer config parser node tree path name size limit offset token "
    "stream chunk cache entry state flag error reader writer handler "
    "request response client server queue batch window frame layer"
).split()

IMPORTS = ("os", "sys", "re", "json", "math", "itertools", "functools",
           "collections", "typing", "dataclasses", "pathlib", "logging")


def ident(rng, parts=2):
    return "_".join(rng.choice(WORDS) for _ in range(parts))


def function(rng, indent=""):
    name = ident(rng)
    args = ", ".join(ident(rng, 1) + str(i) for i in range(rng.randint(1, 3)))
    lines = [f"{indent}def {name}({args}):",
             f'{indent}    """Return the {ident(rng, 1)} of {ident(rng, 2)}."""']
    for _ in range(rng.randint(2, 6)):
        var = ident(rng, 1)
        kind = rng.randrange(4)
        if kind == 0:
            lines.append(f"{indent}    {var} = {rng.randint(0, 10_000)} * {args.split(',')[0]}")
        elif kind == 1:
            lines.append(f"{indent}    for {var} in range({rng.randint(1, 64)}):")
            lines.append(f"{indent}        yield {var} + {rng.randint(1, 9)}")
        elif kind == 2:
            lines.append(f"{indent}    if {var} := {ident(rng)}():")
            lines.append(f'{indent}        raise ValueError("{ident(rng, 3)}")')
        else:
            lines.append(f"{indent}    # {' '.join(rng.choice(WORDS) for _ in range(6))}")
    lines.append(f"{indent}    return {ident(rng, 1)}")
    return lines


def module(rng, n):
    lines = [f'"""Module {n}: {" ".join(rng.choice(WORDS) for _ in range(8))}."""', ""]
    for name in sorted(rng.sample(IMPORTS, rng.randint(1, 4))):
        lines.append(f"import {name}")
    lines.append("")
    for _ in range(rng.randint(1, 4)):
        lines += [""] + function(rng)
    cls = "".join(w.capitalize() for w in ident(rng).split("_"))
    lines += ["", "", f"class {cls}{n}:", f'    """A {ident(rng, 1)} holder."""', ""]
    for i in range(rng.randint(1, 3)):
        if i:
            lines.append("")
        lines += function(rng, "    ")
    return "\n".join(lines) + "\n"


def main():
    # `--help` (or any flag) is no folder to fill with 100,000 files.
    if len(sys.argv) not in (2, 3) or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    root = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) == 3 else 100_000
    if os.path.exists(root) and os.listdir(root):
        sys.exit(f"{root}: not empty")
    rng = random.Random(28)
    for n in range(files):
        folder = os.path.join(root, f"pkg_{n // 1000:03d}", f"sub_{n // 100 % 10}")
        if n % 100 == 0:
            os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"mod_{n % 100:03d}.py"), "w", encoding="utf-8") as f:
            f.write(module(rng, n))


if __name__ == "__main__":
    main()
