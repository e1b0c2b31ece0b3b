import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

/// Loading a new set while the old one is served.
@Suite struct SetSourceTests {
    /// A gate a load waits at, and how many loads started.
    final class Gate: @unchecked Sendable {
        // @unchecked: `loads` is only read and written holding `lock`.
        private let lock = NSLock()
        private var loads = 0
        /// Signalled when the second load starts.
        let secondStarted = DispatchSemaphore(value: 0)
        /// Signalled to let the second load go on.
        let open = DispatchSemaphore(value: 0)

        /// Counts a load; the second waits until `open` is signalled.
        func arrive() {
            let number = lock.withLock {
                loads += 1
                return loads
            }
            if number == 2 {
                secondStarted.signal()
                open.wait()
            }
        }

        var count: Int { lock.withLock { loads } }
    }

    @Test func theOldSetIsServedWhileTheNewOneLoadsAndTheNewOneOnceLoaded() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output)
        let gate = Gate()
        // Every request looks at the manifest (no recheck interval).
        let source = SetSource(output: output, display: "Output", recheckInterval: 0) { source in
            gate.arrive()
            return source.loadFromFolder()
        }
        let old = try source.current().get()
        #expect(gate.count == 1)

        // A build's swap: the manifest's identity changes (its modification time here).
        let manifest = output.appendingPathComponent(SoundSetLayout.manifestName)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: manifest.path)

        // The request that sees the change is answered with the old set; the load runs elsewhere.
        #expect(try source.current().get() === old)
        gate.secondStarted.wait()
        // The load is now blocked at the gate: requests on other threads get the old set, and
        // start no second load.
        let others = DispatchGroup()
        let answers = Answers()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: others) { answers.append(try? source.current().get()) }
        }
        others.wait()
        #expect(answers.all.count == 4)
        #expect(answers.all.allSatisfy { $0 === old })
        #expect(gate.count == 2)

        gate.open.signal()
        source.waitForLoad()
        let new = try source.current().get()
        #expect(new !== old)
        #expect(new.id == old.id)
        #expect(gate.count == 2)
    }

    @Test func withoutAValidSetARequestWaitsForTheLoad() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output)
        let source = SetSource(output: output, display: "Output", recheckInterval: 0)
        // Two threads at once with no set loaded yet: both get the set, loaded once.
        let both = DispatchGroup()
        let answers = Answers()
        for _ in 0..<2 { DispatchQueue.global().async(group: both) { answers.append(try? source.current().get()) } }
        both.wait()
        #expect(answers.all.count == 2)
        #expect(answers.all.allSatisfy { $0 != nil })
    }

    /// An MP3's tag names how it is encoded: the same set, options and amount encoded otherwise
    /// have another tag; the other formats' tags name theirs too.
    @Test func theMP3sTagNamesItsEncoderRecipe() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output)
        let served = try SetSource(output: output, display: "Output").current().get()
        let options = AnnouncementOptions().key(of: served.set.manifest)
        let recipe = served.recipe(of: "mp3")
        #expect(recipe == ServedSet.mp3Recipe(setRate: served.set.manifest.sampleRate))
        #expect(recipe.contains("rate=\(AnnouncementMP3.rate(forSetRate: served.set.manifest.sampleRate))"))
        #expect(recipe.contains("lame=\(SoundLibrary.lame)") && !SoundLibrary.lame.isEmpty)
        #expect(recipe.contains("samplerate=\(SoundLibrary.samplerate)") && SoundLibrary.samplerate.contains("libsamplerate"))
        #expect(recipe.contains("\(AnnouncementMP3.settings)"))
        let tag = served.entityTag(try Amount("1.50"), options: AnnouncementOptions(), kind: "mp3")
        // The tag served is the one made with the recipe; another recipe gives another tag.
        let start = ServedSet.tagStart(id: served.id, kind: "mp3", options: options, recipe: recipe)
        #expect(tag == start + "1.50\"")
        let otherStart = ServedSet.tagStart(id: served.id, kind: "mp3", options: options, recipe: recipe + ";quality=2")
        #expect(otherStart != start)
        #expect(served.recipe(of: "wav") == ServedSet.pcmRecipe)
        #expect(
            served.entityTag(try Amount("1.50"), options: AnnouncementOptions(), kind: "wav").hasPrefix(
                ServedSet.tagStart(id: served.id, kind: "wav", options: options, recipe: ServedSet.pcmRecipe)))
    }

    final class Answers: @unchecked Sendable {
        // @unchecked: `sets` is only read and written holding `lock`.
        private let lock = NSLock()
        private var sets: [ServedSet?] = []
        func append(_ set: ServedSet?) { lock.withLock { sets.append(set) } }
        var all: [ServedSet?] { lock.withLock { sets } }
    }
}
