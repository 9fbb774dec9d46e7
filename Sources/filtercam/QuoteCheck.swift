import FilterCamTool

/// An unclosed `"` makes GStreamer's parser swallow the rest of the description into one
/// value, and the error then names something else (`unknown filter '"sepia'`). Found
/// first, it is named with its line.
enum QuoteCheck {
    /// The problem, or nil when every double quote is closed (a `\"` inside a quoted value
    /// does not count).
    static func problem(in description: String, file: PipelineFile?, argument: String) -> String? {
        var open: String.Index?
        var i = description.startIndex
        while i < description.endIndex {
            let c = description[i]
            if c == "\\" {
                i = description.index(after: i)
                if i < description.endIndex { i = description.index(after: i) }
                continue
            }
            if c == "\"" { open = open == nil ? i : nil }
            i = description.index(after: i)
        }
        guard let open else { return nil }
        let rest = description[open...].prefix(30)
        guard let file else {
            return "a double quote is never closed: \(rest)…"
        }
        // The quote's line in the file: the first line whose quotes do not pair up.
        var balanced = true
        for (number, line) in file.sourceLines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            if line.filter({ $0 == "\"" }).count % 2 == 1 { balanced.toggle() }
            if !balanced {
                return "\(argument):\(number + 1): a double quote is never closed: \(line.trimmingCharacters(in: .whitespaces))"
            }
        }
        return "\(argument): a double quote is never closed: \(rest)…"
    }
}
