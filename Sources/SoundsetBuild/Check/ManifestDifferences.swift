import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// One value of a manifest that is not what the build makes of the same recordings and settings.
public struct ManifestDifference: Sendable, Equatable {
    /// Its key path: `announcement.bannerSeconds`, `clips[7].speech.end`.
    public var key: String
    /// The value as the manifest has it, as JSON (`absent` when it has none).
    public var found: String
    /// The value the build gives, as JSON (`absent` when it gives none).
    public var expected: String
}

/// Where a manifest differs from the one the build makes (`BuildPipeline.derive`): a manifest is
/// derived data, so every value it records is compared, by its key, whatever the key (one added to
/// the manifest later is compared too). Clips are matched by name.
package enum ManifestDifferences {
    package static func between(_ found: Manifest, _ expected: Manifest) -> [ManifestDifference] {
        guard found != expected else { return [] }
        guard let a = tree(found), let b = tree(expected) else { return [ManifestDifference(key: "manifest", found: "?", expected: "?")] }
        var differences: [ManifestDifference] = []
        walk(a, b, path: "", into: &differences)
        return differences
    }

    /// The manifest as the JSON it is written as.
    private static func tree(_ manifest: Manifest) -> Any? {
        (try? manifest.encoded()).flatMap { try? JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed]) }
    }

    private static func walk(_ a: Any?, _ b: Any?, path: String, into differences: inout [ManifestDifference]) {
        switch (a, b) {
        case let (x as [String: Any], y as [String: Any]):
            for key in Set(x.keys).union(y.keys).sorted() {
                walk(x[key], y[key], path: path.isEmpty ? key : "\(path).\(key)", into: &differences)
            }
        case let (x as [Any], y as [Any]):
            let named = { (list: [Any]) in list.compactMap { ($0 as? [String: Any])?["name"] as? String } }
            if named(x).count == x.count, named(y).count == y.count {
                let xs = Dictionary(zip(named(x), x), uniquingKeysWith: { a, _ in a })
                let ys = Dictionary(zip(named(y), y), uniquingKeysWith: { a, _ in a })
                var names = named(x)
                names += named(y).filter { xs[$0] == nil }
                for name in names { walk(xs[name], ys[name], path: "\(path)[\(ClipName.printable(name))]", into: &differences) }
            } else {
                for index in 0..<max(x.count, y.count) {
                    walk(index < x.count ? x[index] : nil, index < y.count ? y[index] : nil, path: "\(path)[\(index)]", into: &differences)
                }
            }
        default:
            let found = text(a), expected = text(b)
            if found != expected { differences.append(ManifestDifference(key: path, found: found, expected: expected)) }
        }
    }

    /// A value as JSON text, on one line.
    private static func text(_ value: Any?) -> String {
        guard let value else { return "absent" }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else { return "\(value)" }
        return ClipName.printable(String(decoding: data, as: UTF8.self))
    }
}
