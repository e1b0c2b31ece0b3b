import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// `soundset pack` and `soundset install-pack` through the binary (issue 31): the demo set packed
/// with one key installs byte for byte and renders as the set itself does; every tampering is
/// refused with its reason and leaves the installed voice as it was.
@Suite struct VoicePackCommandTests {
    /// A copy of the committed demo's default voice's set (`Output/voices/zh-CN`) as `Output`, keys
    /// and a group folder in a temporary folder.
    struct Bench {
        let directory: TemporaryDirectory
        let keys: (privateKey: URL, publicKey: URL)
        let otherKeys: (privateKey: URL, publicKey: URL)
        var root: URL { directory.url }
        var group: URL { root.appendingPathComponent("Group") }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.copyItem(
                at: SoundsetExecutable.packageRoot.appendingPathComponent("Output/voices/zh-CN"), to: directory.url.appendingPathComponent("Output"))
            keys = try TestKeyPair.rfc1.write(to: directory.url, name: "voice")
            otherKeys = try TestKeyPair.rfc2.write(to: directory.url, name: "other")
        }

        func pack(version: Int, out: String = "zh.pack", key: URL? = nil) throws -> RunResult {
            try SoundsetExecutable.run(
                ["pack", "--voice", "zh", "--key", (key ?? keys.privateKey).path, "--out", out, "--pack-version", "\(version)"], in: root)
        }

        func install(_ file: String, publicKey: URL? = nil) throws -> RunResult {
            try SoundsetExecutable.run(["install-pack", file, "--group", group.path, "--public-key", (publicKey ?? keys.publicKey).path], in: root)
        }

