import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// In every JSON soundset prints, times are rounded to the millisecond and `id` is null when the
/// push carried none.
@Suite struct JSONOutputTests {
    /// Numbers with more than three decimals in `text`.
    static func longFractions(_ text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: #"-?[0-9]+\.[0-9]{4,}"#)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
    }

    @Test func announceRoundsItsTimesAndHasNoIDOfItsOwn() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // At 44.1 kHz no clip lasts a whole number of milliseconds.
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), rate: 44100, prefix: "received", gapMs: 0)
        let result = try SoundsetExecutable.run(["announce", "12.5", "--group", "G", "--now", "43205.1026077", "--format", "json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.longFractions(result.stdout) == [])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["id"] is NSNull)
        #expect(object["start"] as? Double == 43205.103)
        #expect((object["key"] as? String)?.isEmpty == false)
        // Read back, the decision's id is its key again.
        let decision = try JSONDecoder().decode(AnnouncementDecision.self, from: Data(result.stdout.utf8))
        #expect(decision.id == decision.key)
        #expect(decision.transactionID == nil)

        let chain = try SoundsetExecutable.run(
            ["announce", "12.5", "--group", "G", "--now", "43300.1026077", "--id", "tx-1", "--delivery", "chain", "--format", "json"], in: folder.url)
        #expect(Self.longFractions(chain.stdout) == [])
        #expect(chain.stdout.contains(#""id" : "tx-1""#) || chain.stdout.contains(#""id": "tx-1""#))
        #expect(chain.stdout.contains(#""at""#))
    }

    @Test func planAndCheckRoundTheirTimes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), rate: 44100, prefix: "received", gapMs: 0)
        let plan = try SoundsetExecutable.run(["plan", "98765.43", "--format", "json"], in: folder.url)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(Self.longFractions(plan.stdout) == [])
        let decoded = try JSONDecoder().decode(AnnouncementPlan.self, from: Data(plan.stdout.utf8))
        #expect(decoded.totalSeconds == (Double(decoded.totalFrames) / 44100 * 1000).rounded() / 1000)
    }
}
