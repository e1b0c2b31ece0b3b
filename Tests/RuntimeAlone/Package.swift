// swift-tools-version:6.0
import PackageDescription

// The runtime alone, as an iOS app gets it: its sources, its test support and its tests (links to
// the package's own folders), and nothing else: no C module, no other target. `make test` builds it
// optimized with pkg-config finding none of the C libraries and runs the runtime's tests here (their
// exhaustive readings and searches take minutes unoptimized); the package's own test run skips them.
let package = Package(
    name: "RuntimeAlone",
    platforms: [.macOS(.v13), .iOS(.v15)],
    targets: [
        .target(name: "SoundsetRuntime", path: "SoundsetRuntime"),
        .target(name: "SoundsetRuntimeTestSupport", dependencies: ["SoundsetRuntime"], path: "SoundsetRuntimeTestSupport"),
        .testTarget(
            name: "SoundsetRuntimeTests", dependencies: ["SoundsetRuntime", "SoundsetRuntimeTestSupport"], path: "SoundsetRuntimeTests",
            exclude: ["Vectors"]),
    ],
    swiftLanguageModes: [.v6]
)
