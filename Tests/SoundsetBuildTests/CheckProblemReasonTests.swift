import Foundation
import SoundsetCheck
import SoundsetSetFolder
import Testing

@testable import SoundsetBuild

/// The check's problems are the cases of each module's enum, each with one message: the texts are
/// the ones the checks composed before (`check --format json` and users' scripts read them), and no
/// `CheckProblem(` in `Sources/` composes a message of its own.
@Suite struct CheckProblemReasonTests {
    @Test func theIntegrityChecksMessages() {
        #expect(IntegrityProblem.missing(rebuild: "soundset build").message == "missing: run soundset build")
        #expect(IntegrityProblem.missing(rebuild: nil).message == "missing")
        #expect(
            IntegrityProblem.link(problem: "is a symbolic link", rebuild: "soundset build").message
                == "is a symbolic link: run soundset build, which replaces the link")
        #expect(
            IntegrityProblem.disagrees(differences: ["3 frames, the manifest says 4", "1 channels, the manifest says 2"], rebuild: nil).message
                == "the file and the manifest disagree (3 frames, the manifest says 4; 1 channels, the manifest says 2)")
    }

    @Test func theFreshnessAndSetChecksMessages() {
        #expect(FreshnessProblem.added(rebuild: "soundset build").message == "was added since the last build: run soundset build")
        #expect(FreshnessProblem.unreadable(reason: nil).message == "cannot be read")
        #expect(FreshnessProblem.unreadable(reason: "permission denied").message == "permission denied")
        #expect(
            SetCheckProblem.overLimit(seconds: 2.5, limit: 2, pattern: "*").message
                == "lasts 2.500 s, over the 2 s limit for '*': re-record it as one word or raise limits.maxSeconds")
        #expect(
            SetCheckProblem.missingClips(locale: "en", missing: ["7", "8"], record: "record them as A/7.wav and A/8.wav", rebuild: "b", nearMisses: "; x")
                .message == "the en reading needs clips the set lacks: 7, 8 (record them as A/7.wav and A/8.wav and run b); x")
    }

    @Test func theBudgetsMessages() {
        #expect(
            BudgetProblem.tooManySteps(amount: "1234", steps: 70, most: 64).message
                == "the announcement of 1234 needs 70 notifications; iOS keeps at most 64 pending")
        let cut = BudgetProblem.BannerCut(amount: "9", seconds: 7, without: nil, banner: 6)
        #expect(
            BudgetProblem.bannerCutStale(cut, rebuild: "soundset build").message
                == "the composed announcement of 9 lasts 7.000 s, over the 6 s banner, which cuts it off: these are the figures of the set as last built, with another soundset.json: run soundset build, then check again"
        )
        let phrased = BudgetProblem.BannerCut(amount: "1234.56", seconds: 7.5, without: "the prefix", banner: 6)
        #expect(
            BudgetProblem.bannerCut(
                phrased, longestWord: .init(name: "thousand", seconds: 0.8), tempo: .fits(tempo: 1.25, builtAt: 1, amount: "999", seconds: 5.9), dropped: "d"
            ).message
                == "the composed announcement of 1234.56 lasts 7.500 s even without the prefix, over the 6 s banner, which cuts it off: record faster takes (its longest word is thousand, 0.800 s), set tempo to 1.25 or lower (the set is at 1; at 1.25 the longest, 999, lasts 5.900 s), set announcement.delivery to auto (a chain when the banner is too short), or lower maxAmount; d"
        )
        #expect(
            BudgetProblem.bannerCut(cut, longestWord: nil, tempo: .noneFits(lowest: 0.7, builtAt: 1, seconds: 6.5), dropped: nil).message
                == "the composed announcement of 9 lasts 7.000 s, over the 6 s banner, which cuts it off; no tempo down to 0.7 fits (the set is at 1; at 0.7 it would last 6.500 s): record faster takes, set announcement.delivery to auto (a chain when the banner is too short), or lower maxAmount"
        )
    }

    @Test func theFolderChecksMessages() {
        #expect(
            FolderCheckProblem.newerSchema(found: 9, supported: 3).message == "schema version 9 is newer than this soundset reads (3): update soundset")
        #expect(
            FolderCheckProblem.differs(ManifestDifference(key: "gapMs", found: "80", expected: "90"), assets: "Assets", rebuild: "b").message
                == "gapMs is 80, but Assets gives 90 (the manifest is made from the recordings and soundset.json, never edited): run b")
        #expect(
            SetReportProblem.namesNoSet(folder: "Output", rebuild: "b").message
                == "names no set (an older soundset wrote it), so it may show another one than Output: run b to write it again")
    }

    /// A problem made of a case stores its check, subject and message as one made of the same text
    /// did: `check --format json` writes the same bytes.
    @Test func aTypedCheckProblemIsStoredAsItsText() throws {
        let typed = CheckProblem(.freshness, "Assets/7.wav", FreshnessProblem.changed(rebuild: "soundset build"))
        let said = CheckProblem(.freshness, "Assets/7.wav", "changed since the last build: run soundset build")
        #expect(typed == said)
        #expect(typed.description == "[freshness] Assets/7.wav: changed since the last build: run soundset build")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(typed) == encoder.encode(said))
    }

    // MARK: - No message composed at a site

    @Test func theScanFindsALiteralMessageAndOnlyThat() {
        #expect(Self.literalMessages(in: #"CheckProblem(.integrity, path, "missing")"#) == [1])
        #expect(Self.literalMessages(in: "x\nCheckProblem(\n    .format, \"\\(a)/b\",\n    \"is \\(a) wrong\")") == [2])
        #expect(Self.literalMessages(in: #"CheckProblem(.integrity, "\(o)/\(f(x, "y"))", IntegrityProblem.unlisted)"#).isEmpty)
        #expect(Self.literalMessages(in: #"CheckProblem(.budget, path, [a, "b"].joined())"#).isEmpty)
        #expect(Self.literalMessages(in: #"var problems: [CheckProblem] = []"#).isEmpty)
    }

    /// Every `CheckProblem(check, subject, message)` in Sources/ says a case of its module's problems,
    /// or forwards a text typed elsewhere (a build's or a configuration's problem); none is given a
    /// string literal.
    @Test func noCheckComposesAMessage() throws {
        let files = try #require(FileManager.default.enumerator(at: ProblemReasonTests.sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        var found: [String] = []
        var calls = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            calls += text.components(separatedBy: "CheckProblem(").count - 1
            found += Self.literalMessages(in: text).map { "\(file.lastPathComponent):\($0)" }
        }
        #expect(calls > 35)
        #expect(found.isEmpty, "CheckProblem with a composed message (add a case to the module's problems): \(found)")
    }

    /// The lines (from 1) where a `CheckProblem(` call's third argument is a string literal.
    static func literalMessages(in text: String) -> [Int] { ProblemReasonTests.literalArguments(of: "CheckProblem(", argument: 2, in: text) }
}
