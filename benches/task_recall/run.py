#!/usr/bin/env python3
"""Task recall of `ctxcurate build --task-file F --budget N` on pinned real
commits, beside BM25 baselines in the same run (see ../task_recall.sh).

For each case (cases.jsonl: project, commit, parent, right files) the
parent's tree is written to a temp dir from the project's bare mirror, the
commit message is the task, and each budget is tried. A right file is held
when `--stats-json` lists it among `items` with a non-null `mode` (full or
reduced; a file only named in the repo map is not held). The baselines
rank files by BM25 (k1 1.2, b 0.75; words split at non-alphanumerics and at
camelCase, lowercased; a file's path is part of its text) and pack whole
files in rank order, skipping one that no longer fits:

  bm25-all    every text file (no NUL byte, UTF-8, under 1 MiB)
  bm25-src    source files only (`common.is_source`: by extension, no tests,
              docs, fixtures, examples, vendored or generated files)
  bm25-src20  the same, only the first 20 ranked files

The "whole-file ceiling" row is what whole-file packing could reach at
best: the share of right files that fit the budget alone, and of cases
whose right files fit it together (ctxcurate can do better by holding a
large file reduced).

A file's size for the baselines is what `ctxcurate tokens` counts (the
binary's default tokenizer), so their "tokens" compare with ctxcurate's
own; the task's tokens are not charged to them.
"""

import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import common

K1, B = 1.2, 0.75
MAX_TEXT = 1 << 20
METHODS = ["ctxcurate", "bm25-all", "bm25-src", "bm25-src20"]
WORD = re.compile(r"[A-Za-z0-9]+")
PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text):
    out = []
    for w in WORD.findall(text):
        if w.islower() or w.isdigit():
            out.append(w)
        else:
            out.extend(p.lower() for p in PART.findall(w))
    return out


class Bm25:
    """Okapi BM25 over (path, words) documents."""

    def __init__(self, docs):
        self.docs = [(p, collections.Counter(ws), len(ws)) for p, ws in docs]
        self.n = len(self.docs)
        self.avg = sum(l for _, _, l in self.docs) / self.n if self.n else 0.0
        self.df = collections.Counter()
        for _, tf, _ in self.docs:
            self.df.update(tf.keys())

    def rank(self, query):
        q = collections.Counter(query)
        idf = {t: math.log((self.n - self.df[t] + 0.5) / (self.df[t] + 0.5) + 1.0)
               for t in q if self.df[t]}
        scored = []
        for path, tf, length in self.docs:
            s = 0.0
            norm = K1 * (1 - B + B * length / self.avg) if self.avg else K1
            for t, w in idf.items():
                f = tf.get(t)
                if f:
                    s += q[t] * w * f * (K1 + 1) / (f + norm)
            scored.append((-s, path))
        scored.sort()
        return [p for _, p in scored]


def pack(ranked, sizes, budget, limit=None):
    held, used = [], 0
    for path in ranked[:limit]:
        size = sizes.get(path)
        if size is not None and used + size <= budget:
            held.append(path)
            used += size
    return held, used


