import Foundation
import SoundsetRuntimeTestSupport
import Testing

@testable import SoundsetRuntime

/// The name checks every reader runs on a manifest's clips, and the links found in a set's
/// `Sounds`: what they refuse and find, whichever shortcut they take.
@Suite struct ClipNameRulesTests {
    @Test(arguments: [
        ("0.caf", true), ("十.caf", true), ("a-b_c.1.wav", true), (String(repeating: "a", count: 255), true),
        ("", false), ("a/b.caf", false), ("/b.caf", false), ("a\\b.caf", false), (".hidden.caf", false), (".", false), ("..", false),
        (String(repeating: "a", count: 256), false), ("a\u{202E}b.caf", false), ("a\u{0}b.caf", false), ("a\nb.caf", false),
        ("十/二.caf", false), ("a/\u{301}b.caf", false), ("a\\\u{301}b.caf", false),
    ])
    func aPlainFileNameIsOneNameInsideAFolder(name: String, plain: Bool) {
        #expect(ClipNameRules.isPlainFileName(name) == plain)
    }

    @Test func aPrintableNameIsItselfAndAnyOtherIsEscapedAndCut() {
        #expect(ClipNameRules.printable("ten_thousand") == "ten_thousand")
        #expect(ClipNameRules.printable("收款到账") == "收款到账")
        #expect(ClipNameRules.printable("a\u{7}b") == "a\\u{07}b")
        #expect(ClipNameRules.printable("a\u{202E}b") == "a\\u{202E}b")
        #expect(ClipNameRules.printable(String(repeating: "x", count: 300)) == String(repeating: "x", count: 200))
        // Short in characters, long in bytes: cut at 200 characters all the same.
        #expect(ClipNameRules.printable(String(repeating: "十", count: 250)) == String(repeating: "十", count: 200))
    }

    /// A regular file and a folder are not links; a link to either is, and to nothing too.
    @Test func onlyLinksAreFoundInSounds() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let sounds = try TemporaryDirectory.folder(folder.url, "Sounds")
        try Data([1]).write(to: sounds.appendingPathComponent("0.caf"))
        try FileManager.default.createDirectory(at: sounds.appendingPathComponent("folder"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sounds.appendingPathComponent("1.caf").path, withDestinationPath: "0.caf")
        try FileManager.default.createSymbolicLink(atPath: sounds.appendingPathComponent("2.caf").path, withDestinationPath: "/nowhere")
        let links = SetLink.links(in: folder.url)
        #expect(links.map(\.path) == ["Sounds/1.caf", "Sounds/2.caf"])
        #expect(links.map(\.target) == ["0.caf", "/nowhere"])
        #expect(SetLink.links(in: folder.url.appendingPathComponent("missing")).isEmpty)
    }
}
