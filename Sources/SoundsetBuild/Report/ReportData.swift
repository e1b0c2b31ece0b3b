import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Everything the report shows about one clip.
struct ClipReport: Sendable {
    var name: String
    var sourceFile: String
    var sourceRate: Int
    var sourceSeconds: Double
    var sourceWave: Waveform
    /// The kept region and the sound inside it, as fractions of the source's length.
    var keep: ClosedRange<Double>
    var sound: ClosedRange<Double>
    var outputWave: Waveform
    var outputSeconds: Double
    var loudnessBefore: Double
    var clip: Manifest.Clip
    var noiseFloorDb: Double
    var warnings: [String]
    /// The output clip as a 16-bit WAV, for the page's audio player.
    var wav: Data
}

/// A sample announcement composed with the runtime, as the phone plays it (`PlayedAnnouncement`).
struct AnnouncementSample: Sendable {
    var plan: AnnouncementPlan
    var wav: Data
    /// How what plays differs from the whole announcement, in one line, or nil.
    var note: String? = nil
}

/// The report's content, gathered from Assets, Output and the check.
struct ReportData: Sendable {
    var manifest: Manifest
    var configuration: Configuration
    var clips: [ClipReport]
    var announcements: [AnnouncementSample]
    var announcementProblems: [String]
    var check: CheckReport
    /// The set this one replaced, when the report is the build's: its clips that changed get a badge.
    var previous: Manifest?

    /// What changed since `previous`; nil without a previous set (a first build, or `soundset
    /// report` on a set already built), when nothing is compared.
    var changes: BuildChanges? { previous.map { BuildChanges(manifest, replacing: $0) } }
}

/// Reads what the report shows: the manifest, each source and output clip, the trim decisions and
/// loudness before normalisation as the build recorded them (its memo's summaries), sample
/// announcements.
enum ReportGatherer {
    /// - Parameters:
    ///   - output: the set's folder (a build's staging folder, when the build writes the report).
    ///   - summaries: what preparing each clip found, by clip name, when the caller has it (a
    ///     build); otherwise the memo's, or prepared again.
    ///   - previous: the set a build replaces.
    ///   - check: what the check says of the set.
    static func gather(
        assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, summaries: [String: ClipSummary] = [:], previous: Manifest? = nil,
        check: CheckReport, spelling: CommandSpelling = .installed
    ) throws -> ReportData {
        let rebuild = Checker.rebuildCommand(assetsDisplay: assetsDisplay, outputDisplay: outputDisplay, spelling: spelling)
        let manifest: Manifest
        do { manifest = try Manifest.load(from: output.appendingPathComponent(SoundSetLayout.manifestName)) } catch {
            throw BuildProblem("\(outputDisplay)/\(SoundSetLayout.manifestName)", "missing or unreadable: run \(rebuild) first")
        }
        let configPath = "\(assetsDisplay)/\(ConfigurationLoader.fileName)"
        let configuration = try ConfigurationLoader.load(from: assets.appendingPathComponent(ConfigurationLoader.fileName), displayPath: configPath)
        guard configuration.hash == manifest.configurationHash else {
            throw BuildProblem(configPath, "changed since the set was built: run \(rebuild)")
        }
        let sounds = output.appendingPathComponent(SoundSetLayout.soundsName)
        let memo = DiskMemo(output: output.standardizedFileURL)
        let configurationHash = configuration.hash
        // Each clip's recording and file are read and drawn on every core at once.
        var clips = try manifest.clips.parallelMap { clip throws -> ClipReport in
            let sourceURL = assets.appendingPathComponent(clip.source.file)
            let display = "\(assetsDisplay)/\(ClipName.printable(clip.source.file))"
            // The recording as it was built: its bytes read once, hashed, and decoded from memory.
            let bytes: Data
            do { bytes = try RegularFile.read(sourceURL, maxBytes: PrepareStage.maxRecordingBytes) } catch let failure as RegularFile.Failure {
                throw BuildProblem(display, failure.reason)
            }
            guard SHA256.hex(bytes) == clip.source.sha256 else { throw BuildProblem(display, "changed since the set was built: run \(rebuild)") }
            let source = try SoundFile.open(bytes: bytes, path: display)
            let mono = Mono.mixDown(try source.readAll(), channels: source.info.channels)
            let recording = Recording(name: clip.name, fileName: clip.source.file, url: sourceURL, displayPath: display, info: source.info)
            let key = ClipKey.of(sourceSHA256: clip.source.sha256, configurationHash: configurationHash)
            // What the build found, from its memo; prepared again when the memo does not have it
            // (a fresh clone with the set committed, a cache removed, a build with --no-cache).
            let prepared: ClipSummary
            if let known = summaries[clip.name], known.sourceSHA256 == clip.source.sha256, known.key == key {
                prepared = known
            } else if let remembered = memo.summary(of: recording, sha256: clip.source.sha256, key: key) {
                prepared = remembered
            } else {
                prepared = try ClipPreparer.prepare(recording, bytes: bytes, sourceSHA256: clip.source.sha256, key: key, configuration: configuration).summary
            }
            let output = try SoundFile.open(reading: sounds.appendingPathComponent(clip.file).path)
            let outputSamples = try output.readAll()
            let frames = Double(max(1, source.info.frames))
            let region = prepared.region
            return ClipReport(
                    name: clip.name, sourceFile: clip.source.file, sourceRate: source.info.sampleRate, sourceSeconds: source.info.seconds,
                    sourceWave: Waveform(mono, columns: 800), keep: Double(region.keepStart) / frames...Double(region.keepEnd) / frames,
                    sound: Double(region.soundStart) / frames...Double(region.soundEnd) / frames,
                    outputWave: Waveform(outputSamples, columns: 800), outputSeconds: clip.seconds, loudnessBefore: prepared.measurement.loudness,
                    clip: clip, noiseFloorDb: region.noiseFloorDb, warnings: prepared.warnings.map(\.message),
                    wav: wavBytes(outputSamples, rate: output.info.sampleRate))
        }
        addDesignerWarnings(&clips, manifest: manifest, configuration: configuration)

        var announcements: [AnnouncementSample] = []
        var announcementProblems: [String] = []
        for text in configuration.report.amounts ?? defaultSamples(manifest, maximum: configuration.maxAmount) {
            do {
                // What the phone plays: the announcer's banner, lead-in and delivery rules.
                let played = try PlayedAnnouncement.of(try Amount(text), manifest: manifest)
                let plan = played.plan
                let composed = try played.sound(manifest: manifest, soundsFolder: sounds)
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("soundset-report-\(UUID().uuidString).\(manifest.container.fileExtension)")
                defer { try? FileManager.default.removeItem(at: scratch) }
                try composed.write(to: scratch)
                let file = try SoundFile.open(reading: scratch.path)
                // Played in the page at 16 kHz: a preview that keeps the page small (the clips above play at full rate).
                let preview = try Resampler.resample(try file.readAll(), from: file.info.sampleRate, to: min(16000, file.info.sampleRate))
                announcements.append(AnnouncementSample(plan: plan, wav: wavBytes(preview, rate: min(16000, file.info.sampleRate)), note: played.note))
            } catch {
                announcementProblems.append("\(text): \(error)")
            }
        }
        return ReportData(
            manifest: manifest, configuration: configuration, clips: clips, announcements: announcements,
            announcementProblems: announcementProblems, check: check, previous: previous)
    }

