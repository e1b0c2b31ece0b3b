import Foundation
import Testing

/// The modules' arrows point one way, as Package.swift declares them and its header comment and
/// docs/architecture.md draw them: every `import` of a module of the package in `Sources/<Module>`
/// is of a module it depends on (directly or not), and every declared dependency is of a module
/// on a lower layer. The runtime (what an iOS app imports) imports Foundation and the system only.
@Suite struct PackageLayeringTests {
    /// The layers, bottom first: a module may depend only on modules of lower layers. Package.swift's
    /// header comment draws the same.
    static let layers: [[String]] = [
        ["CSndFile", "CSampleRate", "CEBUR128", "CCrypto", "CRubberBand", "CMicroHTTPD", "CLame", "CSystem"],
        ["SoundsetRuntime"],
        ["SoundsetBudget"],
        ["SoundsetAudio"],
        ["SoundsetSetFolder"],
        ["SoundsetFindings"],
        ["SoundsetReport"],
        ["SoundsetBuild"],
        ["SoundsetCheck"],
        ["SoundsetServe"],
        ["SoundsetMicroHTTPD"],
        ["SoundsetCLI"],
        ["soundset"],
    ]

    /// What any module may import: the toolchain's and the system's modules, not the package's.
    static let system: Set<String> = ["Foundation", "Dispatch", "Synchronization", "Glibc", "Darwin", "CryptoKit", "Testing", "XCTest"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func layer(of module: String) -> Int? { layers.firstIndex { $0.contains(module) } }

    /// Each target of `manifest` (Package.swift's text) with the targets it names as dependencies
    /// and the folder of its sources (`path:`, else `Sources/<name>`, or `Tests/<name>` for a test target).
    static func targets(in manifest: String) -> [String: (dependencies: [String], path: String)] {
        let declaration = try! NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let text = manifest as NSString
        let matches = declaration.matches(in: manifest, range: NSRange(location: 0, length: text.length))
        var targets: [String: (dependencies: [String], path: String)] = [:]
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.location : text.length
            let body = text.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            let name = text.substring(with: match.range(at: 2))
            var dependencies: [String] = []
            if let list = body.range(of: #"dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
                dependencies = quoted(in: String(body[list]))
            }
            let folder = text.substring(with: match.range(at: 1)) == "testTarget" ? "Tests" : "Sources"
            let path = body.range(of: #"path:\s*"[^"]+""#, options: .regularExpression).flatMap { quoted(in: String(body[$0])).first } ?? "\(folder)/\(name)"
            targets[name] = (dependencies, path)
        }
        return targets
    }

    static func quoted(in text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The modules a Swift source imports (`import X`, `internal import X`, `@testable import X`,
    /// `import struct X.Y`…), indented ones (under `#if canImport`) too; comments left out.
    static func imports(in source: String) -> [String] {
        source.split(separator: "\n").compactMap { line -> String? in
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return path.split(separator: ".").first.map(String.init)
        }
    }

    /// Every module `name` depends on, directly or through others.
    static func below(_ name: String, in targets: [String: (dependencies: [String], path: String)]) -> Set<String> {
        var found: Set<String> = []
        var next = targets[name]?.dependencies ?? []
        while let module = next.popLast() {
            if found.insert(module).inserted { next += targets[module]?.dependencies ?? [] }
        }
        return found
    }

    /// The imports in the Swift sources under `folder` of package modules that `module` may not
    /// import (not among `allowed`), as `file: import X`.
    static func wrongImports(under folder: URL, module: String, allowed: Set<String>, packageModules: Set<String>) -> [String] {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return files.sorted { $0.path < $1.path }.flatMap { file in
            let source = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return imports(in: source).filter { packageModules.contains($0) && $0 != module && !allowed.contains($0) }.map {
                "\(file.path.replacingOccurrences(of: root.path + "/", with: "")): import \($0)"
            }
        }
    }

    static func packageTargets() throws -> [String: (dependencies: [String], path: String)] {
        targets(in: try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    @Test func everyModuleOfSourcesIsOnALayer() throws {
        let modules = try Self.packageTargets().filter { $0.value.path.hasPrefix("Sources/") }.keys
        #expect(modules.count >= 15)
        #expect(modules.filter { Self.layer(of: $0) == nil }.sorted() == [])
    }

    @Test func declaredDependenciesPointDown() throws {
        let targets = try Self.packageTargets()
        var upward: [String] = []
        for (name, target) in targets where target.path.hasPrefix("Sources/") {
            guard let layer = Self.layer(of: name) else { continue }
            for dependency in target.dependencies where (Self.layer(of: dependency) ?? Int.max) >= layer {
                upward.append("\(name) -> \(dependency)")
            }
        }
        #expect(upward.sorted() == [])
    }

    @Test func everyImportIsOfAModuleBelow() throws {
        let targets = try Self.packageTargets()
        let packageModules = Set(targets.keys)
        var wrong: [String] = []
        for (name, target) in targets where target.path.hasPrefix("Sources/") {
            wrong += Self.wrongImports(
                under: Self.root.appendingPathComponent(target.path), module: name, allowed: Self.below(name, in: targets), packageModules: packageModules)
        }
        #expect(wrong.sorted() == [])
    }

    /// The process ends at once only where main says so: no library calls `_exit` (or `exit`) itself;
    /// main.swift hands its `_exit` to the command line, which hands it to the signal handler.
    @Test func onlyMainEndsTheProcess() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 100)
        var calling: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.range(of: #"(^|[^A-Za-z0-9_.])(_exit|exit)\("#, options: .regularExpression) != nil {
                    calling.append(file.path.replacingOccurrences(of: sources.path + "/", with: ""))
                }
            }
        }
        #expect(Set(calling) == ["soundset/main.swift"], "\(calling)")
    }

    /// The runtime is what an iOS app imports: Foundation (CryptoKit on Apple platforms) and the system, nothing else.
    @Test func runtimeImportsFoundationOnly() throws {
        let targets = try Self.packageTargets()
        #expect(targets["SoundsetRuntime"]?.dependencies == [])
        let folder = Self.root.appendingPathComponent("Sources/SoundsetRuntime")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 10)
        let imported = Set(files.flatMap { Self.imports(in: (try? String(contentsOf: $0, encoding: .utf8)) ?? "") })
        #expect(imported.subtracting(["Foundation", "CryptoKit", "Glibc", "Darwin"]).sorted() == [])
    }

