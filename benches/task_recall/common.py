"""Shared rules of the task-recall bench: which files are source code, which
are tests/docs/generated, and how a commit message becomes the task text.

Both `pick_cases.py` (which chose the pinned cases) and `run.py` (which
measures them) import this, so the rules are written once."""

import hashlib
import os
import re
import subprocess

# Source code by extension (lowercase, without the dot). Shell scripts count:
# projects fix bugs in their completion scripts as in their code.
SOURCE_EXTS = {
    "py", "pyi", "pyx",
    "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte",
    "go", "rs",
    "c", "h", "cc", "cpp", "cxx", "hh", "hpp", "hxx", "m", "mm",
    "java", "kt", "kts", "scala", "cs", "swift", "rb", "php", "lua",
    "sh", "bash", "zsh", "fish", "pl", "pm", "ex", "exs", "erl", "hs",
    "ml", "mli", "zig", "dart", "r", "jl", "y", "l",
}

# A path with one of these folders is a test, benchmark, fixture, doc,
# example, vendored or generated file: never a "right file", and ranked as
# what it is by the source-only baseline (left out of it).
NON_SOURCE_DIRS = {
    "test", "tests", "testing", "__tests__", "__test__", "__mocks__", "spec",
    "specs", "testdata", "test-data", "test_data", "fixtures", "fixture",
    "regress", "e2e", "integration-tests", "bench", "benches", "benchmark",
    "benchmarks", "doc", "docs", "documentation", "example", "examples",
    "sample", "samples", "vendor", "third_party", "node_modules", "dist",
    "build", "generated", "__snapshots__", "snapshots",
}

NON_SOURCE_FILE = re.compile(
    r"(^test_.*\.py$|_test\.(py|go|rs|c|cc|cpp)$|^conftest\.py$"
    r"|\.(test|spec|bench|e2e)\.[a-z]+$|_spec\.rb$|Test\.java$|Tests?\.kt$"
    r"|\.pb\.go$|_pb2\.py$|\.generated\.|\.gen\.|_generated\.|\.min\.js$"
    r"|^changelog|^changes|^news|^history)",
    re.IGNORECASE,
)


def extension(path):
    base = os.path.basename(path)
    return base.rsplit(".", 1)[1].lower() if "." in base.lstrip(".") else ""


def is_source(path):
    """Source code by extension, not a test, doc, fixture, example, vendored
    or generated file."""
    if extension(path) not in SOURCE_EXTS:
        return False
    parts = path.lower().split("/")
    if any(p in NON_SOURCE_DIRS for p in parts[:-1]):
        return False
    return not NON_SOURCE_FILE.search(parts[-1])


TRAILER = re.compile(
    r"^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|"
    r"reported-by|suggested-by|change-id|cc|pr-url|pr-close):",
    re.IGNORECASE,
)


def task_text(message):
    """The task a case asks for: the commit message (subject and body) with
    trailers (Signed-off-by, Co-authored-by, ...) dropped, trailing blanks
    trimmed and at most 2,000 characters."""
    lines = [l.rstrip() for l in message.replace("\r\n", "\n").split("\n")]
    lines = [l for l in lines if not TRAILER.match(l.strip())]
    text = "\n".join(lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text[:2000].rstrip()


def task_digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def git(git_dir, *args, input_bytes=None):
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args],
        check=True, capture_output=True, input=input_bytes,
    ).stdout


def commit_message(git_dir, sha):
    return git(git_dir, "log", "-1", "--format=%B", sha).decode("utf-8", "replace")


def mirror_dir(mirrors, project):
    """The bare git dir of `owner/name` as the search tool's `fetch` lays
    it out (MIRRORS/owner+name/repo), or MIRRORS/owner+name(.git) itself."""
    base = os.path.join(mirrors, project.replace("/", "+"))
    for cand in (os.path.join(base, "repo"), base, base + ".git"):
        if os.path.isfile(os.path.join(cand, "HEAD")):
            return cand
    return None