    /// The samples when `report.amounts` is not set: a few amounts up to `maximum` that together
    /// play every clip of the set (`SampleAmounts`), phrases included.
    static func defaultSamples(_ manifest: Manifest, maximum: Amount) -> [String] {
        let settings = manifest.announcement ?? AnnouncementSettings()
        let variants = Planner(manifest: manifest).variants
        return SampleAmounts.covering(
            upTo: maximum, locale: manifest.locale, reading: manifest.reading ?? ReadingOptions(), variants: variants,
            phrases: [settings.prefix, settings.suffix].compactMap { $0 }, plays: { try? PlayedAnnouncement.of($0, manifest: manifest).plan.tokens }
        ).map(\.description)
    }

    /// What a designer should re-record or check, beyond the build's own warnings.
    static func addDesignerWarnings(_ clips: inout [ClipReport], manifest: Manifest, configuration: Configuration) {
        let phrases = Set([manifest.announcement?.prefix, manifest.announcement?.suffix].compactMap { $0 })
        let words = clips.filter { !phrases.contains($0.name) }
        let medianSeconds = median(words.map(\.outputSeconds))
        let medianBefore = median(clips.map(\.loudnessBefore).filter(\.isFinite))
        let pad = configuration.trim.padMs / 1000
        for index in clips.indices {
            let clip = clips[index]
            var warnings = clip.warnings
            if clip.noiseFloorDb > -50 {
                warnings.append(
                    String(format: "noise floor %.0f dBFS, above -50 dBFS: record in a quieter room or closer to the microphone", clip.noiseFloorDb))
            }
            if clip.sound.lowerBound * clip.sourceSeconds < pad {
                warnings.append("speech starts at the very beginning of the recording: leave room tone before the word")
            }
            if (1 - clip.sound.upperBound) * clip.sourceSeconds < pad {
                warnings.append("speech runs to the very end of the recording: leave room tone after the word")
            }
            if clip.sourceRate < 16000 && manifest.sampleRate > clip.sourceRate {
                warnings.append("recorded at \(clip.sourceRate) Hz and upsampled to \(manifest.sampleRate) Hz: record at 44.1 kHz or more")
            }
            if !phrases.contains(clip.name), medianSeconds > 0, clip.outputSeconds > 2 * medianSeconds {
                warnings.append(String(format: "%.2f s, over twice the median word (%.2f s): is it one word?", clip.outputSeconds, medianSeconds))
            }
            if clip.loudnessBefore.isFinite, abs(clip.loudnessBefore - medianBefore) > 10 {
                warnings.append(
                    String(
                        format: "recorded %.0f LU %@ the other takes: check the microphone gain", abs(clip.loudnessBefore - medianBefore),
                        clip.loudnessBefore < medianBefore ? "quieter than" : "louder than"))
            }
            clips[index].warnings = warnings
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Mono 16-bit little-endian WAV bytes that every browser plays.
    static func wavBytes(_ samples: [Float], rate: Int) -> Data {
        let values = samples.map { Int16(clamping: Int(($0 * 32768).rounded())).littleEndian }
        let pcm = values.withUnsafeBytes { Data($0) }
        let format = SoundFormat(container: .wav, encoding: .pcm16, sampleRate: rate)
        return SoundData(format: format, samples: pcm).encoded()
    }
}
