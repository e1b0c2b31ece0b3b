import Foundation
import SoundsetRuntime

/// Renders the report as one self-contained HTML page: inline CSS and SVG, audio as data URIs, no
/// network, no scripts. Written well-formed (every tag closed, attributes quoted) so it also parses
/// as XML, which the tests use to check it.
enum ReportPage {
    static func html(_ data: ReportData) -> String {
        let manifest = data.manifest
        let loudness = manifest.clips.map(\.loudness)
        let spread = (loudness.max() ?? 0) - (loudness.min() ?? 0)
        let longest = manifest.clips.max { $0.seconds < $1.seconds }
        let warnings = data.clips.flatMap { clip in clip.warnings.map { (clip.name, $0) } }
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>soundset report</title>
            <style>\(css)</style>
            </head>
            <body>
            <header><h1>Sound set report</h1><p>\(manifest.clips.count) clips · \(manifest.sampleRate) Hz \(manifest.container.rawValue) \(manifest.encoding.rawValue) · \(manifest.locale.rawValue) · soundset \(escape(manifest.toolVersion))</p></header>
            <section class="cards">
            """
        page += card("Level", String(format: "%.1f LUFS", manifest.loudness.setLevel), escape(manifest.loudness.reason))
        page += card("Spread", String(format: "%.2f LU", spread), "loudest minus quietest clip, after normalisation")
        if let longest { page += card("Longest clip", String(format: "%.3f s", longest.seconds), escape(longest.name)) }
        if let budget = data.check.budget {
            page += card(
                "Longest announcement", String(format: "%.2f s", budget.seconds),
                "\(escape(budget.worstAmount)) in \(budget.steps) steps (budget \(fmt(budget.limitSeconds)) s, up to \(escape(budget.maxAmount)))")
            let composed = budget.composed
            let dropped = composed.prefixDroppedFrom.map { "; from \(escape($0)) (the smallest such amount) without the prefix" } ?? ""
            page += card(
                "Longest composed", String(format: "%.2f s", composed.seconds),
                "\(escape(composed.amount)), against the \(fmt(composed.limitSeconds)) s banner\(dropped)", alert: composed.seconds > composed.limitSeconds)
        }
        if manifest.locale == .zhCN { page += tonesCard(data) }
        let count = data.check.problems.count
        page += card(
            "Check", data.check.ok ? "passed" : "\(count) problem\(count == 1 ? "" : "s")",
            data.check.ok ? "soundset check finds nothing wrong" : data.check.problems.map { escape($0.description) }.joined(separator: "<br/>"),
            alert: !data.check.ok)
        page += card("Warnings", String(warnings.count), warnings.isEmpty ? "nothing to re-record" : "see below", alert: !warnings.isEmpty)
        page += "</section>\n"

        page += "<section><h2>To re-record or check</h2>\n"
        if warnings.isEmpty {
            page += "<p class=\"ok\">No warnings.</p>\n"
        } else {
            page += "<ul class=\"warnings\">\n"
            for (name, warning) in warnings { page += "<li><a href=\"#clip-\(escape(name))\"><b>\(escape(name))</b></a>: \(escape(warning))</li>\n" }
            page += "</ul>\n"
        }
        page += "</section>\n"

        page += "<section><h2>Loudness before and after</h2>\n" + loudnessChart(data) + "</section>\n"

        page += "<section><h2>Sample announcements</h2>\n"
        for sample in data.announcements {
            let plan = sample.plan
            page +=
                "<div class=\"announcement\"><h3>\(escape(plan.amount)) <small>\(String(format: "%.3f s, %d clips; preview at 16 kHz", plan.totalSeconds, plan.steps.count))</small></h3>\n<p class=\"steps\">"
            for step in plan.steps {
                page += "<span class=\"step\"><b>\(escape(step.clip))</b> <small>\(String(format: "%.2f s", step.start))</small></span> "
            }
            page += "</p>\n<audio controls=\"controls\" preload=\"none\" src=\"data:audio/wav;base64,\(sample.wav.base64EncodedString())\"></audio></div>\n"
        }
        for problem in data.announcementProblems { page += "<p class=\"alert\">\(escape(problem))</p>\n" }
        page += "</section>\n"

        page += "<section><h2>Clips</h2>\n<div class=\"clips\">\n"
        for clip in data.clips { page += clipCard(clip) }
        page +=
            "</div>\n</section>\n<footer>Made by soundset \(escape(manifest.toolVersion)). Loudness: BS.1770 K-weighted over the whole clip, ungated; true peak 4x oversampled.</footer>\n</body>\n</html>\n"
        return page
    }

    /// Which amounts the optional takes of 一 in its changed tones would be heard in, and whether the
    /// set has them, so a designer knows whether they are worth recording.
    static func tonesCard(_ data: ReportData) -> String {
        let names = Set(data.manifest.clips.map(\.name))
        let samples = (data.announcements.map(\.plan.amount) + ["10000", "110000", "100000000", "1000", "110", "1100000"]).compactMap { try? Amount($0) }
        var lines: [String] = []
        for (variant, rule) in [("1_yi2", "一 before 万 and 亿 (yí)"), ("1_yi4", "一 before 十, 百 and 千 (yì)")] {
            let heard = samples.filter { ChineseReading.tokens(for: $0, variants: [variant]).map(\.clipName).contains(variant) }
            var seen: [String] = []
            for amount in heard.map(\.description) where !seen.contains(amount) { seen.append(amount) }
            let state = names.contains(variant) ? "in the set" : "not recorded: \(escape(ChineseToken.digit(1).clipName)) is read instead"
            lines.append("<b>\(variant)</b>, \(escape(rule)): \(state); heard in \(seen.prefix(6).map(escape).joined(separator: ", "))")
        }
        let both = ChineseReading.toneVariants.allSatisfy(names.contains)
        return card("Tones of 一", both ? "both takes" : "optional takes", lines.joined(separator: "<br/>"))
    }

    static func card(_ title: String, _ value: String, _ detail: String, alert: Bool = false) -> String {
        "<div class=\"card\(alert ? " alert" : "")\"><h3>\(escape(title))</h3><p class=\"value\">\(escape(value))</p><p>\(detail)</p></div>\n"
    }

    static func clipCard(_ clip: ClipReport) -> String {
        let width = 300.0, height = 60.0
        let keepStart = clip.keep.lowerBound * width, keepEnd = clip.keep.upperBound * width
        var card = "<article class=\"clip\(clip.warnings.isEmpty ? "" : " flagged")\" id=\"clip-\(escape(clip.name))\">\n"
        card += "<h3>\(escape(clip.name))</h3>\n"
        card +=
            "<p class=\"caption\">source \(escape(clip.sourceFile)), \(clip.sourceRate) Hz, \(String(format: "%.3f", clip.sourceSeconds)) s; shaded: room tone cut</p>\n"
        card += "<svg viewBox=\"0 0 \(fmt(width)) \(fmt(height))\" class=\"wave\" role=\"img\" aria-label=\"source waveform of \(escape(clip.name))\">"
        card += "<rect x=\"0\" y=\"0\" width=\"\(fmt(keepStart))\" height=\"\(fmt(height))\" class=\"cut\"/>"
        card += "<rect x=\"\(fmt(keepEnd))\" y=\"0\" width=\"\(fmt(width - keepEnd))\" height=\"\(fmt(height))\" class=\"cut\"/>"
        card +=
            "<rect x=\"\(fmt(clip.sound.lowerBound * width))\" y=\"0\" width=\"\(fmt((clip.sound.upperBound - clip.sound.lowerBound) * width))\" height=\"\(fmt(height))\" class=\"sound\"/>"
        card += "<path d=\"\(clip.sourceWave.path(width: width, height: height))\" class=\"source\"/></svg>\n"
        card += "<p class=\"caption\">output \(escape(clip.clip.file))\(clip.clip.copy.map { " (+ \(escape($0)))" } ?? "")</p>\n"
        card += "<svg viewBox=\"0 0 \(fmt(width)) \(fmt(height))\" class=\"wave\" role=\"img\" aria-label=\"output waveform of \(escape(clip.name))\">"
        card += "<path d=\"\(clip.outputWave.path(width: width, height: height))\" class=\"output\"/></svg>\n"
        card += "<table><tbody>"
        card += row("duration", String(format: "%.3f s → %.3f s", clip.sourceSeconds, clip.outputSeconds))
        card += row("loudness", String(format: "%.1f → %.2f LUFS", clip.loudnessBefore, clip.clip.loudness))
        card += row("gain", String(format: "%+.2f dB", clip.clip.gain))
        card += row("limiting", String(format: "%.2f dB", clip.clip.limiting))
        card += row("true peak", String(format: "%.2f dBTP", clip.clip.truePeak))
        card += row("frames", "\(clip.clip.frames)")
        card += "</tbody></table>\n"
        if !clip.warnings.isEmpty {
            card += "<ul class=\"warnings\">" + clip.warnings.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        card += "<audio controls=\"controls\" preload=\"none\" src=\"data:audio/wav;base64,\(clip.wav.base64EncodedString())\"></audio>\n</article>\n"
        return card
    }

    static func row(_ label: String, _ value: String) -> String {
        "<tr><th>\(escape(label))</th><td>\(escape(value))</td></tr>"
    }

    /// Horizontal bars: each clip's loudness before normalisation (grey) and after (blue), -60 to 0 LUFS.
    static func loudnessChart(_ data: ReportData) -> String {
        let rowHeight = 16.0, labelWidth = 120.0, plotWidth = 480.0
        let height = Double(data.clips.count) * rowHeight + 24
        func x(_ lufs: Double) -> Double { labelWidth + max(0, min(1, (lufs + 60) / 60)) * plotWidth }
        var svg =
            "<svg viewBox=\"0 0 \(fmt(labelWidth + plotWidth + 10)) \(fmt(height))\" class=\"chart\" role=\"img\" aria-label=\"clip loudness before and after normalisation\">"
        for lufs in stride(from: -60.0, through: 0, by: 10) {
            svg += "<line x1=\"\(fmt(x(lufs)))\" y1=\"0\" x2=\"\(fmt(x(lufs)))\" y2=\"\(fmt(height - 16))\" class=\"grid\"/>"
            svg += "<text x=\"\(fmt(x(lufs)))\" y=\"\(fmt(height - 4))\" class=\"tick\">\(Int(lufs))</text>"
        }
        for (index, clip) in data.clips.enumerated() {
            let y = Double(index) * rowHeight
            svg += "<text x=\"\(fmt(labelWidth - 6))\" y=\"\(fmt(y + 11))\" class=\"label\">\(escape(clip.name))</text>"
            if clip.loudnessBefore.isFinite {
                svg +=
                    "<rect x=\"\(fmt(labelWidth))\" y=\"\(fmt(y + 2))\" width=\"\(fmt(x(clip.loudnessBefore) - labelWidth))\" height=\"5\" class=\"before\"/>"
            }
            svg += "<rect x=\"\(fmt(labelWidth))\" y=\"\(fmt(y + 8))\" width=\"\(fmt(x(clip.clip.loudness) - labelWidth))\" height=\"5\" class=\"after\"/>"
        }
        svg += "</svg>\n<p class=\"legend\"><span class=\"key before\"></span> before (trimmed take) <span class=\"key after\"></span> after, LUFS</p>\n"
        return svg
    }

    /// Escapes text for HTML (and XML) content and attributes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static let css = """
        :root{--ink:#1d2330;--muted:#5b6475;--line:#e3e6ec;--card:#fff;--bg:#f5f6f8;--accent:#2f6fed;--warn:#c2410c}
        *{box-sizing:border-box}body{margin:0;font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
        header,section,footer{max-width:1100px;margin:0 auto;padding:16px 20px}header h1{margin:8px 0 0;font-size:26px}header p,footer{color:var(--muted)}
        h2{font-size:18px;margin:8px 0 12px}h3{margin:0 0 6px;font-size:15px}small{color:var(--muted);font-weight:normal}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
        .card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}.card p{margin:4px 0;color:var(--muted);font-size:13px}
        .card .value{font-size:24px;color:var(--ink);font-weight:600}.card.alert .value{color:var(--warn)}
        .warnings{margin:6px 0;padding-left:18px;color:var(--warn)}.warnings a{color:inherit}.ok{color:#15803d}.alert{color:var(--warn)}
        .chart{width:100%;max-width:620px;background:var(--card);border:1px solid var(--line);border-radius:10px}
        .chart .grid{stroke:var(--line)}.chart .tick{font-size:9px;fill:var(--muted);text-anchor:middle}.chart .label{font-size:10px;fill:var(--ink);text-anchor:end}
        .before{fill:#9aa3b2;background:#9aa3b2}.after{fill:var(--accent);background:var(--accent)}
        .legend{font-size:13px;color:var(--muted)}.key{display:inline-block;width:12px;height:8px;margin:0 4px 0 10px}
        .announcement{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin-bottom:10px}
        .steps{margin:6px 0}.step{display:inline-block;border:1px solid var(--line);border-radius:6px;padding:1px 6px;margin:2px;font-size:13px}
        .clips{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
        .clip{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}.clip.flagged{border-color:#f4b183}
        .caption{margin:6px 0 2px;font-size:12px;color:var(--muted)}
        .wave{width:100%;height:60px;background:#fafbfc;border:1px solid var(--line);border-radius:6px}
        .wave .cut{fill:#e8e9ee}.wave .sound{fill:#fff4d6}.wave .source{fill:#7c8596}.wave .output{fill:var(--accent)}
        table{width:100%;border-collapse:collapse;margin:8px 0;font-size:13px}th{text-align:left;color:var(--muted);font-weight:normal;padding:2px 0}td{text-align:right;padding:2px 0}
        audio{width:100%;height:32px;margin-top:6px}
        """
}