def read_tree(root):
    """Every text file of the tree: (relative path, text)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", ".ctxcurate"))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            if os.path.getsize(full) > MAX_TEXT:
                continue
            with open(full, "rb") as fh:
                data = fh.read()
            if b"\0" in data[:8192]:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            out.append((os.path.relpath(full, root).replace(os.sep, "/"), text))
    return out


def token_sizes(binary, root, env):
    """Tokens of each file as `ctxcurate tokens` counts them (the caller
    falls back to bytes/4 for a file it does not list, or when it fails)."""
    sizes = {}
    try:
        proc = subprocess.run([binary, "-q", "tokens", "--force-full", "."], cwd=root, env=env,
                              capture_output=True, timeout=600)
        for line in proc.stdout.decode("utf-8", "replace").splitlines():
            m = re.match(r"^\s*([\d,]+)\s+(\S.*?)\s*$", line)
            if m:
                sizes[m.group(2)] = int(m.group(1).replace(",", ""))
    except (OSError, subprocess.TimeoutExpired):
        pass
    return sizes


def parse_stats(stderr):
    """The `--stats-json` object in stderr (other lines may surround it)."""
    text = stderr.decode("utf-8", "replace")
    dec = json.JSONDecoder()
    for m in re.finditer(r"(?m)^\{", text):
        try:
            obj, _ = dec.raw_decode(text[m.start():])
        except ValueError:
            continue
        if isinstance(obj, dict) and "items" in obj:
            return obj
    return None


def run_case(case, opts):
    """Everything measured for one case: {budget: {method: result}}."""
    res = {"id": case["id"], "project": case["project"], "right": case["right"],
           "budgets": {}, "notes": []}
    git_dir = common.mirror_dir(opts["mirrors"], case["project"])
    if git_dir is None:
        res["skipped"] = "no mirror"
        return res
    work = tempfile.mkdtemp(prefix="task_recall-")
    try:
        task = common.task_text(common.commit_message(git_dir, case["commit"]))
        if common.task_digest(task) != case.get("task_sha256", common.task_digest(task)):
            res["notes"].append("task text differs from the pinned digest")
        task_file = os.path.join(work, "task.txt")
        with open(task_file, "w", encoding="utf-8") as fh:
            fh.write(task + "\n")
        root = os.path.join(work, "tree")
        os.mkdir(root)
        tar = common.git(git_dir, "archive", "--format=tar", case["parent"])
        subprocess.run(["tar", "-x", "-C", root], input=tar, check=True, capture_output=True)
        missing = [p for p in case["right"] if not os.path.isfile(os.path.join(root, p))]
        if missing:
            res["notes"].append("right files absent from the parent: " + ", ".join(missing))
        env = dict(os.environ, XDG_CONFIG_HOME=opts["xdg"] + "/config",
                   XDG_CACHE_HOME=opts["xdg"] + "/cache", NO_COLOR="1")
        right = set(case["right"])

        # ctxcurate, one build per budget.
        for budget in opts["budgets"]:
            t0 = time.monotonic()
            try:
                proc = subprocess.run(
                    [opts["binary"], "build", "--task-file", task_file, "--budget", str(budget),
                     "--stats-json", "-o", os.devnull],
                    cwd=root, env=env, capture_output=True, timeout=opts["timeout"])
                stats = parse_stats(proc.stderr)
                err = None if proc.returncode == 0 and stats else (
                    f"exit {proc.returncode}: " +
                    proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0][:200]
                    if proc.stderr.strip() else f"exit {proc.returncode}, no stats")
            except subprocess.TimeoutExpired:
                stats, err = None, f"timed out after {opts['timeout']} s"
            secs = time.monotonic() - t0
            held, tokens, first = set(), None, None
            if stats and not err:
                items = stats.get("items") or []
                packed = [i for i in items if i.get("mode") is not None]
                held = {i.get("path") for i in packed}
                first = packed[0].get("path") if packed else None
                tokens = (stats.get("stats") or {}).get("tokens")
            res["budgets"].setdefault(budget, {})["ctxcurate"] = {
                "held": sorted(right & held), "tokens": tokens, "error": err,
                "first": first, "secs": round(secs, 2), "files": len(held)}

        # The first budget again, now on a warm cache (the later budgets
        # built the word index): a warm build must pack what the cold one
        # did. Django's second build once packed nothing.
        first_budget = opts["budgets"][0]
        cold = res["budgets"][first_budget]["ctxcurate"]
        if not cold["error"]:
            try:
                proc = subprocess.run(
                    [opts["binary"], "build", "--task-file", task_file, "--budget",
                     str(first_budget), "--stats-json", "-o", os.devnull],
                    cwd=root, env=env, capture_output=True, timeout=opts["timeout"])
                stats = parse_stats(proc.stderr) if proc.returncode == 0 else None
            except subprocess.TimeoutExpired:
                stats = None
            items = (stats or {}).get("items") or []
            warm = sorted(i.get("path") for i in items if i.get("mode") is not None)
            if len(warm) != cold["files"] or not right & set(warm) >= set(cold["held"]):
                res["notes"].append(
                    f"a warm rerun at {first_budget} packed {len(warm)} files "
                    f"(the cold run {cold['files']}), {len(right & set(warm))} right")

        # BM25 baselines.
        texts = read_tree(root)
        sizes = token_sizes(opts["binary"], root, env)
        for p, t in texts:
            sizes.setdefault(p, (len(t.encode("utf-8")) + 3) // 4)
        docs = [(p, words(p + "\n" + t)) for p, t in texts]
        query = words(task)
        rank_all = Bm25(docs).rank(query)
        rank_src = Bm25([d for d in docs if common.is_source(d[0])]).rank(query)
        for budget in opts["budgets"]:
            for method, ranked, limit in (("bm25-all", rank_all, None),
                                          ("bm25-src", rank_src, None),
                                          ("bm25-src20", rank_src, 20)):
                held, used = pack(ranked, sizes, budget, limit)
                res["budgets"][budget][method] = {
                    "held": sorted(right & set(held)), "tokens": used, "error": None,
                    "first": held[0] if held else None}
        res["bm25_src_rank"] = {p: rank_src.index(p) + 1 for p in right if p in rank_src}
        res["right_tokens"] = {p: sizes.get(p) for p in case["right"]}
    except (subprocess.CalledProcessError, OSError) as e:
        res["skipped"] = f"could not set up: {e}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


def fmt_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def report(results, budgets, out=sys.stdout):
    done = [r for r in results if "skipped" not in r]
    print(f"\n{len(done)} cases measured"
          + (f", {len(results) - len(done)} skipped" if len(done) < len(results) else ""), file=out)
    for budget in budgets:
        rows = []
        for m in METHODS:
            rec, every, toks, over, failed = [], 0, [], 0, 0
            for r in done:
                x = r["budgets"][budget][m]
                n = len(x["held"]) / len(r["right"])
                rec.append(n)
                every += n == 1.0
                if x["tokens"] is not None:
                    toks.append(x["tokens"])
                    over += x["tokens"] > budget
                failed += x["error"] is not None
            k = len(rec) or 1
            rows.append([m, f"{sum(rec) / k:.2f}", f"{every / k:.2f}",
                         f"{sum(toks) / (len(toks) or 1):,.0f}",
                         str(over) if m == "ctxcurate" else "-",
                         str(failed) if m == "ctxcurate" else "-"])
        # What packing whole files can reach at best: right files that fit
        # whole, cases whose right files fit together.
        fit = [r for r in done if all(v is not None for v in r.get("right_tokens", {}).values())
               and r.get("right_tokens")]
        if fit:
            rows.append(["whole-file ceiling",
                         f"{sum(sum(v <= budget for v in r['right_tokens'].values()) / len(r['right']) for r in fit) / len(fit):.2f}",
                         f"{sum(sum(r['right_tokens'].values()) <= budget for r in fit) / len(fit):.2f}",
                         "-", "-", "-"])
        print(f"\nat {budget:,} tokens", file=out)
        print(fmt_table(["method", "recall (mean)", "every right file", "tokens (mean)",
                         "over budget", "failed"], rows), file=out)
    print("\nrecall by project (ctxcurate / bm25-all / bm25-src / bm25-src20)", file=out)
    projects = sorted({r["project"] for r in done})
    rows = []
    for p in projects:
        rs = [r for r in done if r["project"] == p]
        row = [p, str(len(rs))]
        for budget in budgets:
            row.append(" / ".join(
                f"{sum(len(r['budgets'][budget][m]['held']) / len(r['right']) for r in rs) / len(rs):.2f}"
                for m in METHODS))
        rows.append(row)
    print(fmt_table(["project", "cases"] + [f"at {b:,}" for b in budgets], rows), file=out)
    failures = [(r["id"], b, r["budgets"][b]["ctxcurate"]["error"]) for r in done for b in budgets
                if r["budgets"][b]["ctxcurate"]["error"]]
    if failures:
        print(f"\nctxcurate builds that failed (counted as recall 0): {len(failures)}", file=out)
        for cid, b, e in failures:
            print(f"  {cid} at {b}: {e}", file=out)
    for r in results:
        if "skipped" in r:
            print(f"skipped {r['id']}: {r['skipped']}", file=out)
        for n in r.get("notes", []):
            print(f"note {r['id']}: {n}", file=out)


def verbose_line(r, budgets):
    if "skipped" in r:
        return f"{r['id']}: skipped ({r['skipped']})"
    parts = []
    for b in budgets:
        x = r["budgets"][b]["ctxcurate"]
        missed = sorted(set(r["right"]) - set(x["held"]))
        parts.append(f"{b // 1000}k {len(x['held'])}/{len(r['right'])}"
                     + (f" missed {','.join(missed)}" if missed else "")
                     + f" {x['files']} files {x['tokens']} tokens"
                     + (f" first {x['first']}" if x["first"] else "")
                     + (f" ERROR {x['error']}" if x["error"] else "")
                     + f" ({x['secs']}s)")
    ranks = r.get("bm25_src_rank", {})
    return (f"{r['id']} [{r['project']}]: " + "; ".join(parts)
            + f" | bm25-src rank of right files: {ranks}")


def main():
    ap = argparse.ArgumentParser(description="task recall of ctxcurate build --task vs BM25")
    ap.add_argument("binary")
    ap.add_argument("--budgets", default="8000,32000,64000")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--cases", default=os.path.join(here, "cases.jsonl"))
    ap.add_argument("--limit", type=int, help="only the first N cases of each project")
    ap.add_argument("--only", help="case ids or projects to run (comma-separated substrings)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per build")
    ap.add_argument("--json", help="also write every case's results to this file")
    ap.add_argument("--verbose", action="store_true", help="one line per case")
    args = ap.parse_args()

    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"not an executable: {binary}")
    budgets = [int(b.replace("k", "000")) for b in args.budgets.split(",") if b.strip()]
    mirrors = os.environ.get("TASK_RECALL_MIRRORS", "/work/.mirror")
    with open(args.cases, encoding="utf-8") as fh:
        cases = [json.loads(l) for l in fh if l.strip() and not l.startswith("#")]
    if args.only:
        keys = [k.strip() for k in args.only.split(",") if k.strip()]
        cases = [c for c in cases if any(k in c["id"] or k in c["project"] for k in keys)]
    if args.limit:
        seen = collections.Counter()
        kept = []
        for c in cases:
            seen[c["project"]] += 1
            if seen[c["project"]] <= args.limit:
                kept.append(c)
        cases = kept

    absent = sorted({c["project"] for c in cases if common.mirror_dir(mirrors, c["project"]) is None})
    for p in absent:
        print(f"note: no mirror of {p} under {mirrors} (MIRRORS/{p.replace('/', '+')}/repo); "
              f"bring it with the search tool's fetch (github:{p}) or point "
              f"TASK_RECALL_MIRRORS at a folder of bare clones; its cases are skipped",
              file=sys.stderr)
    cases = [c for c in cases if c["project"] not in absent]
    if not cases:
        sys.exit("no case to run")

    xdg = tempfile.mkdtemp(prefix="task_recall-xdg-")
    opts = {"binary": binary, "budgets": budgets, "mirrors": mirrors, "xdg": xdg,
            "timeout": args.timeout}
    t0 = time.monotonic()
    results = []
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(run_case, c, opts) for c in cases]
            for n, fut in enumerate(futures, 1):
                r = fut.result()
                results.append(r)
                if args.verbose:
                    print(verbose_line(r, budgets), flush=True)
                else:
                    print(f"\r{n}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(xdg, ignore_errors=True)
    if not args.verbose:
        print(file=sys.stderr)
    print(f"binary: {binary}\ncases: {args.cases}\nwall time: {time.monotonic() - t0:.0f} s")
    report(results, budgets)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
