// swift-tools-version:6.0
import PackageDescription

// The runtime alone, as an iOS app gets it: its sources, its test support and its tests (links to
// the package's own folders), and nothing else: no C module, no other target but the budget search
// (SoundsetBudget: Foundation only, over the runtime) and its tests. `make test` builds it optimized
// with pkg-config finding none of the C libraries and runs those tests here (their exhaustive
// readings and searches take minutes unoptimized: the budget's brute-force comparisons alone took
// 52 CPU-s in the package's debug build, whose runtime is not optimized: an app adds it by version,
// and SwiftPM refuses a version dependency on unsafe flags); the package's own test run skips them.
let package = Package(
    name: "RuntimeAlone",
    platforms: [.macOS(.v13), .iOS(.v15)],
    targets: [
        .target(name: "SoundsetRuntime", path: "SoundsetRuntime"),
        .target(name: "SoundsetRuntimeTestSupport", dependencies: ["SoundsetRuntime"], path: "SoundsetRuntimeTestSupport"),
        .target(name: "SoundsetBudget", dependencies: ["SoundsetRuntime"], path: "SoundsetBudget"),
        .testTarget(
            name: "SoundsetBudgetTests", dependencies: ["SoundsetBudget", "SoundsetRuntime", "SoundsetRuntimeTestSupport"],
            path: "SoundsetBudgetTests"),
        .testTarget(
            name: "SoundsetRuntimeTests", dependencies: ["SoundsetRuntime", "SoundsetRuntimeTestSupport"], path: "SoundsetRuntimeTests",
            exclude: ["Vectors"]),
    ],
    swiftLanguageModes: [.v6]
)
