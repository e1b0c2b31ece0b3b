import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// Callers branch on what kind of failure it was, never on its words.
@Suite struct RegularFileTests {
    @Test func failuresSayTheirKind() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("file")
        try Data(count: 100).write(to: file)
        func kind(_ body: () throws -> Void) -> RegularFile.Failure.Kind? {
            do { try body() } catch { return (error as? RegularFile.Failure)?.kind }
            return nil
        }
        #expect(kind { _ = try RegularFile.read(folder.url.appendingPathComponent("nothing"), maxBytes: 10) } == .missing)
        #expect(kind { _ = try RegularFile.head(folder.url.appendingPathComponent("nothing"), count: 4) } == .missing)
        #expect(kind { _ = try RegularFile.read(folder.url, maxBytes: 10) } == .notRegularFile)
        #expect(kind { _ = try RegularFile.read(file, maxBytes: 10) } == .tooLarge)
        let link = folder.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(kind { _ = try RegularFile.read(link, maxBytes: 1000, followingLinks: false) } == .symbolicLink)
        #expect(kind { _ = try RegularFile.read(link, maxBytes: 1000) } == nil)
        // The words stay what they were: they are what messages say.
        do { _ = try RegularFile.read(folder.url.appendingPathComponent("nothing"), maxBytes: 10) } catch { #expect(error.reason == "is missing") }
        #expect(RegularFile.Failure.missing == RegularFile.Failure(reason: "is missing", kind: .missing))
    }
}