    /// The scan finds an import of a module above, whatever its spelling: the checks above can fail.
    @Test func anImportOfAModuleAboveIsFound() throws {
        let targets = try Self.packageTargets()
        let source = """
            import Foundation
            // import SoundsetCLI (a comment is no import)
            @testable import SoundsetServe
            #if canImport(Glibc)
                internal import SoundsetCLI
            #endif
            import struct SoundsetBuild.BuildOptions
            """
        #expect(Self.imports(in: source) == ["Foundation", "SoundsetServe", "SoundsetCLI", "SoundsetBuild"])
        let allowed = Self.below("SoundsetSetFolder", in: targets)
        #expect(allowed.contains("SoundsetRuntime"))
        #expect(!allowed.contains("SoundsetBuild"))
        let above = Self.imports(in: source).filter { targets[$0] != nil && !allowed.contains($0) }
        #expect(above == ["SoundsetServe", "SoundsetCLI", "SoundsetBuild"])
        // Serve is not above the build, nor does it depend on it: it links the set folder only.
        #expect(!Self.below("SoundsetServe", in: targets).contains("SoundsetBuild"))
        // The report draws findings: it reaches neither the build (the assets, the memo, the preparer) nor the check.
        #expect(Self.below("SoundsetReport", in: targets).isDisjoint(with: ["SoundsetBuild", "SoundsetCheck"]))
    }
}
