#!/usr/bin/env bash
# make test's steps print a summary when they pass and everything that matters when they fail.
# Runs COMMAND..., its whole output kept in .build/test-logs/NAME.log. When it succeeds, prints only
# its summary: SwiftPM's last build line, each Swift Testing suite's line and the run's line (one
# line a suite instead of one a test). When it fails, prints its output without the lines of tests
# that passed or that started and finished (every failure in full, with the build's errors, and the
# test that was running when the process died), then the log's path.
# VERBOSE=1 prints everything as it comes.
# Usage: bash Tests/Scripts/quietly.sh NAME COMMAND...
set -uo pipefail
name=$1
shift
if [ -n "${VERBOSE:-}" ]; then exec "$@"; fi
mkdir -p .build/test-logs
log=.build/test-logs/$name.log
"$@" >"$log" 2>&1
status=$?
# Swift Testing's lines begin with a symbol: ◇ started, ✔ passed, ✘ failed, ↳ a detail.
if [ "$status" = 0 ]; then
  grep -E '^(Build complete|✔ Suite )|Test run with' "$log" | sed "s/^/$name: /"
  echo "$name: passed (the whole output: $log)"
else
  # A test that started and never finished (its process died under it) keeps its start line.
  awk 'NR == FNR { if (($1 == "✔" || $1 == "✘") && $2 == "Test") done[$3] = 1; next }
    $1 == "◇" && $2 == "Test" { if (!($3 in done)) print; next }
    /Test run with/ || !(($1 == "✔" && $2 == "Test") || /^\[[0-9]+\/[0-9]+\] /)' "$log" "$log"
  echo "$name: FAILED (exit $status); the whole output: $log"
fi
exit "$status"
