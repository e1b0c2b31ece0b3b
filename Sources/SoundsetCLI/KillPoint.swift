import Foundation
import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kill tests' switch: `SOUNDSET_KILL_AFTER=<step>` makes `soundset announce` kill itself
/// (SIGKILL, as iOS kills an extension) right after one step of the push (`installed`, `decided`,
/// `composed`, `written`), or after a page of a file's save (`queue.json@8192`: the first 8 KiB of
/// the new queue written); and `soundset install-pack` after a step of the install (`pack-wrote-N`:
/// N of the version's files staged, `pack-staged`, `pack-placed`, `pack-switched`). Unset, nothing
/// changes. `docs/robustness.md` lists what each kill leaves.
enum KillPoint {
    static let variable = "SOUNDSET_KILL_AFTER"

    static func arm(_ announcer: inout Announcer) {
        guard let point = ProcessInfo.processInfo.environment[variable], !point.isEmpty else { return }
        announcer.stopAfter = { step in
            if step.rawValue == point { kill(getpid(), SIGKILL) }
            return false
        }
        TemporaryWrites.pageWritten = { name, bytes in
            if "\(name)@\(bytes)" == point { kill(getpid(), SIGKILL) }
        }
    }

    /// `install-pack`'s kill after the install step the variable names, or nil when it is unset.
    static func packStep() -> ((VoicePackInstaller.Step) -> Bool)? {
        guard let point = ProcessInfo.processInfo.environment[variable], point.hasPrefix("pack-") else { return nil }
        return { step in
            let name =
                switch step {
                case .wrote(let count): "pack-wrote-\(count)"
                case .staged: "pack-staged"
                case .placed: "pack-placed"
                case .switched: "pack-switched"
                }
            if name == point { kill(getpid(), SIGKILL) }
            return false
        }
    }
}
