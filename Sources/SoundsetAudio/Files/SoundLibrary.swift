internal import CLame
internal import CSampleRate
internal import CSndFile

/// The sound libraries this build runs with, as each states its version.
public enum SoundLibrary {
    /// libmp3lame's version (`3.100`): an MP3's bytes depend on it.
    public static let lame = String(cString: get_lame_version())
    /// libsamplerate's version string (`libsamplerate-0.2.2 …`): it resamples the clips an MP3 is
    /// made of, so an MP3's bytes depend on it too.
    public static let samplerate = String(cString: src_get_version())
    /// libsndfile's version string (`libsndfile-1.2.2`).
    public static let sndfile = String(cString: sf_version_string())
}
