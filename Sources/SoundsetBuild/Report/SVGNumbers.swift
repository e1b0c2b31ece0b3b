/// A waveform reduced to a few hundred (min, max) columns, for drawing.
struct Waveform: Sendable {
    var minimums: [Float]
    var maximums: [Float]

    /// Reduces `samples` to at most `columns` columns of their lowest and highest value.
    init(_ samples: [Float], columns: Int = 300) {
        let count = max(1, min(columns, samples.count))
        minimums = [Float](repeating: 0, count: count)
        maximums = [Float](repeating: 0, count: count)
        guard !samples.isEmpty else { return }
        for column in 0..<count {
            let start = column * samples.count / count
            let end = max(start + 1, (column + 1) * samples.count / count)
            var low: Float = 0, high: Float = 0
            for index in start..<end {
                low = Swift.min(low, samples[index])
                high = Swift.max(high, samples[index])
            }
            minimums[column] = low
            maximums[column] = high
        }
    }

    /// An SVG path that fills the waveform in a `width` × `height` box.
    func path(width: Double, height: Double) -> String {
        let count = maximums.count
        let middle = height / 2
        func x(_ column: Int) -> String { fmt(Double(column) * width / Double(max(1, count - 1))) }
        func y(_ value: Float) -> String { fmt(middle - Double(max(-1, min(1, value))) * middle) }
        var path = "M0 \(fmt(middle))"
        for column in 0..<count { path += " L\(x(column)) \(y(maximums[column]))" }
        for column in stride(from: count - 1, through: 0, by: -1) { path += " L\(x(column)) \(y(minimums[column]))" }
        return path + " Z"
    }
}

/// A number with at most one decimal, for compact SVG.
func fmt(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

extension Waveform {
    /// The same waveform in at most `columns` columns, each the lowest and highest of the ones it joins.
    func reduced(to columns: Int) -> Waveform {
        let count = maximums.count
        let target = max(1, min(columns, count))
        guard target < count else { return self }
        var reduced = self
        reduced.minimums = (0..<target).map { column in
            let start = column * count / target, end = max(start + 1, (column + 1) * count / target)
            return minimums[start..<end].min() ?? 0
        }
        reduced.maximums = (0..<target).map { column in
            let start = column * count / target, end = max(start + 1, (column + 1) * count / target)
            return maximums[start..<end].max() ?? 0
        }
        return reduced
    }
}
