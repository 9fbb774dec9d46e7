/// Help texts laid out for an 80-column terminal: words wrapped under a hanging indent, so
/// nothing is cut and no line runs past the edge.
public enum HelpText {
    public static let width = 80

    /// `text` wrapped to `width`, each line starting with `indent` spaces (the first with
    /// `first` instead, when given).
    public static func wrap(_ text: String, indent: Int, first: String? = nil) -> String {
        wrap(units: text.split(separator: " ").map(String.init), indent: indent, first: first)
    }

    /// The same for units that must not be broken (e.g. `NAME="a value"`), one space apart.
    public static func wrap(units: [String], indent: Int, first: String? = nil) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = first ?? pad
        var lineIsEmpty = true
        for unit in units where !unit.isEmpty {
            if !lineIsEmpty && line.count + 1 + unit.count > width {
                lines.append(line)
                line = pad
                lineIsEmpty = true
            }
            line += (lineIsEmpty ? "" : " ") + unit
            lineIsEmpty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
