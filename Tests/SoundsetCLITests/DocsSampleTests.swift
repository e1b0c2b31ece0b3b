import Foundation
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

/// The sample sessions in docs/ios.md are the demo set's real output: each `console` block is run,
/// command by command, on a copy of the repository's `Output/`, and must print what the page shows
/// (a composed file's UUID, and the set's id in installed names, shown as `…`).
@Suite struct DocsSampleTests {
    @Test func theIOSGuidesSessionsAreWhatTheDemoSetPrints() throws {
        let root = SoundsetExecutable.packageRoot
        let page = try String(contentsOf: root.appendingPathComponent("docs/ios.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```console\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            let output = try folder.folder("Output")
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Output/Sounds"), to: output.appendingPathComponent("Sounds"))
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Output/manifest.json"), to: output.appendingPathComponent("manifest.json"))
            // Commands, each with the lines it prints.
            var sessions: [(command: String, expected: [String])] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("$ ") { sessions.append((String(line.dropFirst(2)), [])) } else { sessions[sessions.count - 1].expected.append(line) }
            }
            for (command, expected) in sessions {
                let words = command.split(separator: " ").map(String.init)
                if words.first == "cat" {
                    try Data((expected.joined(separator: "\n") + "\n").utf8).write(to: folder.url.appendingPathComponent(words[1]))
                    continue
                }
                #expect(words.first == "soundset", "\(command)")
                let arguments = words.dropFirst().map { $0 == "/tmp/group" ? folder.url.appendingPathComponent("group").path : $0 }
                let result = try SoundsetExecutable.run(Array(arguments), in: folder.url)
                #expect(result.status == 0, "\(command): \(result.stderr)")
                let printed = result.stdout.replacingOccurrences(of: "soundset-[0-9a-f-]{36}\\.", with: "soundset-….", options: .regularExpression)
                    .replacingOccurrences(of: "ss[0-9a-f]{10}-", with: "ss…-", options: .regularExpression)
                #expect(printed == expected.joined(separator: "\n") + "\n", "\(command)")
            }
        }
    }
}
