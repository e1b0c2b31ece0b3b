import Foundation
import SoundsetFindings
import SoundsetSetFolder

/// What the catalog finds wrong with the assets folder, a name in it, or a recording's header, each
/// case with its one message. `folder` is the assets folder as the user named it.
public enum CatalogProblem: ProblemReason, Equatable {
    /// The assets folder itself cannot be looked into.
    case folder(AssetCatalog.FolderProblem, folder: String)
    case noRecordings
    /// Takes that make the same clip: the other takes' paths, and the clip.
    case sameClip(others: [String], clip: String)
    /// `copies` lists a clip no recording makes.
    case copyWithoutRecording(clip: String)
    /// An announcement phrase (`key`: prefix, suffix, ...) names a clip no recording makes.
    case phraseWithoutRecording(key: String, clip: String)
    /// A take named as the copy of clip `original`.
    case namedAsCopy(original: String)
    case unreadable(reason: String)
    case outsideLink
    case brokenLink
    case notRegularFile
    case configurationCase
    case noExtension
    /// `name` is no clip name (`reason`); `known`, the clip its characters say, and `taken`, the
    /// take of that clip already there (as a path), when there are.
    case invalidClipName(name: String, reason: String, ext: String, known: String?, taken: String?)
    /// A recording in a format only ffmpeg reads: its path and the WAV's, as the command names them.
    case convertible(ext: String, path: String, wav: String, folder: String)
    case notARecording(ext: String, folder: String)
    /// Audio that does not decode: why, as a clause of the message.
    case notAudio(clause: String)
    case truncated(note: String)
    case noFrames
    case tooManyChannels(Int)
    case lowSampleRate(Int)
    /// A take of `seconds`, 30 s or more; `decoded` when its header did not give the length.
    case tooLong(seconds: Double, decoded: Bool)

    public var message: String {
        switch self {
        case .folder(let problem, let folder): problem.message(folder)
        case .noRecordings: "holds no recordings (add WAV, AIFF, FLAC, CAF or Ogg files)"
        case .sameClip(let others, let clip): "it and \(others.joined(separator: " and ")) make the same clip '\(clip)' (keep one of them)"
        case .copyWithoutRecording(let clip): "lists '\(clip)' but there is no recording for it (add one or remove it from copies)"
        case .phraseWithoutRecording(let key, let clip): "names '\(clip)' but there is no recording for it (add \(clip).wav or change the \(key))"
        case .namedAsCopy(let original): "has the name of the copy of clip '\(original)' (rename the recording)"
        case .unreadable(let reason): "cannot be read (\(reason))"
        case .outsideLink: "is a symbolic link to a file outside the assets folder (copy the recording in instead)"
        case .brokenLink: "is a broken symbolic link (copy the recording in instead)"
        case .notRegularFile: "is not a regular file (a FIFO, socket or device is no recording; move it out)"
        case .configurationCase:
            "differs from \(ConfigurationLoader.fileName) only in case; the configuration is read from \(ConfigurationLoader.fileName) exactly (rename it)"
        case .noExtension: "has no extension; a recording is named after its clip and its format, e.g. 7.wav (rename it, or move it out)"
        case .invalidClipName(let name, let reason, let ext, let known, let taken):
            "'\(ClipName.printable(name))' is not a valid clip name: \(reason); \(Self.rename(name, ext: ext, known: known, taken: taken))"
        case .convertible(let ext, let path, let wav, let folder):
            "is a .\(ext) recording, which soundset cannot read: convert it to WAV, e.g. ffmpeg -i \(CommandSpelling.shellWord(path)) \(CommandSpelling.shellWord(wav)), and move the .\(ext) out of \(folder)"
        case .notARecording(let ext, let folder): "is not a recording (a .\(ext) file): move it out of \(folder), where every file is a take"
        case .notAudio(let clause): "cannot be read as audio: \(clause)"
        case .truncated(let note): "is truncated: its header declares more audio than the file holds (libsndfile: \(note)); re-export it"
        case .noFrames: "holds no audio frames (re-export the recording)"
        case .tooManyChannels(let channels): "has \(channels) channels; a voice take is mono or stereo (export the voice alone)"
        case .lowSampleRate(let rate): "sample rate \(rate) Hz is too low for speech (at least \(AssetCatalog.minSampleRate) Hz)"
        case .tooLong(let seconds, decoded: true):
            String(
                format:
                    "is %.1f s long by decoding (its header does not give the length); iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)",
                seconds)
        case .tooLong(let seconds, decoded: false):
            String(format: "is %.1f s long; iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)", seconds)
        }
    }

    /// The fix for a name that is no clip name: the clip its characters say, or the take of it there.
    private static func rename(_ name: String, ext: String, known: String?, taken: String?) -> String {
        guard let known else { return "rename the file" }
        guard let taken else { return "rename it \(known).\(ext) (\(name) is the clip \(known))" }
        return "\(name) is the clip \(known), which \(taken) already is: keep one of the two takes"
    }
}
