import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

/// MP3 at the speech rate: the server's bytes are `render`'s, at 16 kHz, as long as the WAV.
@Suite struct ServeMP3Tests {
    /// A folder with a fake zh-CN set in Output at `rate` (prefix `received`).
    private func setFolder(rate: Int) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), rate: rate, prefix: "received")
        return folder
    }

    @Test func theServersMP3IsRendersAtTheSpeechRateAsLongAsTheWAV() throws {
        let folder = try setFolder(rate: 44100)
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        for (amount, query, flags) in [
            ("123.45", "", [String]()), ("7", "?join=file", ["--join", "file"]), ("99999.99", "?prefix=none&whole=1", ["--prefix", "none", "--whole"]),
        ] {
            let served = try server.get("/v1/announcements/\(amount).mp3\(query)")
            #expect(served.status == 200)
            #expect(served.headers["content-type"] == "audio/mpeg")
            let rendered = try SoundsetExecutable.run(["render", amount, "--out", "a.mp3"] + flags, in: folder.url)
            #expect(rendered.status == 0, "\(rendered.stderr)")
            #expect(rendered.stdout.hasPrefix("wrote a.mp3 (mp3, 16000 Hz): "), "\(rendered.stdout)")
            // One code path: byte for byte.
            #expect(served.body == (try Data(contentsOf: folder.url.appendingPathComponent("a.mp3"))), "\(amount)\(query)")

            let decoded = try SoundFile.open(bytes: served.body, path: "a.mp3")
            #expect(decoded.info.sampleRate == AnnouncementMP3.sampleRate)
            #expect(decoded.info.channels == 1)
            let mp3Frames = try decoded.readAll().count
            let wav = try SoundFile.open(bytes: try server.get("/v1/announcements/\(amount).wav\(query)").body, path: "a.wav")
            #expect(wav.info.sampleRate == 44100)
            // The same length to a frame of each: LAME's Info frame gives the decoder the encoder's
            // delay (576 + 529 frames) and the last granule's padding, which libsndfile (mpg123)
            // trims, so what it reads is the composed 16 kHz samples exactly; those are the WAV's
            // clips and gaps each scaled and rounded to 16 kHz, so they differ from the WAV's length
            // scaled by under a frame for each clip, gap and the lead-in. A decoder ignoring the
            // Info frame would add up to 1105 + 575 frames, an MP3 frame and a bit (105 ms).
            let scaled = Double(wav.info.frames) * 16000 / 44100
            let steps = try #require(try? AnnouncementRenderer.plan(Amount(amount), options: optionsOf(query), set: servedSet(folder)).plan.steps.count)
            #expect(abs(Double(mp3Frames) - scaled) <= Double(2 * steps + 1), "\(mp3Frames) frames at 16 kHz for \(wav.info.frames) at 44.1 kHz")
        }
    }

    @Test func theSpeechRateFollowsTheSet() {
        #expect(AnnouncementMP3.rate(forSetRate: 48000) == 16000)
        #expect(AnnouncementMP3.rate(forSetRate: 22050) == 16000)
        #expect(AnnouncementMP3.rate(forSetRate: 16000) == 16000)
        #expect(AnnouncementMP3.rate(forSetRate: 11025) == 11025)
        #expect(AnnouncementMP3.rate(forSetRate: 10000) == 11025)
        #expect(AnnouncementMP3.rate(forSetRate: 8000) == 8000)
    }

    @Test func theClipsAreResampledOnceWhenTheSetIsLoaded() throws {
        let folder = try setFolder(rate: 48000)
        defer { folder.remove() }
        let served = try servedSet(folder)
        let clips = try served.speechClips.get()
        #expect(clips.rate == 16000)
        // Every file the manifest lists, copies too, at 16 kHz, its length the manifest's scaled.
        let files = served.set.manifest.clips.flatMap { [$0.file] + ($0.copy.map { [$0] } ?? []) }
        #expect(Set(clips.clips.keys) == Set(files))
        for clip in served.set.manifest.clips {
            let sound = try #require(clips.clips[clip.file])
            #expect(sound.format.sampleRate == 16000)
            #expect(sound.frames == Int((Double(clip.frames) / 3).rounded()))
        }
        // An MP3 of the set composes from them: the 16 kHz composition is as long as the plan, scaled.
        let played = try AnnouncementRenderer.plan(Amount("2.22"), options: AnnouncementOptions(), set: served)
        let composed = try SoundData(parsing: try clips.composed(played), name: "a.wav")
        #expect(abs(Double(composed.frames) - Double(played.frames) / 3) <= Double(2 * played.plan.steps.count + 1))
    }

    @Test func encodesWaitOnTheWorkersWhileEverythingElseIsAnswered() throws {
        let folder = try setFolder(rate: 48000)
        defer { folder.remove() }
        // One thread answering, one encoding: an encode on the answering thread would hold up
        // every answer behind it.
        let server = try ServingSoundset(["--quiet", "--threads", "1"], in: folder.url)
        defer { _ = server.stop() }
        let cached = try server.get("/v1/announcements/5.wav")
        let etag = try #require(cached.headers["etag"])
        // 120 long announcements never made before, each on its own connection, all sent first.
        let encodes = try (0..<120).map { index -> HTTPConnection in
            let connection = try HTTPConnection(port: server.port)
            try connection.request("/v1/announcements/\(98_765_400 + index).99.mp3?whole=1")
            return connection
        }
        // Meanwhile: health, a cached announcement, a 304, a HEAD of an MP3 not made yet.
        let quick = try HTTPConnection(port: server.port)
        try quick.request("/healthz")
        #expect(try quick.reply().status == 200)
        try quick.request("/v1/announcements/5.wav")
        #expect(try quick.reply().body == cached.body)
        try quick.request("/v1/announcements/5.wav", headers: ["If-None-Match": etag])
        #expect(try quick.reply().status == 304)
        let head = try HTTPConnection(port: server.port)
        try head.request("/v1/announcements/77.77.mp3", method: "HEAD")
        let headReply = try head.reply(toHead: true)
        // Every one of them answered before the last encode is done: ordering, not timing.
        let encoded = encodes.filter { $0.replyArrived() }.count
        #expect(encoded < encodes.count, "all \(encodes.count) encodes were done before the quick answers")
        // The HEAD did not encode: no length (it is known once encoded), and its connection ends.
        #expect(headReply.status == 200)
        #expect(headReply.headers["content-type"] == "audio/mpeg")
        #expect(headReply.headers["content-length"] == nil)
        #expect(headReply.headers["transfer-encoding"] == nil)
        #expect(headReply.headers["connection"]?.lowercased() == "close")
        #expect(head.closedByPeer())
        // Every encode answered, each with its own MP3.
        let replies = try encodes.map { try $0.reply() }
        #expect(replies.filter { $0.status == 200 && $0.headers["content-type"] == "audio/mpeg" }.count == encodes.count)
        #expect(Set(replies.map(\.body)).count == encodes.count)
        // Once made, a HEAD has the length of the GET's body.
        let made = try server.get("/v1/announcements/77.77.mp3")
        let headAgain = try server.get("/v1/announcements/77.77.mp3", method: "HEAD")
        #expect(headAgain.headers["content-length"] == String(made.body.count))
    }

    private func servedSet(_ folder: TemporaryDirectory) throws -> ServedSet {
        let source = SetSource(output: folder.url.appendingPathComponent("Output"), display: "Output")
        return try source.current().get()
    }

    private func optionsOf(_ query: String) throws -> AnnouncementOptions {
        guard query.hasPrefix("?") else { return AnnouncementOptions() }
        let pairs = query.dropFirst().split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        }
        return try AnnouncementOptions(query: pairs)
    }
}
