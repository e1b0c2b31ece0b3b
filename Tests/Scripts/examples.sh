#!/usr/bin/env bash
# make examples: compiles Examples/ (the iOS app's and the Notification Service Extension's code) in
# Swift 6 language mode with warnings as errors.
#
# On a Mac: against the real iOS SDK (xcrun --sdk iphonesimulator, arm64-apple-ios15.0-simulator),
# with SoundsetRuntime compiled from its sources for the simulator; the extension's files with
# -application-extension, as Xcode builds an extension. Nothing runs there (no simulator needed).
#
# On Linux: against SoundsetRuntime and Tests/ExamplesStubs: the Apple APIs the Examples use
# (UserNotifications, UIKit's background tasks, os.Logger, FileManager.containerURL,
# ProcessInfo.performExpiringActivity), declared with Apple's documented signatures over small
# recording fakes that behave as iOS does where it matters (a 0 s trigger stops the process; an
# expiring activity can be refused or expire meanwhile; an app in the background is suspended when
# its last background task ends). Then it runs them (Tests/ExamplesStubs/Checks): the app's launch
# and install (APP_RUNS times: each run reads the install's log line once its background task has
# ended, the step that once read it before the app wrote it), and the extension on pushes with the
# demo set, and on a chain with the set made to chain.
#
# Last, on both, it shows the check can fail: the Examples against a runtime whose
# PushPayload.request(from:arrival:) is renamed must not compile.
# Usage: bash Tests/Scripts/examples.sh [SWIFT [BUILD_FLAGS...]]
#   BUILD_FLAGS: the flags make test builds the package with (-Xswiftc ...), so that the runtime it
#   builds here is the one already built, not compiled again.
set -euo pipefail
swift=${1:-swift}
shift || true
build_flags=("$@")
# Without them, the Makefile's TEST_FLAGS (keep the two the same).
[ ${#build_flags[@]} -gt 0 ] || build_flags=(-Xswiftc -warnings-as-errors -Xswiftc -gline-tables-only)
app_runs=${APP_RUNS:-60}
out=.build/examples
flags=(-swift-version 6 -warnings-as-errors -parse-as-library)
payload=Sources/SoundsetRuntime/Announce/PushPayload.swift

# The runtime's sources with PushPayload.request(from:arrival:) renamed, in $out/renamed.
rename_runtime() {
  mkdir -p "$out/renamed"
  sed 's/request(from\([: ]\)/requestRenamed(from\1/g' "$payload" > "$out/renamed/PushPayload.swift"
  if cmp -s "$payload" "$out/renamed/PushPayload.swift"; then
    echo "examples.sh: PushPayload.request(from:arrival:) was not found to rename; update this script"; exit 1
  fi
  # (No mapfile: a Mac's bash is 3.2.)
  renamed=()
  while IFS= read -r file; do renamed+=("$file"); done < <(find Sources/SoundsetRuntime -name '*.swift' ! -path "$payload" | sort)
  renamed+=("$out/renamed/PushPayload.swift")
}

# The extension's files must not compile against the renamed runtime (its module in $1), and fail
# in the Examples, not elsewhere. The rest of the arguments go to swiftc.
expect_broken() {
  local module=$1; shift
  if "$@" -typecheck "${flags[@]}" -I "$module" Examples/Shared/*.swift Examples/NotificationService/*.swift 2> "$out/renamed.log"; then
    echo "examples.sh: the Examples compile against a runtime without PushPayload.request(from:arrival:): the check checks nothing"; exit 1
  fi
  grep -q "^Examples/.*error:" "$out/renamed.log" || grep -q "/Examples/.*error:" "$out/renamed.log" || {
    echo "examples.sh: the renamed runtime failed for another reason:"; cat "$out/renamed.log"; exit 1; }
  echo "and a runtime with PushPayload.request(from:arrival:) renamed breaks them, as it should"
}

if [ "$(uname -s)" = Darwin ]; then
  # The real SDK: what Xcode compiles the Examples against. (Written for a Mac with Xcode 16 or
  # later, and not yet run on one; the Linux run below checks behaviour, this one the SDK's actual
  # declarations.) The runtime is compiled as the extension links it: extension-safe API only.
  command -v xcrun >/dev/null 2>&1 && xcrun --sdk iphonesimulator --show-sdk-path >/dev/null 2>&1 || {
    echo "make examples: on a Mac it type-checks Examples/ against the iOS SDK: install Xcode (xcode-select --install is not enough) and run sudo xcode-select -s /Applications/Xcode.app"; exit 1; }
  ios=(xcrun --sdk iphonesimulator swiftc -target arm64-apple-ios15.0-simulator)
  rm -rf "$out"
  mkdir -p "$out/ios"
  runtime=()
  while IFS= read -r file; do runtime+=("$file"); done < <(find Sources/SoundsetRuntime -name '*.swift' | sort)
  "${ios[@]}" -emit-module -application-extension -module-name SoundsetRuntime -package-name soundset "${flags[@]}" \
    -emit-module-path "$out/ios/SoundsetRuntime.swiftmodule" "${runtime[@]}"
  "${ios[@]}" -typecheck "${flags[@]}" -I "$out/ios" Examples/Shared/*.swift Examples/App/*.swift
  "${ios[@]}" -typecheck -application-extension "${flags[@]}" -I "$out/ios" Examples/Shared/*.swift Examples/NotificationService/*.swift
  echo "Examples/ type-checks in Swift 6 mode with warnings as errors against the iOS SDK ($(xcrun --sdk iphonesimulator --show-sdk-version)) and SoundsetRuntime built for it"
  rename_runtime
  "${ios[@]}" -emit-module -wmo -module-name SoundsetRuntime -package-name soundset "${flags[@]}" -experimental-skip-non-inlinable-function-bodies \
    -emit-module-path "$out/renamed/SoundsetRuntime.swiftmodule" "${renamed[@]}"
  expect_broken "$out/renamed" "${ios[@]}" -application-extension
  exit 0
fi

out=.build/examples
rm -rf "$out"
mkdir -p "$out/stubs" "$out/bin"

# The runtime as the tests build it (a no-op after make test's own build).
"$swift" build --no-color-diagnostics --target SoundsetRuntime "${build_flags[@]}" >/dev/null
bin=$("$swift" build --no-color-diagnostics --show-bin-path)
runtime_objects=("$bin"/SoundsetRuntime.build/*.o)

stub() { # module name: a module and a static library
  (cd "$out/stubs" && swiftc -emit-library -static -emit-module -module-name "$1" "${flags[@]}" -I . \
    "$OLDPWD/Tests/ExamplesStubs/$1.swift")
}
stub FoundationAppleAdditions
for module in UserNotifications UIKit os; do stub "$module"; done
libraries=(-L "$out/stubs" -lUserNotifications -lUIKit -los -lFoundationAppleAdditions)

# Each target on its own, as Xcode builds them, with its check; the demo set beside the program is
# the app's bundle as the extension finds it: the default voice's set (Output/voices/zh-CN), other
# voices coming as packs.
set=Output/voices/zh-CN
mkdir -p "$out/bin/Output"
cp -r "$set/manifest.json" "$set/Sounds" "$out/bin/Output/"
swiftc "${flags[@]}" -I "$out/stubs" -I "$bin/Modules" Examples/Shared/*.swift Examples/App/*.swift Tests/ExamplesStubs/Checks/AppCheck.swift \
  "${runtime_objects[@]}" "${libraries[@]}" -o "$out/bin/app-check"
swiftc "${flags[@]}" -I "$out/stubs" -I "$bin/Modules" Examples/Shared/*.swift Examples/NotificationService/*.swift \
  Tests/ExamplesStubs/Checks/ExtensionCheck.swift "${runtime_objects[@]}" "${libraries[@]}" -o "$out/bin/extension-check"
echo "Examples/ compiles in Swift 6 mode with warnings as errors against SoundsetRuntime and Tests/ExamplesStubs"
"$out/bin/extension-check"

# The app's launch, many times: each run must read the install's line once its background task
# ended (it is logged inside the task). A check that read it before the app wrote it failed about
# one run in twenty here, one in two on a busy machine.
failures=0
for _ in $(seq "$app_runs"); do
  "$out/bin/app-check" > "$out/app-check.log" || { failures=$((failures + 1)); cp "$out/app-check.log" "$out/app-check.failed.log"; }
done
if [ "$failures" != 0 ]; then
  echo "examples: the app example failed $failures of $app_runs runs:"; cat "$out/app-check.failed.log"; exit 1
fi
echo "$(cat "$out/app-check.log") ($app_runs runs)"

# A set that chains: every notification added with a trigger over 0 s.
mkdir -p "$out/bin/chain/Output"
cp -r "$set/Sounds" "$out/bin/chain/Output/"
sed 's/"delivery" : "composed"/"delivery" : "chain"/' "$set/manifest.json" > "$out/bin/chain/Output/manifest.json"
if cmp -s "$set/manifest.json" "$out/bin/chain/Output/manifest.json"; then
  echo "examples.sh: the demo manifest's \"delivery\" : \"composed\" was not found; update this script"; exit 1
fi
cp "$out/bin/extension-check" "$out/bin/chain/"
"$out/bin/chain/extension-check" chain

# The fake stops the process on a 0 s trigger, as iOS does: an Example that made one fails the run.
if ("$out/bin/extension-check" zero-trigger; exit $?) > "$out/zero-trigger.log" 2>&1; then
  echo "examples.sh: a 0 s UNTimeIntervalNotificationTrigger did not stop the process:"; cat "$out/zero-trigger.log"; exit 1
fi
grep -q "time interval must be greater than 0" "$out/zero-trigger.log" || {
  echo "examples.sh: a 0 s trigger stopped the process for another reason:"; cat "$out/zero-trigger.log"; exit 1; }
echo "and a 0 s notification trigger stops the process, as on iOS"

# A renamed runtime API breaks them (the runtime's interface alone, in one frontend (-wmo: a job per
# file parses the module once per file, 6.5 CPU-s instead of 3): seconds, not a build).
rename_runtime
swiftc -emit-module -wmo -module-name SoundsetRuntime -package-name soundset "${flags[@]}" -experimental-skip-non-inlinable-function-bodies \
  -emit-module-path "$out/renamed/SoundsetRuntime.swiftmodule" "${renamed[@]}"
expect_broken "$out/stubs" swiftc -I "$out/renamed"
