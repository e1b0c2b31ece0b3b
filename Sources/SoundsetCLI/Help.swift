/// The help: the overview, and the prose of each command's (its options are the command's own
/// declaration, `CommandSpec`); `soundset --help`, `soundset help COMMAND` and `soundset help
/// --markdown` print them.
enum Help {
    /// Every command, in the overview's order.
    static var commands: [CommandSpec] {
        [
            BuildCommand.spec, AnnouncementCommand.planSpec, AnnouncementCommand.renderSpec, AnnounceCommand.spec, ReplayCommand.spec, CheckCommand.spec,
            ReportCommand.spec, ServeCommand.spec, PackCommand.spec, InstallPackCommand.spec, MeasureCommand.spec, ClipsCommand.spec, helpSpec,
            versionSpec,
        ]
    }

    static let markdownFlag = Option.flag("--markdown", help: "print every command's synopsis and options as markdown (docs/cli.md)")

    static let helpSpec = CommandSpec(
        name: "help", summary: "show help for a command: soundset help build", arguments: Positionals(name: "COMMAND", optional: true), options: [markdownFlag],
        about: """
            Prints the overview, or the help of COMMAND (build, plan, render, announce, replay, check,
            report, serve, pack, install-pack, measure, clips, version, help): the same as soundset
            COMMAND --help.
            """,
        exitCodes: "exit codes: 0 printed, 64 bad usage")

    static let versionSpec = CommandSpec(
        name: "version", summary: "print the version", options: [],
        about: "Prints soundset's version (also soundset --version), the one every manifest records as toolVersion.",
        exitCodes: "exit codes: 0 printed, 64 bad usage")

    static var overview: String {
        let commands = commands.map { command in
            let lead = "  " + command.name + String(repeating: " ", count: max(1, 10 - command.name.count))
            return CommandSpec.wrap(command.summary.split(separator: " ").map(String.init), width: CommandSpec.width, first: lead, rest: "            ")
        }
        return """
            soundset: turns voice recordings into an iOS notification sound set for payment announcements

            usage: soundset COMMAND [OPTIONS]

            commands:
            \(commands.joined(separator: "\n"))

            options:
              -h, --help     show this help
              --version      print the version

            exit codes: 0 success, 1 failure (every problem is printed), 64 bad usage
            """
    }

    /// The help of `command`, or nil for no such command.
    static func text(for command: String) -> String? {
        commands.first { $0.name == command }?.help
    }

    /// docs/cli.md: every command's synopsis and options.
    static var markdown: String {
        let intro = """
            # The command line

            Every command's synopsis and options, as `soundset COMMAND --help` prints them (with what
            each command does, which this page leaves out). `soundset help --markdown` writes this page
            from the commands' own declarations, and a test holds the committed page to it.
            """
        return ([intro] + commands.map(\.markdown)).joined(separator: "\n\n")
    }

    static let buildAbout = """
        Builds the sound set. Every non-hidden audio file directly in the assets folder (WAV, AIFF,
        FLAC, Ogg Vorbis, CAF, and MP3 where libsndfile reads it) is one clip, named after its file
        without the extension (soundset clips lists the names); DIR/soundset.json configures the build
        (see docs/configuration.md). Each clip is mixed to mono, trimmed of room tone, resampled, sped up by tempo
        (at the same pitch), brought to one loudness for the whole set with its true peak under the
        ceiling, and written to OUTPUT/Sounds with OUTPUT/manifest.json (which says where each word's
        speech lies): the output folder holds exactly what the app bundles. The report, the page to
        listen to and look at the set, is written beside it, OUTPUT.report.html, with the set's id, right
        after the set is in place (a report.html an older soundset left in OUTPUT is moved out, once).
        The output folder is replaced whole only when every recording is good; otherwise nothing is
        written and every problem is printed. A file in it that soundset did not write stops the
        build (move it out: nothing of yours is deleted, Finder's .DS_Store files aside). Ctrl-C
        ends a build with nothing left behind (exit 130). One build at a time per output folder: a
        second one waits for the first (and says so), and check, plan and render never see half of
        two sets.

        What it prints: on a terminal, one updating progress line on stderr. On stdout the table of
        every clip on a first build (or with --verbose), otherwise one line of what changed (rebuilt
        7 (recording changed), 17 unchanged); then the set's summary, and last the report's name
        (report: Output.report.html). Last, on stderr, a warning for each thing a designer should know
        of a take (clipping, a noise floor above -50 dBFS, speech at the very edge, a take under 16 kHz,
        a word over twice the median, a take far quieter or louder than the rest) and each thing the
        check will reject (durations, missing clips, budgets, in the check's words): the same warnings
        on every build, whether it built the set or found it up to date, with or without the report.
        The exit code is still 0: the set was built.
        """

