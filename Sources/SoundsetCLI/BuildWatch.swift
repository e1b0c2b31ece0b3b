import Foundation
import SoundsetBuild
import SoundsetSetFolder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `soundset build --watch`: builds, then builds again whenever the assets folder changes, until
/// Ctrl-C. Polls with stat(2) (`AssetsFingerprint`), so it works wherever the build does; a change
/// is built once the folder has stayed unchanged for half a second (and two polls), so a take still
/// being copied in is not built half-written. Each build is the ordinary incremental one, and its
/// report reloads itself every second. Ctrl-C lets the build under way finish, writes the report
/// once more without the reload, and ends with exit 0; a second Ctrl-C ends at once, as a build
/// does (its staging folder removed; the report may then still reload, until the next build
/// writes it again).
struct BuildWatch {
    var options: BuildOptions
    var printing: BuildCommand.Printing
    var interval: Duration
    /// Ends the process at once (a second Ctrl-C): main's.
    var exitAtOnce: @Sendable (Int32) -> Never

    func run() async -> Int32 {
        let console = printing.console
        let stop = StopRequest.install(watching: true, output: options.outputDisplay, console: console, exitAtOnce: exitAtOnce)
        console.err("soundset: watching \(options.assetsDisplay) for changes (Ctrl-C to stop)")
        var seen = AssetsFingerprint.of(options.assets)
        _ = await stop.building { await BuildCommand.buildOnce(options, printing) }
        while !stop.requested {
            try? await Task.sleep(for: interval)
            guard AssetsFingerprint.of(options.assets) != seen, let settled = await settled(stop) else { continue }
            seen = settled
            _ = await stop.building { await BuildCommand.buildOnce(options, printing) }
        }
        // The set stays as the last build left it; its report stops reloading.
        var last = options
        last.reportRefreshSeconds = nil
        do { try await BuildPipeline.rewriteReport(last) } catch { console.err("warning: the report still reloads itself: \(error)") }
        console.err("soundset: stopped watching \(options.assetsDisplay)")
        return ExitCode.success
    }
}

extension BuildWatch {
    /// The folder's fingerprint once it has stayed the same for half a second and two polls (a
    /// take being copied in, or exported in several writes, is built when it is whole), or nil when
    /// a stop is asked for first.
    func settled(_ stop: StopRequest) async -> AssetsFingerprint? {
        let quiet = max(interval * 2, .milliseconds(500))
        var last = AssetsFingerprint.of(options.assets)
        var since = ContinuousClock.now
        while !stop.requested {
            try? await Task.sleep(for: interval)
            let now = AssetsFingerprint.of(options.assets)
            if now != last {
                last = now
                since = .now
            } else if ContinuousClock.now - since >= quiet {
                return last
            }
        }
        return nil
    }
}

/// Ctrl-C (SIGINT) and SIGTERM. A build ends at once: the staging folder it is writing is removed
/// (a swap under way is let finish), and it exits 128 + the signal's number. A watch is asked to
/// stop after the build under way; a second signal ends it as a build ends.
final class StopRequest: @unchecked Sendable {
    // @unchecked: `count` and `underWay` are guarded by `lock`; `sources` is set once, in `install`.
    private let lock = NSLock()
    private var count = 0
    private var sources: [DispatchSourceSignal] = []
    private let watching: Bool
    private let output: String
    private let console: Console
    private let exitAtOnce: @Sendable (Int32) -> Never

    private init(watching: Bool, output: String, console: Console, exitAtOnce: @escaping @Sendable (Int32) -> Never) {
        self.watching = watching
        self.output = output
        self.console = console
        self.exitAtOnce = exitAtOnce
    }

    var requested: Bool { lock.withLock { count > 0 } }

    /// Whether a build is under way (what the first signal says).
    private var underWay = false

    /// Runs one build of the watch.
    func building<T>(_ body: () async -> T) async -> T {
        lock.withLock { underWay = true }
        defer { lock.withLock { underWay = false } }
        return await body()
    }

    /// Installs the handlers of SIGINT and SIGTERM; the process ends through `exitAtOnce`
    /// (main's `_exit`) when a signal must end it at once.
    static func install(watching: Bool, output: String, console: Console, exitAtOnce: @escaping @Sendable (Int32) -> Never) -> StopRequest {
        let request = StopRequest(watching: watching, output: output, console: console, exitAtOnce: exitAtOnce)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { request.signalled(number) }
            source.resume()
            request.sources.append(source)
        }
        return request
    }

    private func signalled(_ number: Int32) {
        let (times, busy) = lock.withLock {
            count += 1
            return (count, underWay)
        }
        if watching && times == 1 {
            console.err(busy ? "\nsoundset: stopping after the build under way (again to end at once)" : "\nsoundset: stopping")
            return
        }
        let output = output, console = console, exitAtOnce = exitAtOnce
        Interruption.shared.interrupt(
            status: 128 + number,
            say: { swapped in
                console.err(
                    swapped
                        ? "\nsoundset: interrupted as the new set was swapped in: \(output) holds it"
                        : "\nsoundset: interrupted; \(output) was not changed")
            },
            // main's _exit, not exit(3): worker threads may be inside a C library, whose atexit
            // handlers must not run under them. Everything said was written unbuffered.
            exit: exitAtOnce)
    }
}
