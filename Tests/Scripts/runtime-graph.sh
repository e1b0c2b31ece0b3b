#!/usr/bin/env bash
# make test: in the package's own build, the runtime and its test support are compiled against each
# other alone. Reads, in the plan SwiftPM wrote for the build (its llbuild manifest), which modules
# each module is compiled against, follows them from the runtime's test support, and fails unless it
# finds the runtime's two modules and no C module map: an iOS app (and its simulator tests) gets
# SoundsetRuntime with Foundation and nothing else. (Tests/RuntimeAlone builds them, and the
# runtime's tests, in a package that has nothing else.)
# Usage: bash Tests/Scripts/runtime-graph.sh .build/debug.yaml
set -euo pipefail
manifest=$1
[ -f "$manifest" ] || { echo "$manifest: no build manifest (build first)"; exit 1; }
# One line per Swift module: "name: dependencies... | cmodules|none".
graph=$(awk '
  /^  "C\..*\.module":$/ { command = 1 }
  /^    inputs:/ { inputs = $0 }
  /^    args:/ && command {
    name = $0; sub(/.*"-module-name","/, "", name); sub(/".*/, "", name)
    count = split(inputs, items, ","); dependencies = ""
    for (i = 1; i <= count; i++) if (items[i] ~ /\.swiftmodule"/) {
      d = items[i]; sub(/.*Modules\//, "", d); sub(/\.swiftmodule".*/, "", d); dependencies = dependencies " " d
    }
    print name ":" dependencies " |" ($0 ~ /module\.modulemap/ ? "cmodules" : "none")
    command = 0
  }' "$manifest")
expected="SoundsetRuntime SoundsetRuntimeTestSupport"
found=""
todo="SoundsetRuntimeTestSupport"
while true; do
  set -- $todo
  [ $# -gt 0 ] || break
  module=$1; shift; todo="$*"
  case " $found " in *" $module "*) continue;; esac
  line=$(grep "^$module:" <<<"$graph" || true)
  [ -n "$line" ] || { echo "$manifest: no compile command for $module (has SwiftPM's manifest changed?)"; exit 1; }
  case "$line" in *"|cmodules") echo "$module is compiled with a C module map: the runtime must need no C library"; exit 1;; esac
  found="$found $module"
  dependencies=${line#*:}; todo="$todo ${dependencies% |*}"
done
found=$(tr ' ' '\n' <<<"$found" | sed '/^$/d' | sort | tr '\n' ' ')
[ "$found" = "$expected " ] || { echo "the runtime's test support is compiled against more than the runtime: $found"; exit 1; }
echo "the runtime and its test support are compiled against each other alone: $found"
