#!/usr/bin/env python3
"""Skeleton cut side by side with `repomix --compress` on Python packages.

For each package folder given: its `.py` files raw, as `repomix --compress`
packs them, and as `ctxcurate build` renders them with a preset of the same
files in `skeleton` mode. Tokens are o200k, counted by `ctxcurate tokens`
on each file's content alone (no headers, tags or tree of either tool: the
per-file content is cut out of repomix's JSON output and ctxcurate's XML
output and written to a file of its own). Only files both tools output are
compared. Python's `ast` says whether each skeleton parses and which defs
and classes outside function bodies it lost (the logic of
tests/integration/core/syntax/skeleton_pip.rs); repomix's output is checked
for parsing too, for comparison.

    scripts/skeleton_vs_repomix.py [--ctxcurate BIN] [--repomix CMD] DIR...

DIR is a package folder (e.g. an unpacked sdist's `django/`). Each is
copied to a temporary folder first (ctxcurate writes `.ctxcurate/` there);
`--keep FOLDER` works in FOLDER instead and leaves every output there.
REPOMIX defaults to `npx --yes repomix`; BIN to target/release/ctxcurate,
else target/debug/ctxcurate.
"""

import argparse
import ast
import collections
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def outside_functions(tree):
    """Defs and classes outside function bodies, counted by kind and name."""
    out, stack = collections.Counter(), [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, DEFS):
            out[type(node).__name__ + " " + node.name] += 1
            if not isinstance(node, ast.ClassDef):
                continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(value)
    return out


def parses(text):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def default_binary():
    root = Path(__file__).resolve().parent.parent
    for profile in ("release", "debug"):
        binary = root / "target" / profile / "ctxcurate"
        if binary.exists():
            return str(binary)
    return "ctxcurate"


def repomix_files(repomix, folder):
    out = folder.parent / (folder.name + ".repomix.json")
    subprocess.run(
        shlex.split(repomix)
        + [
            "--compress",
            "--style", "json",
            "--include", "**/*.py",
            "--no-security-check",
            "--no-gitignore",
            "--no-file-summary",
            "--no-directory-structure",
            "--quiet",
            "-o", str(out),
            ".",
        ],
        cwd=folder,
        check=True,
    )
    return json.loads(out.read_text(encoding="utf-8"))["files"]


def skeleton_files(ctxcurate, folder):
    """Each file's content in a skeleton build, and its view."""
    run = lambda *args: subprocess.run(  # noqa: E731
        [ctxcurate, "-C", str(folder), *args], check=True, stdout=subprocess.DEVNULL
    )
    run("add", "**/*.py")
    run("set", "**/*.py", "--mode", "skeleton")
    out = folder.parent / (folder.name + ".skeleton.xml")
    run("build", "-q", "-f", "xml", "--tree", "none", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    files, views = {}, collections.Counter()
    for part in text.split('<document index="')[1:]:
        view = part.split('view="', 1)[1].split('"', 1)[0]
        source = part.split("<source>", 1)[1].split("</source>", 1)[0]
        content = part.split("<document_content>\n", 1)[1]
        content = content.rsplit("</document_content>", 1)[0]
        if content.startswith("<![CDATA["):
            # Text holding `<` or `&` comes as CDATA (a `]]>` inside split).
            content = content[len("<![CDATA[") :].rsplit("]]>", 1)[0]
            content = content.replace("]]]]><![CDATA[>", "]]>")
        else:
            for escaped, plain in (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
                content = content.replace(escaped, plain)
        # The composer ends each content with one newline of its own.
        files[source] = content
        views[view] += 1
    return files, views


def token_count(ctxcurate, folder, paths):
    """o200k tokens of the files, summed (by `ctxcurate tokens`)."""
    total = 0
    for start in range(0, len(paths), 500):
        out = subprocess.run(
            [ctxcurate, "tokens", "-q", "--force-full", *paths[start : start + 500]],
            cwd=folder,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1] != "total":
                total += int(parts[0])
    return total


def write_all(folder, files):
    for rel, content in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def measure(ctxcurate, repomix, package, work):
    name = package.name
    copy = work / name / name
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns(".ctxcurate", "ctxcurate.toml"))
    raw = {
        str(p.relative_to(copy)): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(copy.rglob("*.py"))
    }
    packed = repomix_files(repomix, copy)
    skeletons, views = skeleton_files(ctxcurate, copy)
    common = sorted(set(raw) & set(packed) & set(skeletons))
    write_all(work / name / "repomix", {p: packed[p] for p in common})
    write_all(work / name / "skeleton", {p: skeletons[p] for p in common})
    tokens = {
        kind: token_count(ctxcurate, work / name / kind, common)
        for kind in (name, "repomix", "skeleton")
    }
    defs = lost = skeleton_ok = repomix_ok = valid = 0
    lost_examples = []
    for rel in common:
        original = parses(raw[rel])
        if original is None:
            continue
        valid += 1
        repomix_ok += parses(packed[rel]) is not None
        skeleton = parses(skeletons[rel])
        want = outside_functions(original)
        defs += sum(want.values())
        if skeleton is None:
            lost += sum(want.values())
            lost_examples.append(f"{rel}: does not parse")
            continue
        skeleton_ok += 1
        missing = want - outside_functions(skeleton)
        lost += sum(missing.values())
        if missing:
            lost_examples.append(f"{rel}: {sorted(missing)}")
    full = tokens[name]
    cut = lambda n: 100.0 * (1 - n / max(full, 1))  # noqa: E731
    return {
        "package": name,
        "files": len(common),
        "not_in_both": len(raw) - len(common),
        "views": dict(views),
        "raw": full,
        "repomix": tokens["repomix"],
        "repomix_cut": cut(tokens["repomix"]),
        "repomix_parse": 100.0 * repomix_ok / max(valid, 1),
        "skeleton": tokens["skeleton"],
        "skeleton_cut": cut(tokens["skeleton"]),
        "skeleton_parse": 100.0 * skeleton_ok / max(valid, 1),
        "defs": defs,
        "defs_kept": 100.0 * (defs - lost) / max(defs, 1),
        "lost": lost_examples[:10],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ctxcurate", default=default_binary())
    parser.add_argument("--repomix", default=os.environ.get("REPOMIX", "npx --yes repomix"))
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--keep", type=Path, help="work in this (new) folder and keep the outputs there"
    )
    parser.add_argument("packages", nargs="+", type=Path)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="skel-vs-repomix-") as work:
        work = args.keep.resolve() if args.keep else Path(work)
        for package in args.packages:
            rows.append(measure(args.ctxcurate, args.repomix, package.resolve(), work))
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
        return
    print(
        "| package | files | raw tokens | repomix --compress | cut | parses "
        "| ctxcurate skeleton | cut | parses | defs+classes kept |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['package']} | {r['files']} | {r['raw']:,} | {r['repomix']:,} "
            f"| {r['repomix_cut']:.1f}% | {r['repomix_parse']:.1f}% | {r['skeleton']:,} "
            f"| {r['skeleton_cut']:.1f}% | {r['skeleton_parse']:.1f}% "
            f"| {r['defs_kept']:.2f}% of {r['defs']:,} |"
        )
    for r in rows:
        if r["not_in_both"] or set(r["views"]) != {"skeleton"} or r["lost"]:
            print(f"\n{r['package']}: {r['not_in_both']} files not in both outputs, "
                  f"views {r['views']}")
            for line in r["lost"]:
                print(f"  lost: {line}")


if __name__ == "__main__":
    main()
