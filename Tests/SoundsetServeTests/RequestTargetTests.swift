import Foundation
import Testing

@testable import SoundsetServe

@Suite struct RequestTargetTests {
    @Test func segmentsAndQueryAreDecodedOnce() throws {
        let target = try RequestTarget("/v1/announcements/123.45.mp3?prefix=received&whole=1&join")
        #expect(target.segments == ["v1", "announcements", "123.45.mp3"])
        #expect(target.query.map(\.name) == ["prefix", "whole", "join"])
        #expect(target.query.map(\.value) == ["received", "1", ""])
        // %2541 is "%41" once decoded, never "A".
        #expect(try RequestTarget("/v1/plan/%2541").segments == ["v1", "plan", "%41"])
        #expect(try RequestTarget("/v1/plan/%31%2E5").segments == ["v1", "plan", "1.5"])
    }

    @Test func dotSegmentsAndEncodedSlashesStaySegments() throws {
        // Nothing joins a segment to a folder: ".." and "a/b" are just text that no route names.
        #expect(try RequestTarget("/v1/../healthz").segments == ["v1", "..", "healthz"])
        #expect(try RequestTarget("/v1/%2e%2e/%2E%2E/etc%2Fpasswd").segments == ["v1", "..", "..", "etc/passwd"])
        #expect(try RequestTarget("//healthz").segments == ["", "healthz"])
    }

    @Test(arguments: [
        ("/v1/plan/1%00.mp3", RequestTarget.Problem.badEscape("a control character")),
        ("/v1/plan/1%0a", .badEscape("a control character")),
        ("/v1/plan/%zz", .badEscape("a '%' not followed by two hex digits")),
        ("/v1/plan/1%4", .badEscape("a '%' not followed by two hex digits")),
        ("/v1/plan/%", .badEscape("a '%' not followed by two hex digits")),
        ("/v1/plan/%C0%AF", .badEscape("bytes that are not UTF-8")),  // an overlong "/"
        ("/v1/plan/%ff", .badEscape("bytes that are not UTF-8")),
        ("/healthz?x=%00", .badEscape("a control character")),
        ("*", .notAPath),
        ("http://example.com/healthz", .notAPath),
        ("", .notAPath),
    ])
    func refusedTargets(target: String, problem: RequestTarget.Problem) {
        #expect(throws: problem) { try RequestTarget(target) }
    }

    @Test func lengthLimitIsExact() throws {
        let longest = "/v1/plan/" + String(repeating: "1", count: RequestTarget.maxBytes - 9)
        #expect(longest.utf8.count == 2048)
        #expect(try RequestTarget(longest).segments.count == 3)
        #expect(throws: RequestTarget.Problem.tooLong(2049)) { try RequestTarget(longest + "1") }
    }
}
