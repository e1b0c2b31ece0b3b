import Foundation
import SoundsetBuild
import SoundsetFindings
import SoundsetReport
import SoundsetSetFolder
import Testing

/// Each module's problems are the cases of its enum, each with one message: the texts are the ones
/// the sites composed before (tests elsewhere and users' scripts read them), and no site in
/// `Sources/` composes a problem's message of its own.
@Suite struct ProblemReasonTests {
    @Test func theSetFoldersMessages() {
        #expect(
            OutputProblem.nameTooLong(bytes: 250, most: 213).message
                == "its name is 250 bytes, too long for the staging folder beside it (at most 213): choose a shorter --output")
        #expect(
            OutputProblem.leftover(what: "holds the set Output held", reason: "Permission denied", unlock: "chattr -R -i Old", word: "Old", then: "").message
                == "holds the set Output held and cannot be removed (Permission denied): remove it by hand (chattr -R -i Old if it is immutable, then rm -rf Old)"
        )
        #expect(
            OutputProblem.leftover(what: "holds it", reason: "busy", unlock: "u", word: "w", then: "then build again").message
                == "holds it and cannot be removed (busy): remove it by hand (u if it is immutable, then rm -rf w) then build again")
        #expect(OutputProblem.putThereMeanwhile(refusal: "is a symbolic link").message == "is a symbolic link; it was put there while the set was being built")
    }

    @Test func theConfigurationsMessages() {
        #expect(
            ConfigurationProblem.unknownKey(meant: "sampleRate", known: ["locale", "sampleRate"]).message
                == "unknown key: did you mean sampleRate? (known keys here: locale, sampleRate)")
        #expect(ConfigurationProblem.unknownKey(meant: nil, known: ["a", "b"]).message == "unknown key (known keys here: a, b)")
        #expect(ConfigurationProblem.notWholeNumber(unit: "ms", type: "a number").message == "must be a whole number (ms), not a fraction")
        #expect(ConfigurationProblem.notWholeNumber(unit: "ms", type: "a string").message == "must be a whole number (ms), not a string")
        #expect(
            ConfigurationProblem.numberOutOfRange(number: 5, unit: "dBTP", range: -9...(-0.5)).message == "5 dBTP is out of range (-9 to -0.5)")
        #expect(ConfigurationProblem.notNumber(unit: "", type: "a string").message == "must be a number, not a string")
    }

    @Test func theCatalogsMessages() {
        #expect(
            CatalogProblem.invalidClipName(name: "a b", reason: "only ASCII", ext: "wav", known: nil, taken: nil).message
                == "'a b' is not a valid clip name: only ASCII; rename the file")
        #expect(
            CatalogProblem.invalidClipName(name: "十", reason: "r", ext: "wav", known: "10", taken: nil).message
                == "'十' is not a valid clip name: r; rename it 10.wav (十 is the clip 10)")
        #expect(
            CatalogProblem.invalidClipName(name: "十", reason: "r", ext: "wav", known: "10", taken: "Assets/10.wav").message
                == "'十' is not a valid clip name: r; 十 is the clip 10, which Assets/10.wav already is: keep one of the two takes")
        #expect(
            CatalogProblem.tooLong(seconds: 31, decoded: false).message
                == "is 31.0 s long; iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)")
        #expect(
            CatalogProblem.convertible(ext: "m4a", path: "Assets/my 7.m4a", wav: "Assets/my 7.wav", folder: "Assets").message
                == "is a .m4a recording, which soundset cannot read: convert it to WAV, e.g. ffmpeg -i 'Assets/my 7.m4a' 'Assets/my 7.wav', and move the .m4a out of Assets"
        )
        #expect(
            CatalogProblem.folder(.unsearchable, folder: "Assets").message
                == "cannot be searched (permission denied): give it execute permission, e.g. chmod u+x Assets")
    }

    @Test func theStagesThePipelinesTheMeasurementsAndTheReportsMessages() {
        #expect(StageProblem.changed.message == "changed while the build ran (build again)")
        #expect(StageProblem.unencodable(clause: "the encoder failed").message == "cannot be encoded: the encoder failed")
        #expect(
            PipelineProblem.reportUnmade(subject: "Output/Sounds/7.caf", reason: "has no findings (build again)").message
                == "cannot be made (Output/Sounds/7.caf: has no findings (build again)); build with --no-report to skip it")
        #expect(MeasurementProblem.unreadable(reason: "no such file").message == "cannot be read (no such file): check the path")
        #expect(ReportProblem.unreadable(reason: "bad header").message == "cannot be read for the report (bad header)")
        #expect(ForwardedProblem.failed("is a folder").message == "is a folder")
    }

    /// A problem made of a case stores its subject and message as one made of the same text did:
    /// the memo's findings and `check --format json` read the same bytes.
    @Test func aTypedProblemIsStoredAsItsText() throws {
        let typed = BuildProblem("Output/Sounds/7.caf", ReportProblem.noFindings)
        let said = BuildProblem("Output/Sounds/7.caf", "has no findings (build again)")
        #expect(typed == said)
        #expect(typed.description == "Output/Sounds/7.caf: has no findings (build again)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(typed), as: UTF8.self)
        #expect(json == #"{"message":"has no findings (build again)","subject":"Output\/Sounds\/7.caf"}"#)
    }

    // MARK: - No message composed at a site

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func theScanFindsALiteralMessageAndOnlyThat() {
        #expect(Self.literalMessages(in: #"throw BuildProblem(display, "is broken")"#) == [1])
        #expect(Self.literalMessages(in: "x\nBuildProblem(\n    display,\n    \"is \\(a) broken\")") == [2])
        #expect(Self.literalMessages(in: #"BuildProblem("\(folder)/\(f(x, "y"))", OutputProblem.notASet)"#).isEmpty)
        #expect(Self.literalMessages(in: #"BuildProblem(subject, ForwardedProblem.failed("\(error)"))"#).isEmpty)
        #expect(Self.literalMessages(in: #"func f() throws(BuildProblem) {}"#).isEmpty)
    }

    /// Every `BuildProblem(subject, message)` in Sources/ says a case of its module's problems, or
    /// forwards a text typed elsewhere; none is given a string literal, but the empty message of
    /// `BuildProblem.sentence`, declared beside the initializer.
    @Test func noSiteComposesAMessage() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        var found: [String] = []
        var calls = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            calls += text.components(separatedBy: "BuildProblem(").count - 1
            let allowed = file.lastPathComponent == "BuildProblem.swift" ? ["BuildProblem(text, \"\")"] : []
            let lines = Self.literalMessages(in: text).filter { line in
                !allowed.contains { text.components(separatedBy: "\n")[line - 1].contains($0) }
            }
            found += lines.map { "\(file.path.replacingOccurrences(of: Self.sources.path + "/", with: "")):\($0)" }
        }
        #expect(calls > 60)
        #expect(found.isEmpty, "BuildProblem with a composed message (add a case to the module's problems): \(found)")
    }

    /// The lines (from 1) where a `BuildProblem(` call's second argument is a string literal.
    static func literalMessages(in text: String) -> [Int] { literalArguments(of: "BuildProblem(", argument: 1, in: text) }

    /// The lines (from 1) where a call opening with `call` (`BuildProblem(`) has a string literal as
    /// its argument `n` (from 0): the scan both problem types' tests use.
    static func literalArguments(of call: String, argument n: Int, in text: String) -> [Int] {
        let characters = Array(text)
        let call = Array(call)
        var lines: [Int] = []
        var line = 1
        for index in characters.indices {
            if characters[index] == "\n" { line += 1 }
            guard characters[index...].starts(with: call), index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber) else { continue }
            if let start = argument(n, of: characters, from: index + call.count), start < characters.count, characters[start] == "\"" {
                lines.append(line)
            }
        }
        return lines
    }

    /// Where argument `n` (from 0, at least 1) of a call whose arguments start at `start` begins,
    /// or nil when it has fewer.
    private static func argument(_ n: Int, of characters: [Character], from start: Int) -> Int? {
        var index = start
        var depth = 0
        var commas = 0
        while index < characters.count {
            switch characters[index] {
            case "\"":
                index = afterString(characters, from: index)
                continue
            case "(", "[": depth += 1
            case ")", "]":
                if depth == 0 { return nil }
                depth -= 1
            case "," where depth == 0:
                commas += 1
                if commas == n {
                    var next = index + 1
                    while next < characters.count, characters[next].isWhitespace { next += 1 }
                    return next
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The index after the string literal opening at `start`, over its interpolations.
    private static func afterString(_ characters: [Character], from start: Int) -> Int {
        var index = start + 1
        while index < characters.count {
            switch characters[index] {
            case "\\" where index + 1 < characters.count && characters[index + 1] == "(":
                var depth = 0
                index += 2
                while index < characters.count, depth > 0 || characters[index] != ")" {
                    if characters[index] == "\"" {
                        index = afterString(characters, from: index)
                        continue
                    }
                    if characters[index] == "(" { depth += 1 }
                    if characters[index] == ")" { depth -= 1 }
                    index += 1
                }
                index += 1
            case "\\": index += 2
            case "\"": return index + 1
            default: index += 1
            }
        }
        return index
    }
}
