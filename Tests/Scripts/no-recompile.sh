#!/usr/bin/env bash
# make test's last step: a swift build with nothing to do compiles nothing, whether its output is a
# terminal or a pipe. (SwiftPM adds -color-diagnostics to every compiler command on a terminal, so
# without --no-color-diagnostics switching between the two recompiled every module.)
# Runs COMMAND... (a build make test has just done) under a pseudo-terminal, then through a pipe,
# and fails, naming the first modules, when either compiles anything.
# Usage: bash Tests/Scripts/no-recompile.sh COMMAND...
set -euo pipefail
command="$*"
on_terminal() {
  # util-linux script(1) takes the command with -c; BSD's (macOS) takes it after the file.
  if script --version >/dev/null 2>&1; then
    script -qec "$command" /dev/null
  else
    script -q /dev/null sh -c "$command"
  fi
}
for where in terminal pipe; do
  start=$(date +%s)
  if [ "$where" = terminal ]; then
    output=$(on_terminal 2>&1 </dev/null)
  else
    output=$(sh -c "$command" 2>&1 </dev/null | cat)
  fi
  if grep -q "Compiling" <<<"$output"; then
    echo "with its output on a $where, the build compiled again:"
    grep -o "Compiling [A-Za-z]*" <<<"$output" | sort -u | head -5
    exit 1
  fi
  echo "nothing compiled again with the output on a $where ($(($(date +%s) - start)) s): $command"
done
