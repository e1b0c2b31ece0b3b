/// The help texts; `soundset --help` and `soundset help COMMAND` print them.
enum Help {
    static let overview = """
        soundset: turns voice recordings into an iOS notification sound set for payment announcements

        usage: soundset COMMAND [OPTIONS]

        commands:
          build     trim, resample and loudness-normalise Assets/ into Output/ with a manifest
          help      show help for a command: soundset help build
          version   print the version

        options:
          -h, --help     show this help
          --version      print the version

        exit codes: 0 success, 1 failure (every problem is printed), 64 bad usage
        """

    static let build = """
        usage: soundset build [--assets DIR] [--output DIR] [--jobs N] [--quiet]

        Builds the sound set. Every non-hidden audio file directly in the assets folder (WAV, AIFF,
        FLAC, Ogg Vorbis, CAF, and MP3 where libsndfile reads it) is one clip, named after its file
        without the extension; DIR/soundset.json configures the build (see README.md). Each clip is
        mixed to mono, trimmed of room tone, resampled, brought to one loudness for the whole set with
        its true peak under the ceiling, and written to OUTPUT/Sounds with OUTPUT/manifest.json.
        The output folder is replaced whole only when every recording is good; otherwise nothing is
        written and every problem is printed.

        options:
          --assets DIR    folder of recordings (default: Assets)
          --output DIR    folder to write (default: Output); it must be new, empty or a soundset output
          --jobs N        clips processed at once (default: the number of cores)
          --quiet         print only warnings and errors
          -h, --help      show this help

        exit codes: 0 built, 1 a recording, the configuration or the output folder is bad, 64 bad usage
        """

    static func text(for command: String) -> String? {
        switch command {
        case "build": build
        case "help", "version": overview
        default: nil
        }
    }
}
