/// File paths as text, as Foundation's `NSString` path methods treat them, without
/// Foundation: the elements link only what every pipeline needs (Foundation and its ICU
/// add ~10 ms to every start).
public enum FilePathText {
    /// The path without its last component: `a/b/c.jpg` → `a/b`, `/c.jpg` → `/`,
    /// `c.jpg` → `` (repeated and trailing slashes first collapsed, as NSString does).
    public static func folder(of path: String) -> String {
        var fixed = ""
        for c in path where !(c == "/" && fixed.hasSuffix("/")) { fixed.append(c) }
        if fixed.count > 1, fixed.hasSuffix("/") { fixed.removeLast() }
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return "" }
        return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }

    /// The last component: `a/b/c.jpg` → `c.jpg`, `a/b/` → `b`, `/` → `/` (as NSString).
    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
