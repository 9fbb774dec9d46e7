/// A parsed `filter` property value: one or more filters with parameters, applied in order.
///
/// Syntax (documented by `filtercam filters`): filters separated by commas, each an id
/// followed by `name=value` pairs separated by spaces, like a gst-launch element:
///
///     sepia intensity=0.8, vignette radius=0.7 intensity=1
///     channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>
///
/// Lists are written in angle brackets as in GStreamer caps; `none` (or an empty
/// string) is the unfiltered picture.
public struct FilterChain: Sendable, Equatable, CustomStringConvertible {
    public struct Step: Sendable, Equatable {
        public let id: String
        public var values: FilterValues
        /// Parameter names the user wrote explicitly (the `intensity` shortcut never overrides them).
        public var explicit: Set<String>
    }

    public private(set) var steps: [Step]

    public static let none = FilterChain(steps: [])

    init(steps: [Step]) { self.steps = steps }

    /// True when the chain changes no pixel (`none`).
    public var isIdentity: Bool { steps.isEmpty }

    /// The first filter's id ("none" for an empty chain): what next/previous filter step from.
    public var leadingID: String { steps.first?.id ?? "none" }

    /// The leading filter id of a chain as written; "none" when it does not parse.
    public static func leadingID(of text: String, registry: FilterRegistry = .shared) -> String {
        (try? parse(text, registry: registry))?.leadingID ?? "none"
    }

    /// How to write a chain, with examples: printed by `filtercam filters`.
    public static let syntaxHelp = """
        Filter chains (the `filter` property of filtercam):
          ID [NAME=VALUE ...] [, ID [NAME=VALUE ...]] ...

        A filter chain is one or more filters separated by commas, applied left to right.
        Each filter is its id followed by name=value parameters separated by spaces, like
        an element in gst-launch; parameters left out keep their defaults.

          sepia                                     sepia at its default intensity (0.8)
          sepia intensity=0.5                       half-strength sepia
          mono, vignette radius=0.7 intensity=1     grey, then dark corners
          posterize levels=4, sharpen amount=1
          exposure ev=-1.5                          one and a half stops darker
          color-controls brightness=0.1 contrast=1.3 saturation=0.5
          white-balance temperature=3500 tint=10    warmer light (lower kelvin is warmer)
          channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>
          focus-peaking threshold=80 color=0xFF00FF00
          lut file=looks/teal-orange.cube intensity=0.7   a colour look from a .cube file
          look:teal-orange                          a look from a folder (filtercam filters --looks DIR)
          none                                      the unfiltered picture (so is an empty chain)

        Values: numbers as 0.8 or 6; colours as 0xAARRGGBB, 0xRRGGBB or #RRGGBB (opaque);
        booleans as true/false; lists in angle brackets, <a, b, c>, spaces allowed inside;
        text (a file) as written, in quotes ('…' or "…") when it holds spaces or commas.
        On a gst-launch line, quote chains with spaces: filter="sepia intensity=0.8, vignette".
        Once set, the element's `intensity` property sets the first filter's strength
        parameter (e.g. sepia's intensity) unless the chain sets that parameter itself;
        until then each filter keeps its own default.
        """

    public static func parse(_ text: String, registry: FilterRegistry = .shared) throws(FilterError) -> FilterChain {
        // Tabs and line breaks separate words like spaces.
        let text = String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
        var steps: [Step] = []
        for part in try splitTopLevel(text, on: ",") {
            let words = try splitTopLevel(part, on: " ").filter { !$0.isEmpty }
            guard let id = words.first else {
                if text.trimmingSpaces.isEmpty { break }
                throw FilterError("empty filter in chain \(text.quotedForMessage); write filters as 'id name=value, id …'")
            }
            if id.contains("=") {
                throw FilterError("\(id.quotedForMessage) is not a filter id; each filter starts with its id, e.g. 'sepia intensity=0.8'; valid filters: \(registry.ids.joined(separator: ", "))")
            }
            let descriptor = try registry.lookup(id: id)
            var values = descriptor.defaultValues
            var explicit = Set<String>()
            for word in words.dropFirst() {
                guard let eq = word.firstIndex(of: "=") else {
                    throw FilterError("\(word.quotedForMessage) after \(id.quotedForMessage) is not name=value; parameters of \(id): \(parameterList(descriptor))")
                }
                let name = String(word[..<eq])
                let raw = String(word[word.index(after: eq)...])
                guard let parameter = descriptor.parameter(named: name) else {
                    let guess = NameSuggestion.hint(for: name, among: descriptor.parameters.map(\.name))
                    throw FilterError("filter \(id.quotedForMessage) has no parameter \(name.quotedForMessage)\(guess); its parameters: \(parameterList(descriptor))")
                }
                do {
                    values[name] = try parameter.validate(try parseValue(raw, for: parameter))
                } catch {
                    throw FilterError("filter '\(id)': \(error.message)")
                }
                explicit.insert(name)
            }
            do {
                try descriptor.check?(values)
            } catch {
                throw FilterError("filter '\(id)': \(error.message)")
            }
            if id == "none" && words.count == 1 { continue }
            steps.append(Step(id: id, values: values, explicit: explicit))
        }
        return FilterChain(steps: steps)
    }

