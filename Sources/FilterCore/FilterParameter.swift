/// The declaration of one filter parameter. Declared once, it drives validation, the
/// filter-chain syntax, `filtercam filters`, the GObject property of the filter's own
/// element and what `inspect` shows.
public struct FilterParameter: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A real number in a closed range.
        case double(range: ClosedRange<Double>, defaultValue: Double)
        /// A whole number in a closed range.
        case int(range: ClosedRange<Int>, defaultValue: Int)
        case bool(defaultValue: Bool)
        /// A colour as 0xAARRGGBB (the convention of GStreamer's `textoverlay color`).
        case color(defaultValue: UInt32)
        /// A fixed-length list of reals, written `<a, b, c>` in the chain syntax.
        case doubleList(count: Int, range: ClosedRange<Double>, defaultValue: [Double])
        /// Text, e.g. a file's path; `what` says what it names (for messages and listings).
        /// In the chain syntax it is quoted ('…' or "…") when it holds spaces or commas.
        case text(what: String, defaultValue: String)
    }

    public let name: String
    public let kind: Kind
    /// One line, shown by `filtercam filters` and as the GObject property's blurb.
    public let summary: String

    public init(_ name: String, _ kind: Kind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }

    public var defaultValue: FilterValue {
        switch kind {
        case .double(_, let d): return .double(d)
        case .int(_, let d): return .int(d)
        case .bool(let d): return .bool(d)
        case .color(let d): return .color(d)
        case .doubleList(_, _, let d): return .doubleList(d)
        case .text(_, let d): return .text(d)
        }
    }

    /// Human-readable type and range, e.g. `double 0…1, default 0.8`.
    /// `rangeDescription` after "takes": "an int 2…64", "a double 0…1".
    public var rangeWithArticle: String {
        if case .int = kind { return "an " + rangeDescription }
        return "a " + rangeDescription
    }

    public var rangeDescription: String {
        switch kind {
        case .double(let r, let d): return "double \(format(r.lowerBound))…\(format(r.upperBound)), default \(format(d))"
        case .int(let r, let d): return "int \(r.lowerBound)…\(r.upperBound), default \(d)"
        case .bool(let d): return "bool, default \(d)"
        case .color(let d): return "colour (0xAARRGGBB, 0xRRGGBB or #RRGGBB), default \(FilterValue.color(d))"
        case .doubleList(let n, let r, let d):
            return "list of \(n) doubles \(format(r.lowerBound))…\(format(r.upperBound)), default <\(d.map(format).joined(separator: ", "))>"
        case .text(let what, let d): return "text (\(what)), default \(d.isEmpty ? "empty" : FilterValue.text(d).description)"
        }
    }

    /// Checks `value` against the declaration: right kind, within range.
    public func validate(_ value: FilterValue) throws(FilterError) -> FilterValue {
        switch (kind, value) {
        case (.double(let r, _), .double(let v)):
            guard v.isFinite, r.contains(v) else { throw outOfRange(value) }
            return value
        case (.double(let r, _), .int(let v)):
            guard r.contains(Double(v)) else { throw outOfRange(value) }
            return .double(Double(v))
        case (.int(let r, _), .int(let v)):
            guard r.contains(v) else { throw outOfRange(value) }
            return value
        case (.bool, .bool), (.color, .color):
            return value
        case (.text, .text(let v)):
            // A NUL would cut the text short wherever it becomes a C string (a path, a GValue).
            guard !v.utf8.contains(0) else { throw FilterError("parameter '\(name)' cannot hold a NUL character") }
            return value
        case (.doubleList(let n, let r, _), .doubleList(let list)):
            guard list.count == n else {
                throw FilterError("parameter '\(name)' takes \(n) values, got \(list.count)")
            }
            guard list.allSatisfy({ $0.isFinite && r.contains($0) }) else { throw outOfRange(value) }
            return value
        default:
            throw FilterError("parameter '\(name)' takes \(rangeWithArticle); got \(value)")
        }
    }

    private func outOfRange(_ value: FilterValue) -> FilterError {
        FilterError("value \(value) is out of range for parameter '\(name)' (\(rangeDescription))")
    }
}

/// A parameter's value.
public enum FilterValue: Sendable, Equatable, CustomStringConvertible {
    case double(Double)
    case int(Int)
    case bool(Bool)
    case color(UInt32)
    case doubleList([Double])
    case text(String)

    public var description: String {
        switch self {
        case .double(let v): return format(v)
        case .int(let v): return String(v)
        case .bool(let v): return v ? "true" : "false"
        case .color(let v):
            // All eight digits: "0xFF00" would read back as an opaque colour.
            let hex = String(v, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 8 - hex.count) + hex
        case .doubleList(let v): return "<" + v.map(format).joined(separator: ", ") + ">"
        case .text(let v): return FilterChain.quotedIfNeeded(v)
        }
    }
}

/// An error in a filter name, parameter or chain; its message names the culprit and
/// the valid choices.
public struct FilterError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Shortest decimal text for a double (`0.8`, `1`, `6500`).
func format(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}
