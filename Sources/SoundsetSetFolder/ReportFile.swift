import Foundation
import SoundsetRuntime

/// A report page's file as the set's folder knows it: where soundset 0.8 wrote it, inside the set
/// (the build moves it out; the check names it), and how a page soundset wrote is recognised by
/// its head. The report itself is drawn elsewhere (`Report`).
package enum ReportFile {
    /// Where soundset 0.8 wrote the report, inside the set: the build moves it out.
    package static let legacyFileName = "report.html"

    /// Every report soundset wrote has this title.
    package static let title = "<title>soundset report</title>"

    /// The first 4 KiB of the file at `url`, which hold a report's head tags, or nil when there is none.
    package static func head(of url: URL) -> Data? { try? RegularFile.head(url, count: 4096).bytes }

    /// Whether soundset wrote the page whose beginning is `html`.
    package static func isSoundsetReport(_ html: Data) -> Bool { head(html).contains(title) }

    /// The text of the head before `</head>` (the head's tags come first; its end may lie past the
    /// first 4 KiB, after the style sheet).
    package static func head(_ html: Data) -> Substring {
        let text = String(decoding: html.prefix(4096), as: UTF8.self)
        let end = text.range(of: "</head>", options: .caseInsensitive)?.lowerBound ?? text.endIndex
        return text[..<end]
    }
}