    /// The chain with the first filter's strength parameter set to `strength` (clamped to
    /// its range), unless the chain text set that parameter explicitly.
    public func withStrength(_ strength: Double, registry: FilterRegistry = .shared) -> FilterChain {
        guard var first = steps.first,
              let descriptor = registry.descriptor(id: first.id),
              let name = descriptor.strengthParameter,
              !first.explicit.contains(name),
              let parameter = descriptor.parameter(named: name),
              case .double(let range, _) = parameter.kind
        else { return self }
        first.values[name] = .double(min(max(strength, range.lowerBound), range.upperBound))
        var copy = self
        copy.steps[0] = first
        return copy
    }

    /// Configured filter instances, in chain order.
    public func makeFilters(registry: FilterRegistry = .shared) -> [any FrameFilter] {
        steps.compactMap { step in registry.descriptor(id: step.id)?.make(step.values) }
    }

    public var description: String {
        if steps.isEmpty { return "none" }
        return steps.map { step in
            ([step.id] + step.values.values.keys.sorted().map { "\($0)=\(step.values.values[$0]!)" })
                .joined(separator: " ")
        }.joined(separator: ", ")
    }

    private static func parameterList(_ d: FilterDescriptor) -> String {
        d.parameters.isEmpty ? "(none)" : d.parameters.map { "\($0.name) (\($0.rangeDescription))" }.joined(separator: "; ")
    }

    public static func parseValue(_ raw: String, for p: FilterParameter) throws(FilterError) -> FilterValue {
        func bad() -> FilterError {
            FilterError("parameter \(p.name.quotedForMessage) cannot take \(raw.quotedForMessage); it takes \(p.rangeWithArticle)")
        }
        switch p.kind {
        case .double:
            guard let v = NumberText.double(raw) else { throw bad() }
            return .double(v)
        case .int:
            guard let v = Int(raw) else { throw bad() }
            return .int(v)
        case .bool:
            switch raw.lowercased() {
            case "true", "yes", "1", "on": return .bool(true)
            case "false", "no", "0", "off": return .bool(false)
            default: throw bad()
            }
        case .color:
            var hex = Substring(raw)
            if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex = hex.dropFirst(2) } else if hex.hasPrefix("#") { hex = hex.dropFirst() }
            // Exactly RRGGBB (opaque) or AARRGGBB: "F00" would silently be a dark green.
            guard hex.count == 6 || hex.count == 8, var v = UInt32(hex, radix: 16) else { throw bad() }
            if hex.count == 6 { v |= 0xFF00_0000 }
            return .color(v)
        case .text:
            return .text(unquoted(raw))
        case .doubleList:
            guard raw.hasPrefix("<"), raw.hasSuffix(">") else { throw bad() }
            let inner = raw.dropFirst().dropLast()
            var list: [Double] = []
            for item in inner.split(separator: ",", omittingEmptySubsequences: false) {
                guard let v = NumberText.double(String(item).trimmingSpaces) else { throw bad() }
                list.append(v)
            }
            return .doubleList(list)
        }
    }

    /// Text written in quotes ('…' or "…", the same at both ends) without them.
    static func unquoted(_ raw: String) -> String {
        guard let q = raw.first, q == "'" || q == "\"", raw.count >= 2, raw.last == q else { return raw }
        let inner = raw.dropFirst().dropLast()
        return inner.contains(q) ? raw : String(inner)
    }

    /// `text` as a chain writes it: bare when it reads back as itself, else in quotes.
    static func quotedIfNeeded(_ text: String) -> String {
        func readsBack(_ written: String) -> Bool {
            guard let words = try? splitTopLevel(written, on: " "), words == [written],
                  let items = try? splitTopLevel(written, on: ","), items == [written] else { return false }
            return unquoted(written) == text
        }
        return [text, "'\(text)'", "\"\(text)\""].first(where: readsBack) ?? text
    }

    /// Splits on `separator` outside `<…>` and quotes; for spaces, runs of spaces count once.
    static func splitTopLevel(_ text: String, on separator: Character) throws(FilterError) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for ch in text {
            if let q = quote {   // quoted text is taken as it is
                if ch == q { quote = nil }
                current.append(ch)
                continue
            }
            if ch == "'" || ch == "\"" {
                quote = ch
                current.append(ch)
                continue
            }
            if ch == "<" { depth += 1 }
            if ch == ">" {
                depth -= 1
                if depth < 0 { throw FilterError("unbalanced '>' in \(text.quotedForMessage)") }
            }
            if ch == separator && depth == 0 {
                parts.append(current.trimmingSpaces)
                current = ""
            } else if separator == " " && depth > 0 && ch == " " {
                continue  // spaces inside a list are layout
            } else {
                current.append(ch)
            }
        }
        if depth != 0 { throw FilterError("unbalanced '<' in \(text.quotedForMessage)") }
        if let quote { throw FilterError("unbalanced \(quote) in \(text.quotedForMessage): quotes come in pairs") }
        parts.append(current.trimmingSpaces)
        return parts
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
        return String(s)
    }

    var replacingTabsWithSpaces: String { String(map { $0 == "\t" ? " " : $0 }) }
}
