import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset pack`: one file holding a voice's set (its manifest and clips) and an Ed25519
/// signature over them, for an app to download and install (`VoicePackInstaller`).
enum PackCommand {
    static let voice = Option.voice.helping("the voice to pack: its name in the pack, and the set Output/voices/NAME when the build made several")
    static let key = Option.value("--key", "KEY", help: "the Ed25519 private key (PEM, as openssl genpkey -algorithm ed25519 writes it) that signs the pack")
    static let out = Option.value("--out", "FILE", shown: "NAME.pack", help: "where the pack is written (replaced whole: a reader never sees half of it)")
    static let packVersion = Option.value(
        "--pack-version", "N", shown: "the time in seconds since 1970",
        help: "the pack's version: a phone installs a pack only when its version is newer than the installed one's")

    static let spec = CommandSpec(
        name: "pack", summary: "write a voice's set as one signed file (a voice pack) for phones to download and install",
        arguments: .refusing("pack takes no arguments: the set is --output's"),
        options: [required(voice), required(key), .output, out, packVersion], about: Help.packAbout,
        exitCodes: "exit codes: 0 written, 1 the set or the key cannot be read or the pack not written, 64 bad usage")

    static func required(_ option: Option) -> Option {
        var option = option
        option.required = true
        return option
    }

    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        guard let name = try Voices.name(parsed) else { throw UsageError("pack needs \(voice.name) NAME") }
        guard let keyPath = parsed.value(key) else { throw UsageError("pack needs \(key.name) KEY") }
        let version = try packVersionValue(parsed)
        let outputPath = parsed.value(.output) ?? "Output"
        let destination = parsed.value(out) ?? "\(name).pack"
        do {
            let signer = try Ed25519PrivateKey(contentsOf: URL(fileURLWithPath: keyPath), display: keyPath)
            let folder = try setFolder(parsed, output: outputPath, spelling: spelling)
            let (pack, set) = try OutputFolder.reading(folder) {
                let set = try SoundSet(folder: folder)
                return (try VoicePack.encode(set, voice: name, version: version, sign: signer.sign), set)
            }
            try RegularFile.replace(URL(fileURLWithPath: destination), with: pack)
            console.out(
                "wrote \(destination): voice \(name), locale \(set.manifest.locale.rawValue), version \(version), set \(set.id), \(set.manifest.clips.count) clips, \(pack.count) bytes"
            )
            return ExitCode.success
        } catch let error as RegularFile.Failure {
            console.err("error: \(destination): \(error.reason)")
        } catch {
            console.err("error: \(error)")
        }
        return ExitCode.failure
    }

    static func packVersionValue(_ parsed: Arguments) throws -> Int {
        guard let text = parsed.value(packVersion) else { return Int(Date().timeIntervalSince1970) }
        guard let value = Int(text), value >= 1 else {
            throw UsageError("\(packVersion.name) must be a whole number of 1 or more, got '\(ClipNamePrinting.safe(text))'")
        }
        return value
    }

    /// The set of `--voice`: `Output/voices/<voice>` when the build made several (the voice must be
    /// one of them), else `Output` itself, packed under the name given.
    static func setFolder(_ parsed: Arguments, output: String, spelling: CommandSpelling) throws -> URL {
        let url = URL(fileURLWithPath: output)
        guard VoiceFolders.isSeveral(output: url) else { return url }
        return try Voices.setFolder(parsed, output: output, spelling: spelling).url
    }
}

/// `soundset install-pack`: what the app does with a downloaded pack, on this machine: verify it and
/// install it into a folder that stands in for the App Group's container.
enum InstallPackCommand {
    static let publicKey = Option.value(
        "--public-key", "KEY.pub", help: "the Ed25519 public key (PEM, as openssl pkey -pubout writes it) the pack must be signed by")
    static let expectedVoice = Option.voice.helping("the voice asked for: a pack of another voice is refused (default: any voice)")
    static let maxMB = Option.value("--max-mb", "N", default: "\(VoicePack.defaultMaxBytes >> 20)", help: "refuse a pack larger than N MiB")

    static let spec = CommandSpec(
        name: "install-pack", summary: "verify a voice pack and install it into an App Group folder, as the app does",
        arguments: .one("FILE", missing: "install-pack needs the pack FILE"), options: [.requiredGroup, PackCommand.required(publicKey), expectedVoice, maxMB],
        about: Help.installPackAbout, exitCodes: "exit codes: 0 installed (or already installed), 1 refused or not installed, 64 bad usage")

    static func run(_ arguments: [String], console: Console) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        let file = try parsed.arguments()[0]
        guard let group = parsed.value(.group) else { throw UsageError("install-pack needs \(Option.group.name) DIR") }
        guard let keyPath = parsed.value(publicKey) else { throw UsageError("install-pack needs \(publicKey.name) KEY.pub") }
        let text = parsed.value(maxMB) ?? ""
        guard let megabytes = Int(text), (1...4096).contains(megabytes) else {
            throw UsageError("\(maxMB.name) must be a whole number from 1 to 4096, got '\(ClipNamePrinting.safe(text))'")
        }
        do {
            let verifier = try Ed25519PublicKey(contentsOf: URL(fileURLWithPath: keyPath), display: keyPath)
            let maxBytes = megabytes << 20
            guard let data = try read(file, maxBytes: maxBytes) else {
                console.err("error: \(file): refused: larger than \(megabytes) MiB (\(maxMB.name) raises the limit)")
                return ExitCode.failure
            }
            let pack = try VoicePack.open(data, verifier: verifier, maxBytes: maxBytes)
            if let expected = try Voices.name(parsed), pack.header.voice != expected { throw PackError.otherVoice(expected: expected, pack: pack.header.voice) }
            let installed = try VoicePackInstaller.install(
                pack, into: GroupFolder(URL(fileURLWithPath: group)), now: Date().timeIntervalSince1970, stopAfter: KillPoint.packStep())
            console.out(
                "installed voice \(installed.voice), locale \(installed.locale), version \(installed.version), set \(installed.setId) in \(installed.folder.path)"
            )
            return ExitCode.success
        } catch let error as PackError {
            console.err("error: \(file): refused: \(error)")
        } catch let error as RegularFile.Failure {
            console.err("error: \(file): \(error.reason)")
        } catch {
            console.err("error: \(error)")
        }
        return ExitCode.failure
    }

    /// The pack's bytes, or nil when it is larger than `maxBytes` (refused before it is read).
    static func read(_ file: String, maxBytes: Int) throws(RegularFile.Failure) -> Data? {
        do { return try RegularFile.read(URL(fileURLWithPath: file), maxBytes: maxBytes) } catch {
            if error.kind == .tooLarge { return nil }
            throw error
        }
    }
}
