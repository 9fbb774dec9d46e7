import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A folder of looks as catalog entries: every `.cube` file becomes `look:NAME` (its name
/// without `.cube`, lower case, other characters than letters, digits, `-` and `_` as `-`),
/// titled by its `TITLE`, so the filter cycle (`n`/`p`) and `filter=` offer it. Each file
/// is read and checked when the folder is added: a bad file is left out, with its error,
/// rather than offered and then refused; so is one whose name gives the same look name as
/// a file before it. Hidden files (`.name.cube`) are not looks. A look that replaces one
/// of the same name from before (a shipped look, another folder) is said.
public enum LookFolder {
    /// The folder the elements add at start when set (as their `looks` property does).
    public static let environmentVariable = "FILTERCAM_LOOKS"

    public struct Added: Sendable {
        /// The ids added, in file-name order.
        public var ids: [String] = []
        /// One message per file left out, naming it (and the line).
        public var problems: [String] = []
        /// One message per look that replaced an earlier one of the same name.
        public var replaced: [String] = []
    }

    /// Adds the looks in `folder` to `registry`.
    public static func add(_ folder: String, to registry: FilterRegistry = .shared) throws(FilterError) -> Added {
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        guard exists, isFolder, let (names, notUTF8) = fileNames(in: folder) else {
            let why = !exists ? "does not exist" : isFolder ? "cannot be read" : "is not a folder"
            throw FilterError("the looks folder \(folder.quotedForMessage) \(why); give a folder of .cube files")
        }
        var added = Added()
        // Absolute, so the entries still find their files if the working folder changes.
        let absolute = absolutePath(folder)
        var namesHere: [String: String] = [:]   // look name → the file in this folder that gave it
        for name in notUTF8 where name.lowercased().hasSuffix(".cube") {
            added.problems.append("\(name.quotedForMessage): its name is not UTF-8 (a Latin-1 name from an old archive, say), "
                                  + "so no look name or path can be made of it: rename it")
        }
        // In the order of the names shown (`My Look.cube` among the lower-case ones), not of the bytes.
        let files = names.filter { $0.lowercased().hasSuffix(".cube") && !$0.hasPrefix(".") }
            .map { (id: "look:" + Self.id(forFile: $0), name: $0) }
            .sorted { ($0.id, $0.name) < ($1.id, $1.name) }
        for (id, name) in files {
            let path = absolute.hasSuffix("/") ? absolute + name : absolute + "/" + name
            if let first = namesHere[id] {
                added.problems.append("\(name.quotedForMessage): its look name \(id) is taken by \(first.quotedForMessage) (rename one of them)")
                continue
            }
            do {
                let look = try LookLibrary.load(path)
                let earlier = Self.addedFrom.withLock { known -> String? in
                    defer { known[Key(registry: ObjectIdentifier(registry), id: id)] = path }
                    return known[Key(registry: ObjectIdentifier(registry), id: id)]
                }
                if let earlier, earlier != path, registry.descriptor(id: id) != nil {
                    added.replaced.append("\(id) is now \(path.quotedForMessage), in place of \(earlier.quotedForMessage)")
                }
                namesHere[id] = name
                registry.register(LookFilter.descriptor(
                    id: id, title: look.title.map { $0.isEmpty ? nil : $0 }.flatMap { $0 } ?? String(name.dropLast(5)),
                    summary: "The look in \(name) (\(look.shapeDescription))", file: path))
                added.ids.append(id)
            } catch {
                added.problems.append("\(error)")

            }
        }
        return added
    }

    /// The file each look name was last added from, per registry: adding the same folder
    /// again replaces nothing, another file of the same name is said.
    private struct Key: Hashable {
        let registry: ObjectIdentifier
        let id: String
    }
    private static let addedFrom = Locked<[Key: String]>([:])

    /// The names in `folder`: those that are UTF-8, and the others as best read (their
    /// bytes cannot make a path again; `contentsOfDirectory` gave them as if missing).
    static func fileNames(in folder: String) -> (utf8: [String], notUTF8: [String])? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var utf8: [String] = [], other: [String] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes != Array(".".utf8), bytes != Array("..".utf8) else { continue }
            if let name = String(validating: bytes, as: UTF8.self) { utf8.append(name) } else { other.append(String(decoding: bytes, as: UTF8.self)) }
        }
        return (utf8, other)
    }

    /// `path` from the working folder, as the entries keep their files.
    static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A file's catalog name: `Teal Orange.cube` is `teal-orange`, `Café.cube` `café`,
    /// `İstanbul.cube` `istanbul` (lower-casing İ gives i and a combining dot, a name no
    /// one types; any other é, composed or not, is the é a user types: Strings compare so).
    static func id(forFile name: String) -> String {
        let dotless = String(String.UnicodeScalarView(name.dropLast(".cube".count).unicodeScalars.map { $0 == "\u{130}" ? "I" : $0 }))
        let mapped = dotless.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return String(mapped)
    }
}
