// swift-tools-version:6.0
import PackageDescription

// The runtime alone, as an iOS app gets it: its sources, its test support and its tests (links to
// the package's own folders), and nothing else: no C module, no other target but the budget search
// (SoundsetBudget: Foundation only, over the runtime) and its tests. `make test` builds it optimized
// with pkg-config finding none of the C libraries and runs those tests here (their exhaustive
// readings and searches take minutes unoptimized: the budget's brute-force comparisons alone took
// 52 CPU-s in the package's debug build, whose runtime is not optimized: an app adds it by version,
// and SwiftPM refuses a version dependency on unsafe flags); the package's own test run skips them.
//
// The runtime's tests themselves are compiled unoptimized but for the exhaustive one (every reading
// against the textbook's: SoundsetRuntimeExhaustiveTests; the budget's searches against brute force,
// SoundsetBudgetTests, stay optimized too), whose own loops are their cost:
// optimizing four thousand lines of #expect costs more than it saves (measured on a fresh clone:
// 45 CPU-s to compile them optimized, 2x the CPU to run the exhaustive ones unoptimized).
let unoptimized: [SwiftSetting] = [.unsafeFlags(["-Onone"])]
let exhaustive = ["ReadingAgainstTheTextbookTests.swift"]

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
            exclude: ["Vectors"] + exhaustive, swiftSettings: unoptimized),
        .testTarget(
            name: "SoundsetRuntimeExhaustiveTests", dependencies: ["SoundsetRuntime", "SoundsetRuntimeTestSupport"],
            path: "SoundsetRuntimeTests", sources: exhaustive),
    ],
    swiftLanguageModes: [.v6]
)
