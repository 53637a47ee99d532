#!/usr/bin/env python3
"""Choose the pinned cases of the task-recall bench from fetched histories.

A case is a real commit: the task is its message, the tree is its parent,
the right files are the non-test source files it changed. Kept: non-merge
commits since --since whose subject reads as a task (not a version bump,
release, typo, formatting, dependency, docs, CI or test-only change; at
least three words), that touch at most 15 files and change 1-4 source
files (`common.is_source`), each of which existed in the parent and is
modified in place (no source file added, deleted or renamed). From the kept
commits of a project, --per-project are drawn in a fixed pseudo-random
order (sha256 of the commit id), so a re-run on the same mirrors picks the
same cases. A commit whose parent tree the mirror cannot write out (a
snapshot that left its largest blobs out) is passed over, as the bench
could not run it.

    benches/task_recall/pick_cases.py [--per-project 20] [--since 2021-01-01]
        [--mirrors /work/.mirror] owner/name... > benches/task_recall/cases.jsonl

The cases file pins the project, commit, parent, right files and a digest
of the task text; the text itself is read from the commit when the bench
runs (`common.task_text`), as the commit id pins it.
"""

import argparse
import hashlib
import json
import re
import subprocess
import sys

import common

CONVENTIONAL = re.compile(r"^(\w+)(\([^)]*\))?!?:\s*")
SKIP_TYPES = {"chore", "build", "ci", "docs", "doc", "style", "test", "tests",
              "release", "revert", "wip", "deps", "dep", "bump", "typo", "workflow"}
SKIP_WORDS = re.compile(
    r"\b(typos?|bump(ed|s)?|release[sd]?|changelog|formatting|reformat\w*|"
    r"rustfmt|gofmt|prettier|lint(s|ing)?|clippy|spelling|whitespace|"
    r"dependabot|renovate|deps|dependenc(y|ies)|copyright|licen[cs]e|readme|"
    r"version|regress|merge|revert|cargo fmt|go fmt|black|isort|ruff|flake8|"
    r"mypy|pylint|eslint|pyupgrade|tests?|ci|pre-commit|spell\w*|workflows?|"
    r"mdbook|unused|renam\w*|naming)\b",
    re.IGNORECASE,
)


def subject_is_task(subject):
    m = CONVENTIONAL.match(subject)
    if m and m.group(1).lower() in SKIP_TYPES:
        return False
    rest = subject[m.end():] if m else subject
    if len(re.findall(r"[A-Za-z]{2,}", rest)) < 3:
        return False
    return not SKIP_WORDS.search(subject)


def candidates(git_dir, since):
    out = common.git(git_dir, "log", "--no-merges", f"--since={since}",
                     "-M", "--name-status", "--format=@@%H %P%x09%s").decode("utf-8", "replace")
    for block in out.split("@@")[1:]:
        head, _, files = block.partition("\n")
        ids, _, subject = head.partition("\t")
        shas = ids.split()
        if len(shas) != 2:
            continue
        changes = [l.split("\t") for l in files.strip().split("\n") if l.strip()]
        yield shas[0], shas[1], subject, changes


def keep(subject, changes):
    if not subject_is_task(subject) or not changes or len(changes) > 15:
        return None
    right = []
    for change in changes:
        status, paths = change[0], change[1:]
        if not any(common.is_source(p) for p in paths):
            continue
        if status != "M":
            return None
        right.append(paths[0])
    return right if 1 <= len(right) <= 4 else None


def archivable(git_dir, parent):
    """Whether the mirror holds every blob of `parent`'s tree."""
    try:
        common.git(git_dir, "archive", "--format=tar", "-o", "/dev/null", parent)
        return True
    except subprocess.CalledProcessError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("projects", nargs="+")
    ap.add_argument("--per-project", type=int, default=20)
    ap.add_argument("--since", default="2021-01-01")
    ap.add_argument("--mirrors", default="/work/.mirror")
    args = ap.parse_args()
    for project in args.projects:
        git_dir = common.mirror_dir(args.mirrors, project)
        if git_dir is None:
            sys.exit(f"no mirror of {project} under {args.mirrors}")
        kept = []
        for sha, parent, subject, changes in candidates(git_dir, args.since):
            right = keep(subject, changes)
            if right:
                kept.append((hashlib.sha256(sha.encode()).hexdigest(), sha, parent, right))
        kept.sort()
        drawn, passed = [], 0
        for entry in kept:
            if len(drawn) == args.per_project:
                break
            if archivable(git_dir, entry[2]):
                drawn.append(entry)
            else:
                passed += 1
        print(f"{project}: {len(kept)} commits qualify, {len(drawn)} drawn"
              + (f", {passed} passed over (parent tree incomplete in the mirror)" if passed else ""),
              file=sys.stderr)
        short = project.split("/")[1]
        for n, (_, sha, parent, right) in enumerate(drawn, 1):
            task = common.task_text(common.commit_message(git_dir, sha))
            print(json.dumps({
                "id": f"{short}-{n:02d}", "project": project, "commit": sha,
                "parent": parent, "right": sorted(right),
                "task_sha256": common.task_digest(task),
            }))


if __name__ == "__main__":
    main()
