/// "Did you mean …": the known name closest to a mistyped one, by edit distance, when it
/// is close enough to be the likely intent (at most 2 edits, or a third of the name); else
/// the one known name that the given one begins (`look:teal` for `look:teal-orange`).
public enum NameSuggestion {
    public static func closest(to name: String, among candidates: [String]) -> String? {
        // The name in other letter case first (`QUIT`, `set ZOOM=2`): every letter is an
        // edit, so a short word had no suggestion at all.
        if let same = candidates.first(where: { $0 != name && $0.lowercased() == name.lowercased() }) { return same }
        // The distance is at least the difference in length: candidates too far by that
        // alone are not measured (a line of a megabyte piped as a command took seconds).
        let allowed = max(2, name.count / 3), length = name.count
        let scored = candidates.filter { abs($0.count - length) <= allowed }.map { ($0, distance(name, $0)) }.min { $0.1 < $1.1 }
        if let (best, d) = scored, d > 0, d <= allowed { return best }
        let begun = candidates.filter { $0.hasPrefix(name) && $0 != name }
        return name.count >= 3 && begun.count == 1 ? begun[0] : nil
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// " (did you mean "x"?)" or nothing, to end a message with.
    public static func hint(for name: String, among candidates: [String]) -> String {
        closest(to: name, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}
