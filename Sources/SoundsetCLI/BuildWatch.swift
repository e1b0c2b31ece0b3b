import Foundation
import SoundsetBuild

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `soundset build --watch`: builds, then builds again whenever the assets folder changes, until
/// Ctrl-C. Polls with stat(2) (`AssetsFingerprint`), so it works wherever the build does; a change
/// is built once two polls agree, so a take still being copied in is not built half-written. Each
/// build is the ordinary incremental one, and its report reloads itself every second. Ctrl-C lets
/// the build under way finish (so no staging folder is left behind), writes the report once more
/// without the reload, and ends with exit 0; a second Ctrl-C ends at once.
struct BuildWatch {
    var options: BuildOptions
    var printing: BuildCommand.Printing
    var interval: Duration

    func run() async -> Int32 {
        let console = printing.console
        let stop = StopRequest.install()
        console.err("soundset: watching \(options.assetsDisplay) for changes (Ctrl-C to stop)")
        var seen = AssetsFingerprint.of(options.assets)
        _ = await BuildCommand.buildOnce(options, printing)
        while !stop.requested {
            try? await Task.sleep(for: interval)
            let now = AssetsFingerprint.of(options.assets)
            guard now != seen, !stop.requested else { continue }
            try? await Task.sleep(for: interval)
            guard AssetsFingerprint.of(options.assets) == now, !stop.requested else { continue }
            seen = now
            _ = await BuildCommand.buildOnce(options, printing)
        }
        // The set stays as the last build left it; its report stops reloading.
        var last = options
        last.reportRefreshSeconds = nil
        do { try BuildPipeline.rewriteReport(last) } catch { console.err("warning: the report still reloads itself: \(error)") }
        console.err("soundset: stopped watching \(options.assetsDisplay)")
        return ExitCode.success
    }
}

/// Ctrl-C (SIGINT) and SIGTERM, asked for between builds: the first asks the watch to stop, a
/// second ends the process at once (exit 130).
final class StopRequest: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    private var sources: [DispatchSourceSignal] = []

    var requested: Bool { lock.withLock { count > 0 } }

    static func install() -> StopRequest {
        let request = StopRequest()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { request.signalled() }
            source.resume()
            request.sources.append(source)
        }
        return request
    }

    private func signalled() {
        let times = lock.withLock {
            count += 1
            return count
        }
        if times > 1 { exit(130) }
        FileHandle.standardError.write(Data("\nsoundset: stopping (Ctrl-C again to end at once)\n".utf8))
    }
}
