import Foundation

/// File names for stills from a template with one printf-style counter (`%d`, `%05d`):
/// `snapshot-%05d.jpg` gives `snapshot-00000.jpg`, `snapshot-00001.jpg`, … The counter
/// skips every name that already exists, so a still never overwrites a file (recordings
/// are numbered the same way, `recording-%05d.mp4`). A bracketed
/// set shares one counter and gets an `-ev…` suffix per still (`snapshot-00003-ev-1.jpg`,
/// `snapshot-00003-ev+0.jpg`, `snapshot-00003-ev+1.jpg`).
public struct SnapshotNaming: Equatable {
    public struct TemplateError: Error, CustomStringConvertible {
        public let description: String
    }

    public let template: String
    private let prefix: String
    private let suffix: String
    private let width: Int

    /// `property` and `example` name the setting in what a refused template says.
    public init(template: String, property: String = "snapshot-location", example: String = "snapshot-%05d.jpg") throws {
        self.template = template
        let pattern = try NSRegularExpression(pattern: "%(0?)([0-9]*)d")
        let range = NSRange(template.startIndex..., in: template)
        let matches = pattern.matches(in: template, range: range)
        guard matches.count == 1, let match = matches.first,
              let whole = Range(match.range, in: template) else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) needs exactly one counter such as %05d or %d (e.g. \(example))")
        }
        let rest = template.replacingCharacters(in: whole, with: "")
        guard !rest.contains("%") else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) may hold only one %-conversion, the counter (%d or %05d); write %% nowhere else")
        }
        prefix = String(template[..<whole.lowerBound])
        suffix = String(template[whole.upperBound...])
        let digits = Range(match.range(at: 2), in: template).map { String(template[$0]) } ?? ""
        width = min(Int(digits) ?? 0, 12)
        guard !(prefix + suffix).hasSuffix("/"), !(prefix + "0" + suffix).hasSuffix("/") else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) names a folder, not a file")
        }
    }

    /// The folder the stills go to.
    public var folder: String {
        let dir = (prefix as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    public func path(counter: Int, bias: Double? = nil) -> String {
        var number = String(counter)
        if number.count < width { number = String(repeating: "0", count: width - number.count) + number }
        var tail = suffix
        if let bias {
            let ev = bias == bias.rounded() ? String(Int(bias)) : String(bias)
            let tag = "-ev" + (bias >= 0 ? "+" : "") + ev
            // Before the extension: the last dot after the last slash.
            if let dot = suffix.lastIndex(of: "."), !suffix[dot...].contains("/") {
                tail = String(suffix[..<dot]) + tag + String(suffix[dot...])
            } else {
                tail = suffix + tag
            }
        }
        return prefix + number + tail
    }

    /// The first counter ≥ `start` whose names (all biases of a set) are all free.
    public func nextFree(from start: Int, biases: [Double]) -> Int {
        var n = max(start, 0)
        while true {
            let names = biases.isEmpty ? [path(counter: n)] : biases.map { path(counter: n, bias: $0) }
            if !names.contains(where: { FileManager.default.fileExists(atPath: $0) }) { return n }
            n += 1
        }
    }

    /// Parses a bracket list such as `-1,0,1` (EV); empty means no bracketing.
    public static func parseBracket(_ text: String) throws -> [Double] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return [] }
        return try trimmed.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard let v = NumberText.double(item.trimmingCharacters(in: .whitespaces)), v.isFinite, abs(v) <= 10 else {
                throw TemplateError(description: "snapshot-bracket \(text.quotedForMessage): \(item.quotedForMessage) is not an exposure bias in EV from -10 to 10 (write e.g. -1,0,1)")
            }
            return v
        }
    }
}
