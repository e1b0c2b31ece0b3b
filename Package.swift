// swift-tools-version:6.0
import PackageDescription

// Layers point one way, each a module over the ones below it (Tests/SoundsetCLITests/
// PackageLayeringTests.swift holds every import to them):
//   soundset (executable, main.swift) -> SoundsetCLI (arguments, commands, signals and the exit)
//   -> SoundsetCheck (`soundset check` of a set's folder, which derives the set again through the build)
//   -> SoundsetBuild (the pipeline: catalog, stages, processing, the memo)
//   -> SoundsetReport (the page: a leaf drawn from the set and its findings; no assets, memo or preparer)
//   -> SoundsetFindings (the configuration, and what a build finds: clip facts and notes, the check's report)
//   -> SoundsetSetFolder (the output folder: staging, locks, the exchange, manifest files, integrity,
//      the interruption; and the problems every layer says) -> SoundsetAudio -> C modules.
// (SoundsetSetFolder reaches one C module itself, CSystem: a header of system calls, no library.)
// `soundset serve`: SoundsetCLI -> SoundsetMicroHTTPD (the HTTP front, the one user of CMicroHTTPD)
// -> SoundsetServe (routing, cache, the set's reload, composition: no socket, no C module of its own)
// -> SoundsetSetFolder (the set's swap lock, read under), SoundsetAudio: not the build.
// SoundsetRuntime is what an iOS app imports: it depends on Foundation only. SoundsetBudget (the exact
// worst-case search the check runs) is Foundation only too, over the runtime, and no app links it.
// The DSP (SoundsetAudio) runs 10-50x slower unoptimized, and the tests build sets through the debug
// tool: it is optimized in debug builds too. Not the runtime: SwiftPM refuses a version dependency
// on a product any of whose targets has unsafe flags ("contains unsafe build flags"), and an app adds
// SoundsetRuntime by version (Tests/Scripts/by-version.sh holds it; the runtime's own tests run
// against it optimized in Tests/RuntimeAlone). No target of SoundsetRuntime's may carry them.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "soundset",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .library(name: "SoundsetRuntime", targets: ["SoundsetRuntime"]),
        .executable(name: "soundset", targets: ["soundset"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CSampleRate", pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"]), .brew(["libsamplerate"])]),
        .systemLibrary(
            name: "CEBUR128", pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"]), .brew(["libebur128"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CRubberBand", pkgConfig: "rubberband",
            providers: [.apt(["librubberband-dev"]), .brew(["rubberband"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // libmp3lame ships no pkg-config file (Debian's, Homebrew's): found by its header and library.
        .systemLibrary(name: "CLame", providers: [.apt(["libmp3lame-dev"]), .brew(["lame"])]),
        // Header-only: system calls Swift cannot make itself (see its shim.h).
        .systemLibrary(name: "CSystem"),

        .target(name: "SoundsetRuntime"),
        .target(name: "SoundsetBudget", dependencies: ["SoundsetRuntime"]),
        .target(
            name: "SoundsetAudio", dependencies: ["CSndFile", "CSampleRate", "CEBUR128", "CCrypto", "CRubberBand", "CLame", "SoundsetRuntime"],
            swiftSettings: optimizedInDebug),
        .target(name: "SoundsetSetFolder", dependencies: ["SoundsetAudio", "SoundsetRuntime", "CSystem"]),
        .target(name: "SoundsetFindings", dependencies: ["SoundsetSetFolder", "SoundsetAudio", "SoundsetRuntime"]),
        .target(name: "SoundsetReport", dependencies: ["SoundsetFindings", "SoundsetSetFolder", "SoundsetAudio", "SoundsetRuntime"]),
        .target(
            name: "SoundsetBuild",
            dependencies: ["SoundsetReport", "SoundsetFindings", "SoundsetSetFolder", "SoundsetAudio", "SoundsetRuntime", "SoundsetBudget"]),
        .target(
            name: "SoundsetCheck",
            dependencies: ["SoundsetBuild", "SoundsetReport", "SoundsetFindings", "SoundsetSetFolder", "SoundsetAudio", "SoundsetRuntime"]),
        .target(name: "SoundsetServe", dependencies: ["SoundsetSetFolder", "SoundsetAudio", "SoundsetRuntime"]),
        .target(name: "SoundsetMicroHTTPD", dependencies: ["SoundsetServe", "CMicroHTTPD"]),
        .target(
            name: "SoundsetCLI",
            dependencies: [
                "SoundsetCheck", "SoundsetBuild", "SoundsetReport", "SoundsetFindings", "SoundsetSetFolder", "SoundsetRuntime", "SoundsetServe",
                "SoundsetMicroHTTPD", "CSystem",
            ]),
        .executableTarget(name: "soundset", dependencies: ["SoundsetCLI"]),

        // The runtime's tests need nothing but the runtime, as an iOS simulator would run them: they
        // are Tests/RuntimeAlone's (a package of the runtime and its tests alone; make test runs them
        // there, against the runtime optimized), and only their support, which the command's tests use too, is here. So
        // are the budget search's (SoundsetBudgetTests: Foundation only, and its brute-force
        // comparisons call the runtime's readings millions of times, 52 CPU-s here unoptimized).
        .target(name: "SoundsetRuntimeTestSupport", dependencies: ["SoundsetRuntime"], path: "Tests/SoundsetRuntimeTestSupport"),
        .target(
            name: "SoundsetTestSupport", dependencies: ["SoundsetAudio", "SoundsetRuntime", "SoundsetRuntimeTestSupport", "CSndFile"],
            path: "Tests/SoundsetTestSupport"),
        .testTarget(name: "SoundsetAudioTests", dependencies: ["SoundsetAudio", "SoundsetTestSupport"]),
        .testTarget(name: "SoundsetFindingsTests", dependencies: ["SoundsetFindings", "SoundsetTestSupport"]),
        .testTarget(
            name: "SoundsetBuildTests",
            dependencies: ["SoundsetCheck", "SoundsetBuild", "SoundsetReport", "SoundsetFindings", "SoundsetSetFolder", "SoundsetTestSupport"]),
        .testTarget(
            name: "SoundsetServeTests",
            dependencies: ["SoundsetServe", "SoundsetMicroHTTPD", "SoundsetAudio", "SoundsetTestSupport", "SoundsetRuntimeTestSupport"]),
        .testTarget(name: "SoundsetCLITests", dependencies: ["SoundsetCLI", "SoundsetTestSupport", "SoundsetRuntimeTestSupport", "SoundsetRuntime"]),
    ],
    swiftLanguageModes: [.v6]
)
