import Foundation
import SoundsetTestSupport
import Testing

/// What a build does, counted (#28), through the binary: `build --verbose` says what it decoded,
/// resampled, compared, encoded and wrote, so "a no-op build does nothing" and "one changed take
/// costs one take" are held by counts, not timings.
@Suite struct BuildWorkTests {
    /// The counts of `build --verbose`'s work line, by name.
    struct Work: Equatable {
        var statted = 0, headers = 0, hashed = 0, decoded = 0, resampled = 0, compared = 0, encoded = 0, written = 0

        init(
            statted: Int, headers: Int = 0, hashed: Int = 0, decoded: Int = 0, resampled: Int = 0, compared: Int = 0, encoded: Int = 0, written: Int = 0
        ) {
            (self.statted, self.headers, self.hashed, self.decoded, self.resampled) = (statted, headers, hashed, decoded, resampled)
            (self.compared, self.encoded, self.written) = (compared, encoded, written)
        }

        init?(stdout: String) {
            guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("work: ") }) else { return nil }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count == 8 else { return nil }
            self.init(
                statted: numbers[0], headers: numbers[1], hashed: numbers[2], decoded: numbers[3], resampled: numbers[4], compared: numbers[5],
                encoded: numbers[6], written: numbers[7])
        }
    }

    /// Dates every take a minute back, as a designer's files are: a file modified in the very tick
    /// the build stamps it is hashed again by the next build (racily clean), which is right, and
    /// not what these tests count.
    func age(_ assets: URL, only: String? = nil) throws {
        for name in try only.map({ [$0] }) ?? FileManager.default.contentsOfDirectory(atPath: assets.path) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: assets.appendingPathComponent(name).path)
        }
    }

    /// A folder with the complete zh-CN pack in Assets, its takes dated back.
    func pack() throws -> (TemporaryDirectory, URL) {
        let folder = try TemporaryDirectory()
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        try age(assets)
        return (folder, assets)
    }

    func build(_ folder: TemporaryDirectory, _ extra: [String] = []) throws -> (Work, stderr: String) {
        let result = try SoundsetExecutable.run(["build", "--verbose", "--no-report"] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let work = try #require(Work(stdout: result.stdout), "\(result.stdout)")
        return (work, result.stderr)
    }

    /// 18 takes at 16 kHz for a 16 kHz set: a first build decodes each once, resamples none (the set
    /// is at their rate), encodes each clip; a no-op build stats each take and does nothing else.
    @Test func aNoOpBuildDoesNothingButStatEachTake() throws {
        let (folder, _) = try pack()
        defer { folder.remove() }
        let (first, _) = try build(folder)
        #expect(first.headers == 18)
        #expect(first.decoded == 18)
        #expect(first.resampled == 0)
        #expect(first.encoded == 18)
        let sounds = folder.url.appendingPathComponent("Output/Sounds")
        let bytes = try FileManager.default.contentsOfDirectory(atPath: sounds.path).reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: sounds.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        let manifest = try Data(contentsOf: folder.url.appendingPathComponent("Output/manifest.json")).count
        #expect(first.written == bytes + manifest)
        for _ in 0..<2 {
            let (again, _) = try build(folder)
            #expect(again == Work(statted: 18))
        }
    }

    /// One changed take of 18 (at 22.05 kHz now): its header read (the others' the memo knows),
    /// decoded and resampled once, compared with the few takes the index gives (of a length within
    /// 2 %), not with the 17 others, and its clip encoded again; the other clips are reused (linked,
    /// no bytes written).
    @Test func oneChangedTakeCostsOneTake() throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        _ = try build(folder)
        let take = Takes.word(before: 0.05, word: 0.13, after: 0.05, rate: 22050, levelDb: -28, seed: 77)
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("4.wav"), rate: 22050)
        try age(assets, only: "4.wav")
        let (work, stderr) = try build(folder)
        #expect(stderr == "")
        #expect(work.headers == 1)
        #expect(work.hashed == 1)
        #expect(work.decoded == 1)
        #expect(work.resampled == 1)
        #expect(work.compared <= 3, "\(work)")
        // The set's level may move with one take; when it does not, only that clip is encoded.
        #expect(work.encoded >= 1)
        let (again, _) = try build(folder)
        #expect(again == Work(statted: 18))
    }

    /// The same-recording warning is the same on every kind of build when only one take changes:
    /// 9 made a copy of 8 (warned, with one comparison), then a no-op (warned, none), then 9 its own
    /// take again (no warning), then 3 a copy of 8 (warned, naming 3 and 8).
    @Test func theSameRecordingWarningFollowsTheChangedTake() throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        _ = try build(folder)
        let original = try Data(contentsOf: assets.appendingPathComponent("9.wav"))
        func warning(_ a: String, _ b: String) -> String {
            "warning: Assets/\(a).wav and Assets/\(b).wav are the same recording (record each word on its own, unless one stands in for another)\n"
        }
        try FileManager.default.removeItem(at: assets.appendingPathComponent("9.wav"))
        try FileManager.default.copyItem(at: assets.appendingPathComponent("8.wav"), to: assets.appendingPathComponent("9.wav"))
        try age(assets, only: "9.wav")
        let (copied, copiedWarning) = try build(folder)
        #expect(copiedWarning == warning("8", "9"))
        // The same bytes are the same fingerprint: nothing to compare.
        #expect(copied.compared == 0)
        let (noOp, noOpWarning) = try build(folder)
        #expect(noOpWarning == warning("8", "9"))
        #expect(noOp == Work(statted: 18))
        try original.write(to: assets.appendingPathComponent("9.wav"))
        let (_, restored) = try build(folder)
        #expect(restored == "")
        // 8's take as AssetPacks.completeChinese makes it; 3 as 8 rescaled, with noise 50 dB under
        // it, in 24 bits: compared, and found the same.
        let eight = Takes.word(before: 0.05, word: 0.115, after: 0.05, rate: 16000, levelDb: -30, seed: 9)
        let noise = Signals.noise(seconds: Double(eight.samples.count) / 16000, rate: 16000, rmsDb: -80, seed: 5)
        try WAVFile.write(Signals.mix(eight.samples.map { $0 * 0.7 }, noise), to: assets.appendingPathComponent("3.wav"), rate: 16000, format: .pcm24)
        let (rescaled, rescaledWarning) = try build(folder)
        #expect(rescaledWarning == warning("3", "8"))
        #expect((1...3).contains(rescaled.compared), "\(rescaled)")
    }
}
