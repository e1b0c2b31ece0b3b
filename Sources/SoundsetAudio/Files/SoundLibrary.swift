internal import CSndFile

/// The sound library this build runs with.
public enum SoundLibrary {
    /// libsndfile's version string (`libsndfile-1.2.2`), as the running library states it: an
    /// MP3's bytes depend on it (it carries LAME and mpg123), so it is part of an MP3's entity tag.
    public static let version = String(cString: sf_version_string())
}
