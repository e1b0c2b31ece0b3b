import Foundation

// libFuzzer target: any bytes given to the manifest decoder either decode or throw, and a decoded
// manifest plans an amount, searches its longest announcement and re-encodes without trapping.
// Seeds (Fuzz/Corpus/manifest) include the hand edits that once trapped or escaped Sounds/: a
// traversing file name, Int.max frames, a zero rate, a negative gap, duplicated and shared entries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let manifest = try? Manifest.decode(bytes) {
        precondition(manifest.problem == nil)
        let planner = Planner(manifest: manifest)
        for text in ["22222.22", "0", "99999999.99"] {
            if let plan = try? planner.plan(try! Amount(text)) {
                precondition(plan.totalFrames >= 0)
                _ = try? NotificationSchedule(plan: plan, announcementID: "fuzz")
            }
        }
        let frames = Dictionary(manifest.clips.map { ($0.name, $0.frames) }, uniquingKeysWith: { a, _ in a })
        _ = LongestAnnouncement.search(
            upTo: try! Amount("99999999.99"), locale: manifest.locale, reading: manifest.reading ?? ReadingOptions(),
            prefix: manifest.announcement?.prefix, suffix: manifest.announcement?.suffix, frames: frames, gapFrames: 0, objective: .duration)
        let again = try? Manifest.decode(try manifest.encoded())
        precondition(again != nil)
    }
    return 0
}
