import Foundation
import SoundsetTestSupport
import Testing

@Suite struct MeasureCommandTests {
    @Test func measuresFilesLikeTheBuild() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // 1 kHz sines at -20 and -26 dBFS: -23.01 and -29.00 LUFS, true peaks -20 and -26 dBTP.
        try WAVFile.write(
            Signals.tone(1000, seconds: 0.5, rate: 48000, amplitudeDb: -20), to: folder.url.appendingPathComponent("a.wav"), rate: 48000, format: .float32)
        try WAVFile.write(
            Signals.tone(1000, seconds: 0.3, rate: 48000, amplitudeDb: -26), to: folder.url.appendingPathComponent("b.wav"), rate: 48000, format: .float32)
        let result = try SoundsetExecutable.run(["measure", "a.wav", "b.wav"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "   0.500 s  -23.00 LUFS  -20.00 dBTP  a.wav",
                "   0.300 s  -29.00 LUFS  -26.00 dBTP  b.wav",
                "2 files: loudness -29.00 to -23.00 LUFS (spread 6.00 LU), worst true peak -20.00 dBTP",
            ])
        let json = try SoundsetExecutable.run(["measure", "--format", "json", "a.wav"], in: folder.url)
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(entries.count == 1)
        #expect(abs((entries[0]["loudness"] as! Double) - -23.01) < 0.01)
        // Printed lengths are to the millisecond: 16001 frames at 48 kHz are 0.333354… s.
        try WAVFile.write(
            Array(Signals.tone(1000, seconds: 1, rate: 48000, amplitudeDb: -20).prefix(16001)), to: folder.url.appendingPathComponent("d.wav"), rate: 48000,
            format: .float32)
        let odd = try SoundsetExecutable.run(["measure", "--format", "json", "d.wav"], in: folder.url)
        let measured = try JSONSerialization.jsonObject(with: Data(odd.stdout.utf8)) as! [[String: Any]]
        #expect(measured[0]["seconds"] as? Double == 0.333)

        try Data("no".utf8).write(to: folder.url.appendingPathComponent("c.wav"))
        let bad = try SoundsetExecutable.run(["measure", "a.wav", "c.wav"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: c.wav: cannot be read as audio: "))
        #expect(bad.stdout.hasPrefix("   0.500 s  -23.00 LUFS"))
        let usage = try SoundsetExecutable.run(["measure"], in: folder.url)
        #expect(usage.status == 64)
        #expect(usage.stderr == "soundset: measure needs one or more FILEs\nrun 'soundset measure --help' for usage\n")
    }
}