    static let planAbout = """
        Reads AMOUNT (digits with at most two decimals, below 10^12, e.g. 123.45) and prints the clips
        the phone plays for it, after the Copy rule, with each clip's start and duration from the
        manifest (joined by speech, a clip starts inside the previous one's trailing pad). The
        announcer's rules apply, as in the app: an announcement longer than announcement.bannerSeconds
        is played without its prefix and suffix, leadInMs of silence comes first, and delivery chain
        (or auto, when even the amount alone is too long) plays a chain of notifications; a last line
        says so ("played without 收款到账: whole it lasts 5.93 s, over the 5 s banner"). --whole shows
        the announcement as composed, without them.
        JSON keys: amount, locale, tokens, clips, steps [{clip, file, start, seconds, startFrame, frames,
        speechEnd}], join, gapFrames, sampleRate, totalFrames, totalSeconds (the clips, without the
        lead-in), delivery (composed or chain), outcome (announced or shortened), leadInFrames, seconds
        (what plays, the lead-in included), note (that line, or null); times to the millisecond.
        """

    static let renderAbout = """
        Composes what the phone plays for AMOUNT into one sound file, with the set's encoding and rate,
        joined by speech (the crossfades mixed) or by file (gaps as digital silence): what the app
        sets as the push's sound. The announcer's rules apply as for plan (without the prefix and
        suffix over the banner, the lead-in first), and a line says so; --whole composes the whole
        announcement without them. A chain's clips are joined as its plan places them.
        FILE's extension names the container, whatever the set's: .caf, .wav or .aiff (.aif); the
        samples are the same. .mp3 writes what soundset serve sends as MP3, byte for byte: the same
        announcement at 16 kHz (a set below it keeps its rate), LAME VBR -V 5. It is written whole
        or not at all.
        """

    static let announceAbout = """
        Does exactly what the app's Notification Service Extension does for one push, with DIR standing
        in for the App Group's container: installs the set into DIR/Library/Sounds (once; each clip
        under a name that begins with the set's id), queues the announcement in DIR/soundset/queue.json
        under a file lock (so calls at once, from several processes, are ordered), and writes the
        composed file to DIR/Library/Sounds under a new name, or plans a chain of notifications.
        The rules (announcement in soundset.json): an announcement starts at the later of its arrival
        and the previous one's end plus spacingSeconds; a composed one longer than bannerSeconds loses
        its prefix and suffix, and when even the amount alone is longer, delivery decides (composed
        plays it and the banner cuts it, auto chains it); a push waiting behind another says the amount
        alone (a rush), or, when even that would leave no room within maxWaitSeconds for one more push,
        plays announcement.rushSound (the prefix by default); a push that would wait over
        maxWaitSeconds keeps its own sound; a chain never makes more than 64 notifications pending; the same --id
        within dedupeSeconds is a duplicate (ids are compared by their bytes); any failure falls back
        to the fallback clip (or the prefix, or the system's sound); composed files are deleted a
        minute after they end. The lock is held only while the queue is read, decided on and written
        (a new file, flushed and renamed: a kill leaves the old queue or the new one); a push that
        cannot take it within 2 s falls back, saying so. A push killed before its composed file was in
        place is announced on its retry, not called a duplicate.
        --payload reads the push's JSON exactly as APNs delivers it ({"aps": {...}, "amount": "123.45",
        "transactionId": "..."}, or "amountMinor": 12345) through the runtime's PushPayload, as the
        extension reads its userInfo: a QA engineer replays captured pushes with it.
        JSON keys: id (the transaction id, or null), key, outcome (announced, shortened, fallback,
        duplicate), delivery (composed, chain, none), sound (the file the push plays, or null),
        systemSound, start, end, wait (start - now), notifications [{identifier, sound, at}], clips,
        reason; times to the millisecond. To replay many pushes, see soundset replay.
        """