        func write(_ data: Data, _ name: String) throws { try data.write(to: root.appendingPathComponent(name)) }
        func read(_ name: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(name)) }
    }

    /// The byte ranges of a pack's parts: its header's JSON, each file, the signature.
    struct Layout {
        let header: Range<Int>
        let files: [(name: String, range: Range<Int>)]
        let signature: Range<Int>

        init(_ pack: Data) throws {
            let bytes = [UInt8](pack)
            func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            header = 12..<(12 + u32(8))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes[header])) as? [String: Any])
            var offset = header.upperBound
            var files: [(String, Range<Int>)] = []
            for file in try #require(json["files"] as? [[String: Any]]) {
                let count = try #require(file["bytes"] as? Int)
                files.append((try #require(file["name"] as? String), offset..<(offset + count)))
                offset += count
            }
            self.files = files
            signature = (offset + 4)..<(offset + 4 + u32(offset))
        }

        func range(of name: String) -> Range<Int> { files.first { $0.name == name }!.range }
    }

    @Test func aPackInstallsTheSetByteForByteAndAgainChangesNothing() throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        let packed = try bench.pack(version: 3)
        #expect(packed.status == 0, "\(packed.stderr)")
        let set = try SoundSet(folder: bench.root.appendingPathComponent("Output"))
        let pack = try bench.read("zh.pack")
        #expect(
            packed.stdout
                == "wrote zh.pack: voice zh, locale zh-CN, version 3, set \(set.id), \(set.manifest.clips.count) clips, \(pack.count) bytes\n")
        // The manifest and each clip's file once (no copies), in the manifest's order.
        let layout = try Layout(pack)
        #expect(layout.files.map(\.name) == ["manifest.json"] + set.manifest.clips.map { "Sounds/\($0.file)" })
        #expect(layout.signature.count == 64)
        #expect(layout.signature.upperBound == pack.count)

        let installed = try bench.install("zh.pack")
        #expect(installed.status == 0, "\(installed.stderr)")
        let folder = bench.group.appendingPathComponent("soundset/Voices/zh/3-\(set.id)")
        #expect(installed.stdout == "installed voice zh, locale zh-CN, version 3, set \(set.id) in \(folder.path)\n")
        // Every file of the set, copies included, byte for byte.
        #expect(snapshot(of: folder) == snapshot(of: bench.root.appendingPathComponent("Output")))
        // The installed set renders what the set itself renders.
        let fromSet = try SoundsetExecutable.run(["render", "123.45", "--out", "a.caf"], in: bench.root)
        let fromPack = try SoundsetExecutable.run(["render", "123.45", "--output", folder.path, "--out", "b.caf"], in: bench.root)
        #expect(fromSet.status == 0 && fromPack.status == 0, "\(fromSet.stderr)\(fromPack.stderr)")
        #expect(try bench.read("a.caf") == bench.read("b.caf"))

        let groupBefore = snapshot(of: bench.group)
        let again = try bench.install("zh.pack")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == installed.stdout)
        #expect(snapshot(of: bench.group) == groupBefore)
    }

    /// Each altered pack, what the refusal says, and that the installed voice is untouched.
    @Test func everyTamperingIsRefusedAndTheInstalledVoiceKeepsWorking() throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        #expect(try bench.pack(version: 3).status == 0)
        #expect(try bench.install("zh.pack").status == 0)
        let installedBefore = snapshot(of: bench.group)
        let pack = try bench.read("zh.pack")
        let layout = try Layout(pack)

        func flipped(_ at: Int) -> Data {
            var copy = pack
            copy[at] ^= 0x01
            return copy
        }
        let clip = layout.range(of: "Sounds/0.caf")
        let cases: [(String, Data)] = [
            ("clip", flipped(clip.lowerBound + clip.count / 2)),
            ("manifest", flipped(layout.range(of: "manifest.json").lowerBound + 10)),
            ("header", flipped(layout.header.lowerBound + 3)),
            ("signature", flipped(layout.signature.lowerBound + 5)),
            ("cut", pack.prefix(pack.count / 2)),
            ("cut-signature", pack.prefix(pack.count - 1)),
            ("trailing", pack + Data([0])),
            ("empty", Data()),
        ]
        for (name, data) in cases {
            try bench.write(data, "\(name).pack")
            let result = try bench.install("\(name).pack")
            #expect(result.status == 1, "\(name): \(result.stdout)")
            #expect(result.stderr.hasPrefix("error: \(name).pack: refused: "), "\(name): \(result.stderr)")
            #expect(snapshot(of: bench.group) == installedBefore, "\(name)")
        }
        // Asked for another voice.
        let otherVoice = try SoundsetExecutable.run(
            ["install-pack", "zh.pack", "--group", bench.group.path, "--public-key", bench.keys.publicKey.path, "--voice", "man"], in: bench.root)
        #expect(otherVoice.status == 1)
        #expect(otherVoice.stderr.hasPrefix("error: zh.pack: refused: voice pack: is of the voice 'zh', not 'man' as asked"), "\(otherVoice.stderr)")
        // Signed by another key; an older version, signed by the right one.
        let otherKey = try bench.install("zh.pack", publicKey: bench.otherKeys.publicKey)
        #expect(otherKey.status == 1)
        #expect(otherKey.stderr.hasPrefix("error: zh.pack: refused: "), "\(otherKey.stderr)")
        #expect(try bench.pack(version: 2, out: "old.pack").status == 0)
        let older = try bench.install("old.pack")
        #expect(older.status == 1)
        #expect(older.stderr.contains("2") && older.stderr.contains("3"), "\(older.stderr)")
        #expect(snapshot(of: bench.group) == installedBefore)
    }

    /// A pack whose signature is good but whose names reach outside its folder: signed here with
    /// the right key, so only the names can be what is refused.
    @Test(arguments: ["Sounds/../escape.caf", "Sounds/sub/0.caf", "../manifest.json", "Sounds/.hidden.caf", "/etc/passwd"])
    func namesOutsideTheFolderAreRefusedThoughSigned(badName: String) throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        #expect(try bench.pack(version: 3).status == 0)
        let pack = try bench.read("zh.pack")
        let layout = try Layout(pack)
        var header = String(decoding: pack[layout.header], as: UTF8.self)
        header = header.replacingOccurrences(of: "\"Sounds/0.caf\"", with: "\"\(badName)\"")
        let body = Data(header.utf8)
        var unsigned = Data("SSPACK01".utf8)
        unsigned.append(contentsOf: withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
        unsigned.append(body)
        unsigned.append(pack[layout.header.upperBound..<(layout.signature.lowerBound - 4)])
        let signer = try Ed25519PrivateKey(contentsOf: bench.keys.privateKey, display: "voice.key")
        var signed = unsigned
        signed.append(contentsOf: withUnsafeBytes(of: UInt32(64).bigEndian, Array.init))
        signed.append(signer.sign(unsigned))
        try bench.write(signed, "names.pack")
        let result = try bench.install("names.pack")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: names.pack: refused: "), "\(result.stderr)")
        #expect(result.stderr.contains(badName), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bench.root.appendingPathComponent("escape.caf").path))
        #expect(!FileManager.default.fileExists(atPath: bench.group.appendingPathComponent("soundset/Voices/zh").path))
    }

    @Test func badUsageAndUnusableKeysAreNamed() throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        let noKey = try SoundsetExecutable.run(["pack", "--voice", "zh"], in: bench.root)
        #expect(noKey.status == 64)
        #expect(noKey.stderr.hasPrefix("soundset: pack needs --key KEY\n"), "\(noKey.stderr)")
        let badVoice = try SoundsetExecutable.run(["pack", "--voice", "../x", "--key", bench.keys.privateKey.path], in: bench.root)
        #expect(badVoice.status == 64)
        #expect(badVoice.stderr.hasPrefix("soundset: --voice '../x' is not a voice's name"), "\(badVoice.stderr)")
        let publicAsPrivate = try bench.pack(version: 1, key: bench.keys.publicKey)
        #expect(publicAsPrivate.status == 1)
        #expect(publicAsPrivate.stderr.hasPrefix("error: \(bench.keys.publicKey.path): is not a private key in PEM"), "\(publicAsPrivate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bench.root.appendingPathComponent("zh.pack").path))
        let noSet = try SoundsetExecutable.run(
            ["pack", "--voice", "zh", "--key", bench.keys.privateKey.path, "--output", "Nowhere", "--pack-version", "1"], in: bench.root)
        #expect(noSet.status == 1)
        #expect(noSet.stderr.contains("Nowhere"), "\(noSet.stderr)")
        let zeroVersion = try bench.pack(version: 0)
        #expect(zeroVersion.status == 64)
        #expect(zeroVersion.stderr.hasPrefix("soundset: --pack-version must be a whole number of 1 or more, got '0'"), "\(zeroVersion.stderr)")

        // A file over --max-mb is refused before it is read.
        try bench.write(Data(count: (1 << 20) + 1), "big.pack")
        let big = try SoundsetExecutable.run(
            ["install-pack", "big.pack", "--group", bench.group.path, "--public-key", bench.keys.publicKey.path, "--max-mb", "1"], in: bench.root)
        #expect(big.status == 1)
        #expect(big.stderr == "error: big.pack: refused: larger than 1 MiB (--max-mb raises the limit)\n", "\(big.stderr)")
        let missing = try bench.install("missing.pack")
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: missing.pack: is missing\n", "\(missing.stderr)")
    }

    /// With several voices the pack is `Output/voices/<voice>`'s, and a voice the output does not
    /// hold is refused by name.
    @Test func severalVoicesPackTheVoiceNamed() throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        let several = bench.root.appendingPathComponent("Several")
        try FileManager.default.createDirectory(at: several.appendingPathComponent("voices"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: bench.root.appendingPathComponent("Output"), to: several.appendingPathComponent("voices/woman"))
        let set = try SoundSet(folder: several.appendingPathComponent("voices/woman"))
        let index = #"{"defaultVoice":"woman","schemaVersion":1,"voices":[{"locale":"zh-CN","setId":"\#(set.id)","voice":"woman"}]}"#
        try Data(index.utf8).write(to: several.appendingPathComponent("voices.json"))
        let args = ["pack", "--key", bench.keys.privateKey.path, "--output", "Several", "--pack-version", "5"]
        let packed = try SoundsetExecutable.run(args + ["--voice", "woman", "--out", "woman.pack"], in: bench.root)
        #expect(packed.status == 0, "\(packed.stderr)")
        #expect(packed.stdout.hasPrefix("wrote woman.pack: voice woman, locale zh-CN, version 5, set \(set.id), "), "\(packed.stdout)")
        let installed = try bench.install("woman.pack")
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(
            snapshot(of: bench.group.appendingPathComponent("soundset/Voices/woman/5-\(set.id)"))
                == snapshot(of: several.appendingPathComponent("voices/woman")))
        let unknown = try SoundsetExecutable.run(args + ["--voice", "man", "--out", "man.pack"], in: bench.root)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("man") && unknown.stderr.contains("woman"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bench.root.appendingPathComponent("man.pack").path))
    }

    /// `serve --voice` names a voice the output holds: refused before listening otherwise.
    @Test func serveRefusesAVoiceItDoesNotHold() throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        let oneVoice = try SoundsetExecutable.run(["serve", "--voice", "woman", "--listen", "127.0.0.1:0"], in: bench.root)
        #expect(oneVoice.status == 1)
        #expect(oneVoice.stderr.contains("--voice woman") && oneVoice.stderr.contains("Output"), "\(oneVoice.stderr)")
        let badName = try SoundsetExecutable.run(["serve", "--voice", "a/b", "--listen", "127.0.0.1:0"], in: bench.root)
        #expect(badName.status == 64)
        #expect(badName.stderr.hasPrefix("soundset: --voice 'a/b' is not a voice's name"), "\(badName.stderr)")
    }

    /// `install-pack` killed (SIGKILL) after each step of installing version 4 over version 3: the
    /// voice still resolves to a whole version (3 before the switch, 4 after), and installing 4
    /// again leaves version 4, the pointer to it, and version 3, which it replaced.
    @Test(arguments: ["pack-wrote-1", "pack-wrote-7", "pack-staged", "pack-placed", "pack-switched"])
    func aKillDuringTheInstallLeavesAWholeVoice(point: String) throws {
        let bench = try Bench()
        defer { bench.directory.remove() }
        #expect(try bench.pack(version: 3).status == 0)
        #expect(try bench.install("zh.pack").status == 0)
        #expect(try bench.pack(version: 4, out: "new.pack").status == 0)
        let killed = try SoundsetExecutable.run(
            ["install-pack", "new.pack", "--group", bench.group.path, "--public-key", bench.keys.publicKey.path], in: bench.root,
            environment: ["SOUNDSET_KILL_AFTER": point])
        #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL, "\(point): \(killed.status) \(killed.stderr)")
        let voices = bench.group.appendingPathComponent("soundset/Voices/zh")
        let set = try SoundSet(folder: bench.root.appendingPathComponent("Output"))
        let current = try JSONSerialization.jsonObject(with: Data(contentsOf: voices.appendingPathComponent("current.json"))) as? [String: Any]
        let expected = point == "pack-switched" ? 4 : 3
        #expect(current?["version"] as? Int == expected, "\(point)")
        // The version it names is whole: every file of the set, byte for byte.
        #expect(snapshot(of: voices.appendingPathComponent("\(expected)-\(set.id)")) == snapshot(of: bench.root.appendingPathComponent("Output")))
        let again = try bench.install("new.pack")
        #expect(again.status == 0, "\(point): \(again.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: voices.path).filter { !$0.hasPrefix(".soundset") }.sorted()
        // Version 3, just replaced, stays until the next install.
        #expect(left == ["3-\(set.id)", "4-\(set.id)", "current.json"], "\(point): \(left)")
    }
}
