#!/usr/bin/env bash
# Task recall: how well `ctxcurate build --task-file F --budget N` finds the
# files a real commit changed, given only the commit's message, beside BM25
# baselines (every text file; source files only; the first 20 source
# files) in the same run. Not run by CI: numbers to compare by hand (a
# binary of an older commit beside this one).
#
# Cases: benches/task_recall/cases.jsonl, 100 real commits of scrapy/scrapy
# (Python), vuejs/core (TypeScript), caddyserver/caddy (Go),
# helix-editor/helix (Rust) and tmux/tmux (C), 20 each, chosen by
# benches/task_recall/pick_cases.py and pinned (project, commit, parent,
# right files, digest of the task text). The task is the commit's message,
# the tree its parent, the right files the non-test source files it changed.
#
# A held-out set, benches/task_recall/holdout.jsonl (--cases), pins 105
# commits of seven projects the ranking was not tuned on: pallets/flask
# (Python), colinhacks/zod and TanStack/query (TypeScript), spf13/cobra,
# gin-gonic/gin and junegunn/fzf (Go), sharkdp/bat (Rust), 15 each, chosen
# the same way. A change to the ranking should hold on both sets.
#
# The histories are not in this repository: each project's bare git dir is
# read from $TASK_RECALL_MIRRORS/owner+name/repo (default /work/.mirror, as
# the search tool's `fetch github:owner/name` lays it out; a plain
# `git clone --bare URL owner+name/repo` works too). Cases of a project
# without one are skipped with a note.
#
#   benches/task_recall.sh [BINARY] [--budgets 8000,32000,64000]
#       [--cases FILE] [--limit N] [--only ID,PROJECT,...] [--jobs 2]
#       [--verbose] [--json FILE]
#
# BINARY defaults to this checkout's release build (built if missing).
# --limit N runs the first N cases of each project; --only picks cases by
# id or project substring; --json writes every case's results; --verbose
# prints one line per case (held/right, what was missed, ctxcurate's first
# packed file, seconds, and where BM25 over source files ranked each right
# file). Each case's tree is written to a temp dir that is removed after;
# config and cache go to a temp XDG dir shared by the run. Needs python3,
# git and tar.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin=""
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  bin=$1
  shift
fi
if [ -z "$bin" ]; then
  (cd "$here/.." && cargo build --release --quiet)
  bin="$here/../target/release/ctxcurate"
fi
exec python3 "$here/task_recall/run.py" "$bin" "$@"