    static let replayAbout = """
        Runs every push in FILE through the app's extension announcer (as soundset announce does for
        one), in order, on FILE's clock, with DIR standing in for the App Group's container: a QA
        engineer's day of pushes, bursts and retries included. Use a fresh DIR for each replay (its
        queue carries over). FILE holds one push a line, either
          SECONDS AMOUNT [ID]      e.g. 1000.5 123.45 tx-1 (no ID: the push carried none)
        or a push's JSON payload as APNs delivers it, read as the extension reads it, with "at":
          {"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1},
           "amount": "123.45", "transactionId": "tx-1", "at": 1000.5}
        Blank lines and lines starting with # are skipped; times must not go back. A line that cannot
        be read (not UTF-8, longer than 65536 bytes, the most a push's JSON may have, or not a push)
        is named (FILE:LINE) and nothing is run.
        Prints one aligned line per decision (time, amount, id, outcome, delivery, start, wait,
        reason; - for no id), then the tally: how many were announced, shortened, fallback and
        duplicate, the longest wait, and how many announcements overlapped (the queue keeps that at 0).
        With --format jsonl, one JSON object per decision (line, at, amount, id or null, outcome,
        delivery, start, end, wait, reason, sound, systemSound, clips, notifications, key; times to the
        millisecond), and last {"tally": {pushes, announced, shortened, fallback, duplicate,
        longestWait, longestWaitLine, overlaps}}.
        """

    static let checkAbout = """
        Checks the built set without writing anything (but its lock file in .soundset-cache when it is
        missing), and reports every problem, one line each:
          integrity     every file the manifest lists is there with its sha256, frames, rate, channels,
                        container and encoding; copies are byte-identical; no unlisted files; the
                        manifest, Sounds and the clips are files and folders, not symbolic links
          freshness     recordings, output settings and tool version are what the set was built from
                        (the settings' digest leaves out keys at their defaults), and every value
                        of the manifest is the one the build makes of them (its key, both values)
          durations     every clip under 30 s and within limits.maxSeconds / limits.minSeconds
          format        container, encoding, channels and rate are ones iOS plays
          completeness  every clip and copy the locale's reading can need is in the set
          budget        the longest announcement of any amount up to maxAmount, computed exactly, is
                        under maxAnnouncementSeconds and at most 64 notifications; the longest
                        composed sound (without the prefix and suffix where whole it would not fit)
                        lasts at most announcement.bannerSeconds
          report        the report beside the set (OUTPUT.report.html), if there is one, is this
                        set's; no report is inside the set (OUTPUT/report.html, where the app would
                        ship it)
        It also warns, without failing, of recordings that are the same take under two names.
        With GITHUB_ACTIONS=true each problem is also printed as a GitHub Actions error annotation,
        and each warning as a warning annotation.
        JSON: {ok, problems: [{check, subject, message}], budget: {worstAmount, seconds, steps,
        limitSeconds, mostStepsAmount, maxSteps, limitSteps, maxAmount, composed: {seconds, amount,
        limitSeconds, prefixDroppedFrom, dropped}}, clips, warnings: [text]}; times to the
        millisecond. When the banner cuts an amount, the advice names the tempo at which the longest
        fits (or says none down to 0.7 does); a set built with another soundset.json is stale first,
        and gives no advice.
        """

