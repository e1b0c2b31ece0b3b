import Foundation
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Renders the report as one self-contained HTML page: inline CSS and SVG, audio previews as data
/// URIs, no network, no scripts (but the reload of a watched build's page). Written well-formed
/// (every tag closed, attributes quoted) so it also parses as XML, which the tests use to check it.
/// It draws `ReportData` and computes nothing that anything else depends on.
enum ReportPage {
    /// The widest a clip's waveform may be drawn: the longest recording sets the scale of them all.
    static let waveWidth = 560.0
    /// The widest an announcement's timeline may be drawn at the clips' scale before it gets its own.
    static let timelineWidth = 960.0

    /// - Parameter refreshSeconds: when set, the page reloads itself every so many seconds (for a
    ///   build that watches the recordings).
    /// - Parameter key: what else than the set the page was made with (`Report.key`), recorded in
    ///   its head with the set's id (`Report.isCurrent`).
    static func html(_ data: ReportData, refreshSeconds: Int? = nil, key: String = "") -> String {
        let manifest = data.manifest
        let words = ClipWords(manifest.locale)
        let warnings = data.clips.flatMap { clip in clip.warnings.map { (clip.name, $0) } }
        let clipScale = TimeScale.fitting(data.clips.map(\.sourceSeconds).max() ?? 1, into: waveWidth)
        // Reloaded by a small script that waits while a clip plays (a meta refresh would cut it off
        // every second); the meta refresh is the fallback without scripts.
        let refresh =
            refreshSeconds.map {
                "<noscript><meta http-equiv=\"refresh\" content=\"\(max(1, $0))\"/></noscript>\n<script>"
                    + "setInterval(function(){for(var a of document.querySelectorAll('audio'))if(!(a.paused||a.ended))return;location.reload()},\(1000 * max(1, $0)));"
                    + "</script>\n"
            } ?? ""
        let identity = Report.setTag + escape(data.setID) + "\"/>\n" + Report.keyTag + escape(key) + "\"/>\n"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            \(identity)<meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            \(refresh)\(Report.title)
            <style>\(css)</style>
            </head>
            <body>
            <header><h1>Sound set report</h1><p>\(manifest.clips.count) clips · \(manifest.sampleRate) Hz \(manifest.container.rawValue) \(manifest.encoding.rawValue) · \(manifest.locale.rawValue) · <span title=\"\(setIDMeaning)\">set \(escape(data.setID))</span> · soundset \(escape(manifest.toolVersion))\(refreshSeconds.map { " · reloads every \(max(1, $0)) s while the build watches" } ?? "")</p></header>
            <section class="cards">
            """
        page += cards(data, warnings: warnings.count)

        // What the check rejects comes first: it fails the app's CI.
        page += "<section><h2>To re-record or check</h2>\n"
        if warnings.isEmpty && data.check.ok {
            page += "<p class=\"ok\">No warnings, and the check passes.</p>\n"
        } else {
            page += "<ul class=\"warnings\">\n"
            for problem in data.check.problems {
                page += "<li class=\"check\"><b>check: \(escape(problem.check.rawValue))</b> \(escape(problem.subject)): \(escape(problem.message))</li>\n"
            }
            for (name, warning) in warnings { page += "<li><a href=\"#clip-\(escape(name))\"><b>\(escape(name))</b></a>: \(escape(warning))</li>\n" }
            page += "</ul>\n"
        }
        page += "</section>\n"

        page += "<section><h2>Loudness: each recording against the set level</h2>\n" + loudnessChart(data, words: words) + "</section>\n"
        page += announcementsSection(data, words: words, clipScale: clipScale)

        page +=
            "<section><h2>Clips</h2>\n" + playEveryClip
            + "<p class=\"legend\">Every waveform is drawn to one time scale, \(clipScale.text), so a clip's width is its length. "
        page += "Top: the recording, grey where room tone was cut, yellow where the trimmer found speech; below: the clip as built. "
        page += "Each player plays the clip itself (the set's file, its samples as they are, as a WAV). \(clipScale.bar)</p>\n"
        let reasons = data.changes?.reasons
        for (group, clips) in words.grouped(data.clips, name: \.name) {
            page +=
                "<h3 class=\"group\" data-group=\"\(group)\">\(escape(group.rawValue)) <small>\(escape(group.detail)) · \(clips.count) clip\(clips.count == 1 ? "" : "s")</small></h3>\n"
            page += "<div class=\"clips\">\n"
            for clip in clips {
                page += clipCard(clip, words: words, scale: clipScale, limit: data.configuration.maxSeconds(for: clip.name), change: reasons?[clip.name])
            }
            page += "</div>\n"
        }
        page +=
            "</section>\n<footer>Made by soundset \(escape(manifest.toolVersion)). Loudness: BS.1770 K-weighted over the whole clip, ungated; true peak 4x oversampled.</footer>\n</body>\n</html>\n"
        return page
    }

    /// The cards at the top: the level, the spread, the longest clip and announcements, the tones,
    /// the check, the warnings (`warnings` of them), what changed.
    static func cards(_ data: ReportData, warnings: Int) -> String {
        let manifest = data.manifest
        let longest = manifest.clips.max { $0.seconds < $1.seconds }
        var page = card("Level", String(format: "%.1f LUFS", manifest.loudness.setLevel), escape(manifest.loudness.reason))
        let spread = spreads(data)
        page += card(
            "Spread", String(format: "%.1f → %.2f LU", spread.before, spread.after),
            "loudest minus quietest: the recordings as taken, then the clips after normalisation")
        if let longest { page += card("Longest clip", String(format: "%.3f s", longest.seconds), escape(longest.name)) }
        if let budget = data.check.budget {
            page += card(
                "Longest announcement", String(format: "%.2f s", budget.seconds),
                "\(escape(budget.worstAmount)) in \(budget.steps) steps (budget \(fmt(budget.limitSeconds)) s, up to \(escape(budget.maxAmount)))")
            let composed = budget.composed
            let dropped =
                composed.prefixDroppedFrom.map {
                    "; " + escape(ComposedBudget.droppedWords($0, said: composed.dropped ?? "the prefix", banner: composed.limitSeconds))
                } ?? ""
            page += card(
                "Longest composed", String(format: "%.2f s", composed.seconds),
                "\(escape(composed.amount)), against the \(fmt(composed.limitSeconds)) s banner\(dropped)", alert: composed.seconds > composed.limitSeconds)
        }
        // The card of 一's tones, where they are the locale's optional clips.
        if manifest.locale.optionalClipNames == ChineseReading.toneVariants { page += tonesCard(data) }
        let count = data.check.problems.count
        page += card(
            "Check", data.check.ok ? "passed" : "\(count) problem\(count == 1 ? "" : "s")",
            data.check.ok ? "soundset check finds nothing wrong" : "what make check will reject: see below", alert: !data.check.ok)
        page += card("Warnings", String(warnings), warnings == 0 ? "nothing to re-record" : "see below", alert: warnings > 0)
        page += changesCard(data.changes)
        page += "</section>\n"
        return page
    }

    /// Loudest minus quietest: of the recordings as measured before normalisation, and of the clips.
    static func spreads(_ data: ReportData) -> (before: Double, after: Double) {
        let before = data.clips.map(\.loudnessBefore).filter(\.isFinite)
        let after = data.manifest.clips.map(\.loudness)
        return ((before.max() ?? 0) - (before.min() ?? 0), (after.max() ?? 0) - (after.min() ?? 0))
    }

    /// What changed since the set this build replaced.
    static func changesCard(_ changes: BuildChanges?) -> String {
        guard let changes else {
            return card("Changes", "not compared", "no earlier set to compare with (a first build, or soundset report): no clip is badged")
        }
        let changed = changes.rebuilt.reduce(0) { $0 + $1.clips.count }
        var lines = changes.rebuilt.map { "\($0.clips.count) \(escape($0.reason.rawValue)): \($0.clips.map(escape).joined(separator: ", "))" }
        lines.append("\(changes.unchanged.count) unchanged")
        if !changes.removed.isEmpty { lines.append("removed: \(changes.removed.map(escape).joined(separator: ", "))") }
        return card("Changes", changed == 0 ? "none" : "\(changed) changed", lines.joined(separator: "<br/>"))
    }

    /// Which amounts the optional takes of 一 in its changed tones would be heard in (up to the
    /// set's maxAmount: the amounts it is built for), and whether the set has them, so a designer
    /// knows whether they are worth recording.
    static func tonesCard(_ data: ReportData) -> String {
        let names = Set(data.manifest.clips.map(\.name))
        let maximum = data.configuration.maxAmount
        let samples = (data.announcements.map(\.plan.amount) + ["10000", "110000", "100000000", "1000", "110", "1100000"])
            .compactMap { try? Amount($0) }.filter { $0 <= maximum }
        var lines: [String] = []
        for (variant, rule) in [("1_yi2", "一 before 万 and 亿 (yí)"), ("1_yi4", "一 before 十, 百 and 千 (yì)")] {
            let heard = samples.filter { ChineseReading.tokens(for: $0, variants: [variant]).map(\.clipName).contains(variant) }
            var seen: [String] = []
            for amount in heard.map(\.description) where !seen.contains(amount) { seen.append(amount) }
            let state = names.contains(variant) ? "in the set" : "not recorded: \(escape(ChineseToken.digit(1).clipName)) is read instead"
            let amounts = seen.isEmpty ? "no sample up to maxAmount \(escape(maximum.description))" : seen.prefix(6).map(escape).joined(separator: ", ")
            lines.append("<b>\(variant)</b>, \(escape(rule)): \(state); heard in \(amounts)")
        }
        let both = ChineseReading.toneVariants.allSatisfy(names.contains)
        return card("Tones of 一", both ? "both takes" : "optional takes", lines.joined(separator: "<br/>"))
    }

    static func card(_ title: String, _ value: String, _ detail: String, alert: Bool = false) -> String {
        "<div class=\"card\(alert ? " alert" : "")\"><h3>\(escape(title))</h3><p class=\"value\">\(escape(value))</p><p>\(detail)</p></div>\n"
    }

    /// What a clip says, as the guide writes it: characters and pinyin beside the clip name.
    static func saying(_ name: String, words: ClipWords) -> String {
        guard let entry = words.entry(name) else { return "<p class=\"says unknown\">\(escape(name))</p>" }
        let lang = words.guide.locale.reading.pageLanguage
        var text = "<p class=\"says\" lang=\"\(lang)\">\(escape(entry.says))</p>"
        if let pronounced = entry.pronounced { text += "<p class=\"pinyin\">\(escape(pronounced))</p>" }
        return text
    }

    static func clipCard(
        _ clip: ClipReport, words: ClipWords, scale: TimeScale, limit: (seconds: Double, pattern: String, written: Bool), change: BuildChanges.Reason?
    ) -> String {
        var card = "<article class=\"clip\(clip.warnings.isEmpty ? "" : " flagged")\" id=\"clip-\(escape(clip.name))\">\n"
        card += "<div class=\"who\">" + saying(clip.name, words: words)
        card += "<h3><code>\(escape(clip.name))</code></h3>"
        if let change { card += "<p><span class=\"badge changed\" title=\"changed since the last build\">\(escape(change.rawValue))</span></p>" }
        let over = clip.outputSeconds > limit.seconds
        let limitName = limit.written ? "limits.maxSeconds \(limit.pattern)" : limit.pattern == "*" ? "the default limit" : "the default limit of a phrase"
        card += "<div class=\"limit\(over ? " over" : "")\" title=\"\(escape(limitName))\">"
        card += String(format: "%.2f s of %@ s", clip.outputSeconds, fmtLimit(limit.seconds)) + (over ? " <b>over</b>" : "")
        let meter = 120.0
        card +=
            "<svg class=\"meter\" width=\"\(fmt(meter))\" height=\"6\" role=\"img\" aria-label=\"duration against its limit\"><rect width=\"\(fmt(meter))\" height=\"6\" rx=\"3\" class=\"track\"/>"
        card +=
            "<rect width=\"\(fmt(max(2, min(1, clip.outputSeconds / max(limit.seconds, 0.001)) * meter)))\" height=\"6\" rx=\"3\" class=\"fill\"/></svg></div>"
        card += "</div>\n<div class=\"waves\">\n"

        let sourceWidth = scale.width(clip.sourceSeconds), sourceHeight = 36.0
        let drawing = clip.drawing
        // The paths are in their own units: one per column across, `ClipDrawing.height` down.
        let sourceUnits = Double(max(1, drawing.sourceColumns - 1)), height = ClipDrawing.height
        let keepStart = clip.keep.lowerBound * sourceUnits, keepEnd = clip.keep.upperBound * sourceUnits
        card += "<p class=\"caption\">recording \(escape(clip.sourceFile)), \(clip.sourceRate) Hz, \(String(format: "%.3f", clip.sourceSeconds)) s</p>\n"
        card +=
            "<svg width=\"\(fmt(sourceWidth))\" height=\"\(fmt(sourceHeight))\" data-seconds=\"\(String(format: "%.4f", clip.sourceSeconds))\" class=\"wave source\" viewBox=\"0 0 \(fmt(sourceUnits)) \(height)\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"recording of \(escape(clip.name))\">"
        card += "<rect x=\"0\" y=\"0\" width=\"\(fmt(keepStart))\" height=\"\(height)\" class=\"cut\"/>"
        card += "<rect x=\"\(fmt(keepEnd))\" y=\"0\" width=\"\(fmt(sourceUnits - keepEnd))\" height=\"\(height)\" class=\"cut\"/>"
        card +=
            "<rect x=\"\(fmt(clip.sound.lowerBound * sourceUnits))\" y=\"0\" width=\"\(fmt((clip.sound.upperBound - clip.sound.lowerBound) * sourceUnits))\" height=\"\(height)\" class=\"sound\"/>"
        card += "<path d=\"\(drawing.sourcePath)\" class=\"source\"/></svg>\n"
        let outputWidth = scale.width(clip.outputSeconds), outputHeight = 44.0
        let outputUnits = Double(max(1, drawing.outputColumns - 1))
        card += "<p class=\"caption\">clip \(escape(clip.clip.file))\(clip.clip.copy.map { " (+ \(escape($0)))" } ?? "")</p>\n"
        card +=
            "<svg width=\"\(fmt(outputWidth))\" height=\"\(fmt(outputHeight))\" data-seconds=\"\(String(format: "%.4f", clip.outputSeconds))\" class=\"wave output\" viewBox=\"0 0 \(fmt(outputUnits)) \(height)\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"clip \(escape(clip.name)) as built\">"
        card += "<path d=\"\(drawing.outputPath)\" class=\"output\"/></svg>\n"
        if !clip.warnings.isEmpty {
            card += "<ul class=\"warnings\">" + clip.warnings.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        card += "</div>\n<div class=\"figures\"><table><tbody>"
        card += row("duration", String(format: "%.3f s → %.3f s", clip.sourceSeconds, clip.outputSeconds))
        card += row("loudness", String(format: "%.1f → %.2f LUFS", clip.loudnessBefore, clip.clip.loudness))
        card += row("gain", String(format: "%+.2f dB", clip.clip.gain))
        card += row("limiting", String(format: "%.2f dB", clip.clip.limiting))
        card += row("true peak", String(format: "%.2f dBTP", clip.clip.truePeak))
        card += row("frames", "\(clip.clip.frames)")
        card += "</tbody></table>\n"
        // Loaded with the page (a clip is small), so the player shows the clip's length before it plays.
        card += "<audio controls=\"controls\" preload=\"auto\" src=\"data:audio/wav;base64,\(audioMark(clip.name))\"></audio></div>\n</article>\n"
        return card
    }

    /// What the set id in the page's header covers, said when it is pointed at.
    static let setIDMeaning =
        "the set's id: its clips and format; the app's installed clip names begin with it. soundset serve's pinned URLs use an id that also covers the reading and announcement settings (docs/serve.md)"

    /// A limit in seconds as written: 1.2, 4.
    static func fmtLimit(_ seconds: Double) -> String { String(format: "%g", seconds) }

    static func row(_ label: String, _ value: String) -> String {
        "<tr><th>\(escape(label))</th><td>\(escape(value))</td></tr>"
    }

    /// The sample announcements, written out, each with its composed file's and its chain's
    /// timeline drawn to one scale: the clips' when the longest fits, otherwise one of their own.
    static func announcementsSection(_ data: ReportData, words: ClipWords, clipScale: TimeScale) -> String {
        let schedules = data.announcements.map { try? NotificationSchedule(plan: $0.plan, announcementID: "report") }
        let longest = zip(data.announcements, schedules).map { max($0.plan.totalSeconds, $1?.totalSeconds ?? 0) }.max() ?? 0
        let ownScale = clipScale.width(longest) > timelineWidth
        let scale = ownScale ? TimeScale.fitting(longest, into: timelineWidth) : clipScale
        var section = "<section><h2>Sample announcements</h2>\n<p class=\"legend\">"
        if ownScale {
            section +=
                "The timelines share one scale of their own, \(scale.text) (at the clips' \(clipScale.text) the longest would be \(fmt(clipScale.width(longest))) px wide). "
        } else {
            section += "The timelines are drawn to the clips' scale, \(scale.text). "
        }
        section += "file: the composed announcement; chain: one notification per clip, each cut by the next. \(scale.bar)</p>\n"
        let maximum = data.configuration.maxAmount
        for (sample, schedule) in zip(data.announcements, schedules) {
            let plan = sample.plan
            let above = (try? Amount(plan.amount)).map { $0 > maximum } ?? false
            let lang = words.guide.locale.reading.pageLanguage
            section +=
                "<div class=\"announcement\"><h3>\(escape(plan.amount)) <span class=\"said\" lang=\"\(lang)\">\(escape(words.written(plan.clips)))</span> "
            section +=
                "<small>\(String(format: "%.3f s, %d clips; preview at %g kHz", plan.totalSeconds, plan.steps.count, (Double(sample.previewRate) / 100).rounded() / 10))</small>"
            if let note = sample.note { section += " <small class=\"note\">\(escape(note))</small>" }
            if above { section += " <small class=\"alert\">above maxAmount \(escape(maximum.description)): the check does not budget it</small>" }
            section += "</h3>\n" + timeline(plan, schedule: schedule, words: words, scale: scale)
            section += "<audio controls=\"controls\" preload=\"auto\" src=\"data:audio/wav;base64,\(sample.preview)\"></audio></div>\n"
        }
        for problem in data.announcementProblems { section += "<p class=\"alert\">\(escape(problem))</p>\n" }
        // Clips no sample says (亿 when no amount up to maxAmount needs it): said, not hidden.
        let said = Set(data.announcements.flatMap { $0.plan.steps.map(\.clip) })
        let unsaid = data.manifest.clips.map(\.name).filter { !said.contains($0) }
        if !data.announcements.isEmpty && !unsaid.isEmpty {
            let named = unsaid.map { name in words.guide.entries.first { $0.name == name }.map { "\(name) (\($0.says))" } ?? name }
            section +=
                "<p class=\"legend unsaid\">No sample says \(escape(named.joined(separator: ", "))): \(data.configuration.report.amounts == nil ? "no amount up to maxAmount \(escape(maximum.description)) needs \(unsaid.count == 1 ? "it" : "them")" : "report.amounts has no amount that needs \(unsaid.count == 1 ? "it" : "them")"); the button above the clips plays every clip.</p>\n"
        }
        return section + "</section>\n"
    }

    /// Two rows at `scale`: the clips in the composed file, and in the notification chain.
    static func timeline(_ plan: AnnouncementPlan, schedule: NotificationSchedule?, words: ClipWords, scale: TimeScale) -> String {
        let left = 44.0, rowHeight = 22.0
        let total = max(plan.totalSeconds, schedule?.totalSeconds ?? 0)
        let width = left + scale.width(total) + 4
        var svg =
            "<svg class=\"timeline\" width=\"\(fmt(width))\" height=\"\(fmt(rowHeight * 2 + 6))\" data-seconds=\"\(String(format: "%.4f", total))\" role=\"img\" aria-label=\"timeline of \(escape(plan.amount))\">"
        func block(_ index: Int, start: Double, seconds: Double, row: Int, clip: String) {
            let x = left + scale.width(start), w = max(1, scale.width(seconds)), y = Double(row) * (rowHeight + 4)
            svg +=
                "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(w))\" height=\"\(fmt(rowHeight))\" rx=\"3\" class=\"step s\(index % 2)\"><title>\(escape(clip)) at \(String(format: "%.2f", start)) s</title></rect>"
            let label = words.says(clip)
            if Double(label.count) * words.guide.locale.reading.characterWidth + 4 <= w {
                svg += "<text x=\"\(fmt(x + w / 2))\" y=\"\(fmt(y + 15))\">\(escape(label))</text>"
            }
        }
        svg += "<text x=\"0\" y=\"15\" class=\"row\">file</text>"
        for (index, step) in plan.steps.enumerated() { block(index, start: step.start, seconds: step.seconds, row: 0, clip: step.clip) }
        svg += "<text x=\"0\" y=\"\(fmt(rowHeight + 19))\" class=\"row\">chain</text>"
        if let schedule {
            for (index, item) in schedule.items.enumerated() {
                let step = plan.steps[index]
                let next = index + 1 < schedule.items.count ? schedule.items[index + 1].delay : item.delay + step.seconds
                block(index, start: item.delay, seconds: min(step.seconds, next - item.delay), row: 1, clip: step.clip)
            }
        } else {
            svg += "<text x=\"\(fmt(left))\" y=\"\(fmt(rowHeight + 19))\" class=\"row\">cannot be scheduled as a chain</text>"
        }
        return svg + "</svg>\n"
    }

    /// Per clip, in the page's order: the recording's loudness (a dot) against the one level the
    /// set brings every clip to (the line), and the gain that took it there (a bar left or right of 0 dB).
    static func loudnessChart(_ data: ReportData, words: ClipWords) -> String {
        let clips = words.grouped(data.clips, name: \.name).flatMap(\.items)
        let level = data.manifest.loudness.setLevel
        let rowHeight = 18.0, labelWidth = 150.0, panel = 380.0, gap = 70.0, top = 22.0
        let height = top + Double(clips.count) * rowHeight + 22
        let before = clips.map(\.loudnessBefore).filter(\.isFinite)
        let low = (min(before.min() ?? level, level) - 2) / 5, high = (max(before.max() ?? level, level) + 2) / 5
        let lufsRange = (low.rounded(.down) * 5)...(high.rounded(.up) * 5)
        func x(_ lufs: Double) -> Double {
            labelWidth + (max(lufsRange.lowerBound, min(lufsRange.upperBound, lufs)) - lufsRange.lowerBound) / (lufsRange.upperBound - lufsRange.lowerBound)
                * panel
        }
        let gains = clips.map(\.clip.gain)
        let gainReach = max(5, ((gains.map(abs).max() ?? 0) / 5).rounded(.up) * 5)
        let zero = labelWidth + panel + gap + panel / 2
        func g(_ db: Double) -> Double { zero + max(-1, min(1, db / gainReach)) * panel / 2 }
        let bottom = top + Double(clips.count) * rowHeight
        var svg =
            "<svg viewBox=\"0 0 \(fmt(zero + panel / 2 + 30)) \(fmt(height))\" class=\"chart\" role=\"img\" aria-label=\"each recording's loudness against the set level, and each clip's gain\">"
        let divider = labelWidth + panel + gap / 2
        for index in stride(from: 0, to: clips.count, by: 2) {
            let y = top + Double(index) * rowHeight
            svg += "<rect x=\"0\" y=\"\(fmt(y))\" width=\"\(fmt(divider - 10))\" height=\"\(fmt(rowHeight))\" class=\"band\"/>"
            svg +=
                "<rect x=\"\(fmt(divider + 10))\" y=\"\(fmt(y))\" width=\"\(fmt(zero + panel / 2 + 20 - divider))\" height=\"\(fmt(rowHeight))\" class=\"band\"/>"
        }
        svg += "<text x=\"\(fmt(labelWidth))\" y=\"12\" class=\"head\">recorded loudness, LUFS</text>"
        svg += "<text x=\"\(fmt(zero - panel / 2))\" y=\"12\" class=\"head\">gain applied, dB</text>"
        for lufs in stride(from: lufsRange.lowerBound, through: lufsRange.upperBound, by: 5) {
            svg += "<line x1=\"\(fmt(x(lufs)))\" y1=\"\(fmt(top))\" x2=\"\(fmt(x(lufs)))\" y2=\"\(fmt(bottom))\" class=\"grid\"/>"
            svg += "<text x=\"\(fmt(x(lufs)))\" y=\"\(fmt(bottom + 14))\" class=\"tick\">\(Int(lufs))</text>"
        }
        for db in stride(from: -gainReach, through: gainReach, by: 5) {
            svg += "<line x1=\"\(fmt(g(db)))\" y1=\"\(fmt(top))\" x2=\"\(fmt(g(db)))\" y2=\"\(fmt(bottom))\" class=\"grid\(db == 0 ? " zero" : "")\"/>"
            svg += "<text x=\"\(fmt(g(db)))\" y=\"\(fmt(bottom + 14))\" class=\"tick\">\(db > 0 ? "+" : "")\(Int(db))</text>"
        }
        svg += "<line x1=\"\(fmt(divider))\" y1=\"4\" x2=\"\(fmt(divider))\" y2=\"\(fmt(height - 4))\" class=\"divider\"/>"
        for (index, clip) in clips.enumerated() {
            let y = top + Double(index) * rowHeight, middle = y + rowHeight / 2
            let said = words.entry(clip.name).map { " \($0.says)" } ?? ""
            svg += "<text x=\"\(fmt(labelWidth - 8))\" y=\"\(fmt(middle + 4))\" class=\"label\">\(escape(clip.name + said))</text>"
            if clip.loudnessBefore.isFinite {
                let from = x(clip.loudnessBefore), to = x(level)
                svg += "<line x1=\"\(fmt(from))\" y1=\"\(fmt(middle))\" x2=\"\(fmt(to))\" y2=\"\(fmt(middle))\" class=\"move\"/>"
                svg +=
                    "<circle cx=\"\(fmt(from))\" cy=\"\(fmt(middle))\" r=\"4\" class=\"before\"><title>\(escape(clip.name)): \(String(format: "%.1f LUFS", clip.loudnessBefore))</title></circle>"
            }
            let gain = clip.clip.gain
            let bar = abs(g(gain) - zero)
            svg +=
                "<rect x=\"\(fmt(min(zero, g(gain))))\" y=\"\(fmt(y + 4))\" width=\"\(fmt(bar))\" height=\"\(fmt(rowHeight - 8))\" class=\"gain \(gain < 0 ? "down" : "up")\" data-clip=\"\(escape(clip.name))\" data-gain=\"\(String(format: "%.2f", gain))\"/>"
            let labelX = gain < 0 ? min(zero, g(gain)) - 4 : zero + bar + 4
            svg += "<text x=\"\(fmt(labelX))\" y=\"\(fmt(middle + 4))\" class=\"value\(gain < 0 ? " left" : "")\">\(String(format: "%+.1f", gain))</text>"
        }
        svg += "<line x1=\"\(fmt(x(level)))\" y1=\"\(fmt(top - 4))\" x2=\"\(fmt(x(level)))\" y2=\"\(fmt(bottom))\" class=\"level\"/>"
        svg += "</svg>\n"
        let spread = spreads(data)
        let finite = clips.filter(\.loudnessBefore.isFinite)
        var legend =
            "<p class=\"legend\"><span class=\"key before\"></span> each recording as taken (trimmed); <span class=\"key level\"></span> the set level, \(String(format: "%.1f LUFS", level)), every clip after normalisation; <span class=\"key gain\"></span> the gain that took it there. "
        if let quietest = finite.min(by: { $0.loudnessBefore < $1.loudnessBefore }), let loudest = finite.max(by: { $0.loudnessBefore < $1.loudnessBefore }) {
            legend += String(
                format: "<b>The recordings spread %.1f LU</b> (%@ quietest at %.1f LUFS, %@ loudest at %.1f LUFS); after: %.2f LU.", spread.before,
                escape(quietest.name), quietest.loudnessBefore, escape(loudest.name), loudest.loudnessBefore, spread.after)
        }
        return svg + legend + "</p>\n"
    }

    /// A button that plays every clip's player in turn, in the page's order, each scrolled into
    /// view; pressed again, it stops. (No `<` or `&` in the script: the page stays well-formed XML.)
    static let playEveryClip =
        "<p><button type=\"button\" id=\"play-every-clip\">Play every clip in turn</button></p>\n<script>"
        + "(function(){var b=document.getElementById('play-every-clip'),run=0;b.onclick=function(){var list=document.querySelectorAll('.clip audio'),i=0,me=++run;"
        + "for(var a of list)a.pause();if(b.dataset.playing){delete b.dataset.playing;b.textContent='Play every clip in turn';return}"
        + "b.dataset.playing='1';b.textContent='Stop';function next(){if(me!=run)return;if(i==list.length){delete b.dataset.playing;b.textContent='Play every clip in turn';return}"
        + "var a=list[i++];a.currentTime=0;a.onended=next;a.scrollIntoView({block:'nearest'});a.play()}next()}})();</script>\n"

    /// Escapes text for HTML (and XML) content and attributes.
    static func escape(_ text: String) -> String {
        // Most of what the page says needs nothing escaped: it is returned as it is.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0 }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            // NUL marks where a clip's sound goes (`audioMark`): no text the page shows carries one.
            case "\u{0}": escaped += "\u{FFFD}"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static let css = """
        :root{--ink:#1d2330;--muted:#5b6475;--line:#e3e6ec;--card:#fff;--bg:#f5f6f8;--accent:#2f6fed;--warn:#c2410c;--ok:#15803d}
        *{box-sizing:border-box}body{margin:0;font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;color:var(--ink);background:var(--bg)}
        header,section,footer{max-width:1100px;margin:0 auto;padding:16px 20px}header h1{margin:8px 0 0;font-size:26px}header p,footer{color:var(--muted)}
        h2{font-size:18px;margin:8px 0 12px}h3{margin:0 0 6px;font-size:15px}small{color:var(--muted);font-weight:normal}code{font:13px ui-monospace,Menlo,Consolas,monospace}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
        .card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}.card p{margin:4px 0;color:var(--muted);font-size:13px}
        .card .value{font-size:22px;color:var(--ink);font-weight:600}.card.alert .value{color:var(--warn)}
        .warnings{margin:6px 0;padding-left:18px;color:var(--warn);font-size:13px}.warnings a{color:inherit}.ok{color:var(--ok)}.alert{color:var(--warn)}
        .legend{font-size:13px;color:var(--muted)}.legend svg{vertical-align:middle;margin-left:8px}
        .key{display:inline-block;width:12px;height:8px;margin:0 4px 0 8px;vertical-align:middle}.key.before{background:#5b6475;border-radius:50%;width:9px;height:9px}.key.level{background:var(--accent);width:3px;height:12px}.key.gain{background:#7fb08f}
        .chart{width:100%;background:var(--card);border:1px solid var(--line);border-radius:10px}
        .chart .grid{stroke:var(--line)}.chart .grid.zero{stroke:#9aa3b2}.chart .band{fill:#f6f7f9}.chart .divider{stroke:#c9ced8;stroke-dasharray:3 3}.chart .tick{font-size:10px;fill:var(--muted);text-anchor:middle}
        .chart .head{font-size:11px;fill:var(--muted);font-weight:600}.chart .label{font-size:11px;fill:var(--ink);text-anchor:end}
        .chart .before{fill:#5b6475}.chart .move{stroke:#b8bfcc;stroke-width:1.5}.chart .level{stroke:var(--accent);stroke-width:2}
        .chart .gain.up{fill:#7fb08f}.chart .gain.down{fill:#e3a27a}.chart .value{font-size:10px;fill:var(--muted)}.chart .value.left{text-anchor:end}
        .announcement{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin-bottom:10px;overflow-x:auto}
        .said{font-size:17px;font-weight:600;margin:0 6px}
        .timeline{display:block;margin:8px 0}.timeline .step.s0{fill:#dbe6fd}.timeline .step.s1{fill:#c3d5fb}.timeline text{font-size:12px;fill:var(--ink);text-anchor:middle}.timeline .row{fill:var(--muted);text-anchor:start;font-size:11px}
        .scalebar path{stroke:var(--ink);stroke-width:1.5;fill:none}.scalebar text{font-size:11px;fill:var(--ink)}
        .group{margin:18px 0 8px;font-size:16px}
        .clips{display:flex;flex-direction:column;gap:8px}
        .clip{display:grid;grid-template-columns:150px minmax(0,1fr) 240px;gap:14px;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}.clip.flagged{border-color:#f4b183}
        .who .says{font-size:30px;line-height:1.1;margin:0;font-weight:600}.who .says.unknown{font-size:18px}.who .pinyin{margin:0;color:var(--muted)}.who h3{margin:4px 0}
        .badge{display:inline-block;font-size:11px;border-radius:9px;padding:0 7px;background:#fff1e0;color:#9a3412;border:1px solid #f4b183}
        .limit{font-size:12px;color:var(--muted)}.limit svg{display:block;margin-top:2px}.limit .track{fill:var(--line)}.limit .fill{fill:#7fb08f}.limit.over{color:var(--warn)}.limit.over .fill{fill:var(--warn)}
        .waves{min-width:0;overflow-x:auto}.caption{margin:2px 0 1px;font-size:12px;color:var(--muted)}
        .wave{display:block;background:#fafbfc;border-left:1px solid #c9ced8;border-right:1px solid #c9ced8}
        .wave .cut{fill:#e8e9ee}.wave .sound{fill:#fff4d6}.wave .source{fill:#7c8596}.wave .output{fill:var(--accent)}
        table{width:100%;border-collapse:collapse;margin:0 0 2px;font-size:12px;line-height:1.3}th{text-align:left;color:var(--muted);font-weight:normal;padding:0}td{text-align:right;padding:0}
        audio{width:100%;height:30px;margin-top:4px}
        """
}

extension ReportPage {
    /// Where clip `name`'s sound goes in the page's text: NUL, the name, NUL (a clip's name has no
    /// NUL, and `escape` keeps every other text free of it). `assemble` puts the sound there.
    static func audioMark(_ name: String) -> String { "\u{0}\(name)\u{0}" }

    /// The page's bytes: `html` with each clip's mark replaced by its sound (`ClipAudio`), each
    /// clip read when its place comes, so no more than one clip's sound is held besides the page.
    /// - Throws: `BuildProblem` naming a clip file that cannot be read, or the page when a mark
    ///   names no clip of `clips`.
    static func assemble(_ html: String, clips: [String: ClipAudio], display: String) throws(BuildProblem) -> Data {
        var page = Data()
        page.reserveCapacity(html.utf8.count)
        var parts = html.utf8.split(separator: 0, omittingEmptySubsequences: false).makeIterator()
        while let text = parts.next() {
            page.append(contentsOf: text)
            guard let name = parts.next() else { break }
            guard let audio = clips[String(decoding: name, as: UTF8.self)] else {
                throw BuildProblem(display, ReportProblem.undrawable(reason: "a clip's sound is marked for a clip the set does not have"))
            }
            page.append(try audio.base64WAV())
        }
        return page
    }
}

