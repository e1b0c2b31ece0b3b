import Foundation
import SoundsetTestSupport
import Testing

@Suite struct CheckCommandTests {
    func builtSet() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try AssetPacks.completeChinese(in: try folder.folder("Assets"))
        let build = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        return folder
    }

    @Test func passesFailsAndAnnotates() throws {
        let folder = try builtSet()
        defer { folder.remove() }
        let pass = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(pass.status == 0, "\(pass.stdout)")
        #expect(pass.stdout.hasPrefix("check passed: 18 clips; longest announcement up to 99999999.99 is "))
        #expect(pass.stdout.contains(" steps (budget 25 s); most steps 20 (limit 64); composed "))
        #expect(pass.stdout.hasSuffix(" s (banner 5 s)\n"), "\(pass.stdout)")

        let json = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["ok"] as? Bool == true)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
        let budget = try #require(object["budget"] as? [String: Any])
        for key in ["worstAmount", "seconds", "steps", "limitSeconds"] { #expect(budget[key] != nil, "\(key)") }
        let composed = try #require(budget["composed"] as? [String: Any])
        #expect(composed["limitSeconds"] as? Double == 5)
        #expect((composed["seconds"] as? Double ?? 99) <= 5)
        #expect(composed["amount"] as? String == budget["worstAmount"] as? String)
        #expect(composed["prefixDroppedFrom"] == nil)

        try WAVFile.write(Takes.word().samples, to: folder.url.appendingPathComponent("Assets/7.wav"), rate: 16000)
        let fail = try SoundsetExecutable.run(["check"], in: folder.url, environment: ["GITHUB_ACTIONS": "false"])
        #expect(fail.status == 1)
        #expect(fail.stdout.hasPrefix("[freshness] Assets/7.wav: changed since the last build: run soundset build --assets Assets --output Output\ncheck failed: 1 problem; "))
        let annotated = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url, environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.status == 1)
        #expect(
            annotated.stdout.hasPrefix("::error file=Assets/7.wav,title=soundset freshness::Assets/7.wav: changed since the last build: run soundset build --assets Assets --output Output\n{"))
    }

    @Test func badUsageExits64() throws {
        let result = try SoundsetExecutable.run(["check", "--format", "yaml"])
        #expect(result.status == 64)
        #expect(result.stderr == "soundset: --format must be text or json\nrun 'soundset check --help' for usage\n")
        let help = try SoundsetExecutable.run(["check", "--help"])
        for word in [
            "--assets DIR", "--output DIR", "--format text|json", "integrity", "freshness", "durations", "format", "completeness", "budget", "GITHUB_ACTIONS",
        ] {
            #expect(help.stdout.contains(word), "\(word)")
        }
    }
}