    static let serveAbout = """
        Serves the built set's announcements over HTTP/1.1 (libmicrohttpd), for the clients that
        cannot compose them: a web page, a WeChat mini-program, an Android app, a cloud speaker.
        Prints "listening on http://HOST:PORT (set ID)" as its first line on stdout, then one access
        line per request on stderr (or --access-log FILE): the time the request arrived (RFC 3339,
        UTC, ms), the client's address, the request id, method, target, status, body bytes,
        milliseconds. The request id is the request's X-Request-Id when it is 1 to 128 letters,
        digits or -_.:+/=, otherwise a new one; every response carries it as X-Request-Id.

        GET (and HEAD):
          /v1/announcements/AMOUNT.FORMAT    the announcement as the phone plays it (the announcer's
                                             rules, as soundset render applies them): the samples
                                             soundset render composes; FORMAT wav, mp3, caf or aiff
                                             (caf, wav, aiff: the set's encoding and rate; mp3: at
                                             16 kHz, LAME VBR -V 5, as render --out FILE.mp3 makes it)
              query: prefix=NAME|none, suffix=NAME|none, join=speech|file, whole=1 (the whole
              announcement, without the rules: no banner shortening, no lead-in)
          /v1/sets/ID/announcements/AMOUNT.FORMAT   the same, pinned to the set ID: cached for a
                                             year (Cache-Control: public, max-age=31536000,
                                             immutable); another set's ID is 404 naming the current
          /v1/plan/AMOUNT                    the plan, as soundset plan AMOUNT --format json prints it
                                             (same query); /v1/sets/ID/plan/AMOUNT pinned
          /v1/set                            the set: id, locale, sampleRate, channels, container,
                                             encoding, clips [{name, file, copy, frames, seconds}]
          /healthz                           200 {"set": ID, "status": "ok"}, or 503 while the folder
                                             holds no valid set
          /metrics                           requests by status and format, cache hits, misses and
                                             bytes, encode times, the set, open connections
                                             (Prometheus text format 0.0.4)
          /v1/voices                         the voices: {defaultVoice, voices [{voice, locale, id,
                                             setId, default}]}
          /v1/voices/VOICE/...               any /v1/ path above, of that voice's set, when DIR
                                             holds several voices (voices.json, voices/VOICE/); the
                                             paths without a voice are the default voice's; an
                                             unknown voice is 404 listing the voices. /healthz and
                                             /metrics cover every voice; the first line says
                                             "(voices VOICE: set ID, ...; default VOICE)"
          /v1/packs, /v1/packs/VOICE.pack, /v1/packs/VOICE/VERSION-SETID.pack
                                             with --packs: the packs' list, a voice's newest pack
                                             (no-cache; ETag "VERSION-SETID", 304), a pinned pack
                                             (immutable)
        OPTIONS (any path): a CORS preflight, 204 with Access-Control-Allow-Methods GET, HEAD,
        OPTIONS, -Allow-Headers Range, If-None-Match, If-Range, X-Request-Id and -Max-Age 86400.
        Every response carries Access-Control-Allow-Origin: * and Access-Control-Expose-Headers
        (ETag, Content-Length, Content-Range, Accept-Ranges, X-Request-Id).
        Announcements and plans carry a strong ETag (the set, the amount, the options, the format)
        and answer If-None-Match with 304; unpinned URLs are cached for 60 s.
        Errors are JSON {"error": ..., "hint": ...}: 400 a bad amount (in the amount parser's words)
        or query, a control byte in the URL (raw or escaped), Content-Length fields that disagree;
        404 any other path, 405 another method (with Allow), 414 a URI over 2048 bytes, 503 no valid
        set (why goes to stderr, not to the client). Nothing in a URL is ever used as a file path.

        A build that swaps a new set into DIR is picked up without a restart, within 0.1 s (read
        under the set's shared swap lock, as check reads it); a request under way finishes with the
        set it began with. Composed announcements are kept in memory, the least recently used
        dropped first. At the connection limit the connection idle the longest is closed to make
        room; with none idle, a new one is answered 503 and logged as "- (connection-limit) 503".
        SIGTERM or Ctrl-C: stop listening at once, finish the requests under way or already sent
        (at most 5 s; new announcements still queued then are answered 503), exit 0. SIGHUP: reopen the access log's file (rename it, send SIGHUP: the
        next lines go to a new file of the same name); it never stops the server.
        """

