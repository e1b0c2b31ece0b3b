#!/usr/bin/env bash
# make test: an app adds SoundsetRuntime by version, and builds it with none of the C libraries.
# SwiftPM refuses a version dependency on a product any of whose targets (the product's own and
# every target they depend on) has unsafe flags ("contains unsafe build flags"), and a path or
# branch dependency hides that. So: the package's manifest and the folders its targets live in
# (Sources, Tests) are copied into a new git repository in a temporary folder and tagged with the
# tool's version (ToolVersion.current: the tag a release gets, see docs/ios.md); a consumer package
# depends on that repository `from:` the tag and uses the SoundsetRuntime product; it is resolved
# and built with pkg-config finding none of the C libraries, and run: it plans and composes an
# amount from the committed demo's default voice (Output/voices/zh-CN). Needs git and no network (the repository is a local path), and
# no tag in this clone (the tag is made in the copy).
# Usage: bash Tests/Scripts/by-version.sh [SWIFT]
set -euo pipefail
swift=${1:-swift}
root=$(pwd)
start=$SECONDS
version=$(sed -n 's/.*static let current = "\([0-9][0-9.]*\)".*/\1/p' Sources/SoundsetFindings/ToolVersion.swift)
[ -n "$version" ] || { echo "Sources/SoundsetFindings/ToolVersion.swift: no version found"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/soundset-by-version.XXXXXX")
trap 'rm -rf "$work"' EXIT
repo=$work/soundset
mkdir -p "$repo"
cp -R Package.swift Sources Tests "$repo/"
git_quiet() { git -C "$repo" -c init.defaultBranch=main -c user.name=soundset -c user.email=soundset@example.invalid -c commit.gpgsign=false -c tag.gpgsign=false "$@" >/dev/null; }
git_quiet init -q
git_quiet add -A
git_quiet commit -q -m "soundset $version"
git_quiet tag "$version"

consumer=$work/Consumer
mkdir -p "$consumer/Sources/Consumer"
cat > "$consumer/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13), .iOS(.v15)],
    dependencies: [.package(url: "$repo", from: "$version")],
    targets: [.executableTarget(name: "Consumer", dependencies: [.product(name: "SoundsetRuntime", package: "soundset")])]
)
EOF
cat > "$consumer/Sources/Consumer/main.swift" <<'EOF'
import Foundation
import SoundsetRuntime

// Usage: Consumer SET_FOLDER AMOUNT
let set = try SoundSet(folder: URL(fileURLWithPath: CommandLine.arguments[1]))
let amount = try Amount(CommandLine.arguments[2])
let plan = try Planner(manifest: set.manifest).plan(amount)
let sound = try Composer.compose(plan, manifest: set.manifest, soundsFolder: set.soundsFolder)
print("\(amount): \(plan.clips.joined(separator: " ")), \(sound.count) bytes")
EOF

# No shared cache (of repositories or manifests): the run leaves nothing behind the temporary folder.
options=(--package-path "$consumer" --scratch-path "$consumer/.build" --disable-dependency-cache --manifest-cache local --no-color-diagnostics)
if ! output=$(PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= "$swift" build "${options[@]}" 2>&1); then
  echo "a package that depends on soundset from: \"$version\" (a local tag) does not build SoundsetRuntime:"
  grep -E "error|unsafe" <<<"$output" | head -10
  exit 1
fi
# pkg-config is asked only for a C module being built: none may be.
if grep -qiE "sndfile|samplerate|ebur128|libcrypto|rubberband|microhttpd|pkg-config|warning:" <<<"$output"; then
  echo "building SoundsetRuntime by version mentioned a C library or warned:"
  grep -iE "sndfile|samplerate|ebur128|libcrypto|rubberband|microhttpd|pkg-config|warning:" <<<"$output" | head -10
  exit 1
fi
# Resolved by its tag, as an app's Package.resolved records a version dependency.
grep -q "\"version\" : \"$version\"" "$consumer/Package.resolved" || {
  echo "the consumer did not resolve soundset to its tag $version:"; cat "$consumer/Package.resolved"; exit 1; }
binary=$("$swift" build "${options[@]}" --show-bin-path)/Consumer
said=$("$binary" "$root/Output/voices/zh-CN" 123.45)
case "$said" in
  "123.45: "*" bytes") ;;
  *) echo "the consumer built against soundset $version said: $said"; exit 1;;
esac
echo "a package depending on soundset from: \"$version\" (a local tag) built SoundsetRuntime with no C library and said \"$said\" ($((SECONDS - start)) s)"
