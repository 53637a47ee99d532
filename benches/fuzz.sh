#!/usr/bin/env bash
# Runs each cargo-fuzz target of fuzz/ for a given time (issue 37), one
# after the other on one core, and prints per target the runs made, the
# corpus it ended with and any crash (kept in fuzz/artifacts/TARGET/).
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`);
# not part of the tests or CI.
#
#   benches/fuzz.sh [SECONDS] [TARGET…]
#
# SECONDS defaults to 60; without TARGETs every target runs;
# FUZZ_MAX_LEN (16384) caps an input, FUZZ_TIMEOUT (10) the seconds one
# input may take (raise it on a loaded machine: a parse stopped at its
# memory bound runs several times slower under ASan and load), CTXCURATE_PARSE_TIMEOUT (1) the
# parse deadline in seconds (an input that meets it costs that much). The corpus
# starts from the seeds in fuzz/corpus/TARGET/seed-* (small real files:
# the stdlib, /usr/include, the embedded config) and, for `views`, from
# the syntax tests' own fixtures (src/core/syntax/tests/fixtures), each
# prefixed here with the byte that picks its language — no copies kept;
# a run adds to it (ignored by git). A crash becomes a regression test in
# the normal suite (the bottom of tests/integration/core/fuzz_props.rs).
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list --fuzz-dir .)
fi

# The views target's first byte picks the file name from its PATHS list
# (fuzz_targets/views.rs); the fixtures get theirs by extension.
langs=(py c cpp rs ts tsx js go java cs sh php kt swift rb lua md txt)
mkdir -p corpus/views
for fixture in ../src/core/syntax/tests/fixtures/*; do
  ext=${fixture##*.}
  for i in "${!langs[@]}"; do
    if [ "${langs[$i]}" = "$ext" ]; then
      { printf "\\$(printf '%03o' "$i")"; cat "$fixture"; } >"corpus/views/fixture-${fixture##*/}"
    fi
  done
done
# Built once, then each target's binary run directly: `cargo fuzz run`
# builds again whenever a source changed, which took a run's time.
cargo +nightly fuzz build --fuzz-dir . || exit 1
printf '%-14s %12s %10s %8s  %s\n' target runs exec/s corpus crash
for t in "${targets[@]}"; do
  log=$(mktemp)
  mkdir -p "corpus/$t" "artifacts/$t"
  # The parse deadline keeps one input under a second; -timeout catches
  # anything slower, -rss_limit_mb memory past the documented bound.
  # Two tree-sitter grammars (Markdown's block and inline parsers) each
  # define a C global `map`: ASan's ODR check stops every target at start
  # on it, so it is off. Leak detection is off too: the parsers and rule
  # sets kept per thread and per process look like leaks, and libFuzzer
  # ran each such input again to trace them (a seventh of the time).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0} \
  CTXCURATE_PARSE_TIMEOUT=${CTXCURATE_PARSE_TIMEOUT:-1} \
    "target/x86_64-unknown-linux-gnu/release/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=3072 -max_len="${FUZZ_MAX_LEN:-16384}" \
    -detect_leaks=0 -print_final_stats=1 >"$log" 2>&1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  corpus=$(find "corpus/$t" -type f | wc -l)
  crash=$(grep -o 'Test unit written to [^ ]*' "$log" | sed 's/Test unit written to //' | tail -1)
  if [ -z "$crash" ] && grep -q 'ERROR: libFuzzer\|panicked at' "$log"; then
    crash="see $log"
  fi
  printf '%-14s %12s %10s %8s  %s\n' "$t" "${runs:-?}" "${speed:-?}" "$corpus" "${crash:-none}"
  [ -n "$crash" ] || rm -f "$log"
done
