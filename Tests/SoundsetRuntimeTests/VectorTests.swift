import Foundation
import SoundsetRuntime
import Testing

/// The shared amount → clip sequence examples (a copy of ../shared/vectors, kept in the repository).
enum Vectors {
    static func rows(_ file: String) -> [[String]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors/\(file)")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { $0.split(separator: "\t").map(String.init) }
    }
}

@Suite struct VectorTests {
    @Test(arguments: Vectors.rows("zh-CN.tsv"))
    func zhCN(row: [String]) throws {
        let amount = try Amount(row[0])
        let tokens = ChineseReading.tokens(for: amount)
        #expect(tokens.map(\.symbol).joined(separator: ",") == row[1])
        #expect(CopyRule.apply(tokens.map(\.clipName)).joined(separator: ",") == row[2])
    }

    @Test(arguments: Vectors.rows("en-US.tsv"))
    func enUS(row: [String]) throws {
        if row[1] == "REJECT" {
            #expect(throws: AmountError.self) { try Amount(row[0]) }
        } else {
            #expect(CopyRule.apply(EnglishReading.clips(for: try Amount(row[0]))).joined(separator: ",") == row[1])
        }
    }

    @Test func vectorsAreThere() {
        #expect(Vectors.rows("zh-CN.tsv").count >= 25)
        #expect(Vectors.rows("en-US.tsv").count >= 10)
    }
}
