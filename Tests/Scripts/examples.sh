#!/usr/bin/env bash
# make examples: compiles Examples/ (the iOS app's and the Notification Service Extension's code) in
# Swift 6 language mode with warnings as errors, against SoundsetRuntime and Tests/ExamplesStubs:
# the Apple APIs the Examples use (UserNotifications, UIKit's background tasks, os.Logger,
# FileManager.containerURL, ProcessInfo.performExpiringActivity), declared with Apple's documented
# signatures over small recording fakes. Then it runs them (Tests/ExamplesStubs/Checks): the app's
# launch and install, and the extension on two pushes with the demo set. Last, it shows the check
# can fail: the Examples against a runtime whose PushPayload.request(from:arrival:) is renamed must
# not compile.
# Usage: bash Tests/Scripts/examples.sh [SWIFT]
set -euo pipefail
swift=${1:-swift}
if [ "$(uname -s)" = Darwin ]; then
  echo "make examples: Tests/ExamplesStubs stand in for the iOS SDK on Linux only; on a Mac, build Examples/ in Xcode"; exit 0
fi
out=.build/examples
rm -rf "$out"
mkdir -p "$out/stubs" "$out/bin" "$out/renamed"
flags=(-swift-version 6 -warnings-as-errors -parse-as-library)

# The runtime as the tests build it (a no-op after make test's own build).
"$swift" build --no-color-diagnostics --target SoundsetRuntime -Xswiftc -warnings-as-errors >/dev/null
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
# the app's bundle as the extension finds it.
mkdir -p "$out/bin/Output"
cp -r Output/manifest.json Output/Sounds "$out/bin/Output/"
swiftc "${flags[@]}" -I "$out/stubs" -I "$bin/Modules" Examples/Shared/*.swift Examples/App/*.swift Tests/ExamplesStubs/Checks/AppCheck.swift \
  "${runtime_objects[@]}" "${libraries[@]}" -o "$out/bin/app-check"
swiftc "${flags[@]}" -I "$out/stubs" -I "$bin/Modules" Examples/Shared/*.swift Examples/NotificationService/*.swift \
  Tests/ExamplesStubs/Checks/ExtensionCheck.swift "${runtime_objects[@]}" "${libraries[@]}" -o "$out/bin/extension-check"
echo "Examples/ compiles in Swift 6 mode with warnings as errors against SoundsetRuntime and Tests/ExamplesStubs"
"$out/bin/app-check"
"$out/bin/extension-check"

# A renamed runtime API breaks them (the runtime's interface alone: seconds, not a build).
payload=Sources/SoundsetRuntime/Announce/PushPayload.swift
sed 's/request(from\([: ]\)/requestRenamed(from\1/g' "$payload" > "$out/renamed/PushPayload.swift"
if cmp -s "$payload" "$out/renamed/PushPayload.swift"; then
  echo "examples.sh: PushPayload.request(from:arrival:) was not found to rename; update this script"; exit 1
fi
mapfile -t renamed < <(find Sources/SoundsetRuntime -name '*.swift' ! -path "$payload" | sort)
swiftc -emit-module -module-name SoundsetRuntime -package-name soundset "${flags[@]}" -experimental-skip-non-inlinable-function-bodies \
  -emit-module-path "$out/renamed/SoundsetRuntime.swiftmodule" "${renamed[@]}" "$out/renamed/PushPayload.swift"
if swiftc -typecheck "${flags[@]}" -I "$out/stubs" -I "$out/renamed" Examples/Shared/*.swift Examples/NotificationService/*.swift \
  2> "$out/renamed.log"; then
  echo "examples.sh: the Examples compile against a runtime without PushPayload.request(from:arrival:): the check checks nothing"; exit 1
fi
grep -q "^Examples/.*error:" "$out/renamed.log" || { echo "examples.sh: the renamed runtime failed for another reason:"; cat "$out/renamed.log"; exit 1; }
echo "and a runtime with PushPayload.request(from:arrival:) renamed breaks them, as it should"
