// swift-tools-version:6.0
import PackageDescription

// The runtime alone, as an iOS app gets it: its sources, its test support and its tests (links to
// the package's own folders), and nothing else: no C module, no other target. `make test` builds it
// with pkg-config finding none of the C libraries and runs the runtime's tests here; the package's
// own test run skips them. The runtime is optimized in every configuration (their exhaustive
// readings and searches take minutes unoptimized), its tests compiled for debugging (a release
// build of them cost more than their run saved).
let package = Package(
    name: "RuntimeAlone",
    platforms: [.macOS(.v13), .iOS(.v15)],
    targets: [
        .target(name: "SoundsetRuntime", path: "SoundsetRuntime", swiftSettings: [.unsafeFlags(["-O"])]),
        .target(name: "SoundsetRuntimeTestSupport", dependencies: ["SoundsetRuntime"], path: "SoundsetRuntimeTestSupport"),
        .testTarget(
            name: "SoundsetRuntimeTests", dependencies: ["SoundsetRuntime", "SoundsetRuntimeTestSupport"], path: "SoundsetRuntimeTests",
            exclude: ["Vectors"]),
    ],
    swiftLanguageModes: [.v6]
)
