import Foundation
import SoundsetTestSupport

/// What the suites that run `soundset serve` over real sockets share: the folder they serve and the
/// reading of its access log.
protocol ServedFolderTests {}

extension ServedFolderTests {
    /// A temporary folder whose `Output` holds a small set with the prefix `received`.
    func setFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received")
        return folder
    }

    /// The access lines' requests in `stderr`: each line without its time, client and request id
    /// (the first three fields), so `GET /v1/plan/2 200 …` is matched from its start.
    func accessLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("soundset: ") }.map { line in
            line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).last ?? line
        }
    }
}