    static let measureAbout = """
        Measures each file (mixed to mono) as the build measures clips: BS.1770 K-weighted loudness,
        ungated (defined for clips shorter than 400 ms), and true peak (4x oversampled). By default of the
        whole file, room tone included (what a player plays: a way to compare any tool's sound set on one
        scale); with --trimmed, of the word as the build makes it before its gain (trimmed, resampled and
        at the tempo of the assets' soundset.json, or with several voices the voice's own: what the report's
        recorded loudness is). Prints one line per file, then the spread (loudest minus quietest) and worst true peak of
        them all, saying which of the two it measured; --format json says it as part: whole or word.
        """

    static let reportAbout = """
        Writes the report of the set in OUTPUT, which must be up to date with DIR (the build writes it
        too): one self-contained HTML page (no network), beside the set, never in it (the app bundles
        OUTPUT), carrying the set's id (soundset check says when the report beside a set is another
        set's). It shows a summary (clip count, the set's level and spread, longest clip, the longest
        announcement from the check, every warning); per clip the source waveform with the kept
        region marked and the cut room tone shaded, the output waveform, durations, gain, loudness,
        true peak and a player (a preview at about 11 kHz, 8-bit, that keeps the page small); a
        button that plays every clip in turn; warnings that say what to re-record (clipping, a noise
        floor above -50 dBFS, speech at the recording's edge, a take under 16 kHz, a clip over twice
        the median length, a take recorded 10 LU away from the others), the same the build prints;
        sample announcements as the phone plays them (the announcer's rules applied, and said), by
        default a few amounts up to maxAmount that together use every clip (report.amounts in
        soundset.json sets others), playable; a chart of loudness before and after normalisation.
        """

    static let clipsAbout = """
        Lists every clip a set of the locale can use: its name (the recording's file name without the
        extension, e.g. ten.wav), what is said in it and how, and when it is needed: always, with a
        reading option, optional (the tones of 一, used where they fit when the set has them), or as
        a phrase that announcement.prefix names. The README's tables are this command's markdown.
        """

    static let planAfter = """
        An amount above the set's maxAmount is planned, with a note on stderr: the check budgets
        amounts up to maxAmount only.
        """

    static let packAbout = """
        Writes the set of --voice (Output/voices/NAME when the build made several voices, else the
        whole of --output) as one file a phone can download: a header naming the voice, its locale,
        the pack's version and the set's id, the manifest and every clip file (the copies are made
        again on the phone), and an Ed25519 signature over all of it by KEY. The app installs it
        with VoicePackInstaller (docs/ios.md), which refuses a pack signed by another key or altered
        in any byte, an older version than the one installed, and clips that differ from the
        manifest. Make a key pair once and keep the private half off the phone:
          openssl genpkey -algorithm ed25519 -out voice.key
          openssl pkey -in voice.key -pubout -out voice.pub
        """

    static let installPackAbout = """
        Does with FILE what the app does with a downloaded pack, in DIR (a folder standing in for the
        App Group's container): checks its signature against KEY.pub, every clip against the
        manifest, the locale and the version (no downgrade), then installs it under
        DIR/soundset/Voices/<voice>/ so that a kill at any point leaves the voice installed before
        it working. Installing the same pack again changes nothing. Each refusal says why.
        """
}
