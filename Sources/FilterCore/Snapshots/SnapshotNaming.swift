import FoundationEssentials

/// File names for stills from a template with one printf-style counter (`%d`, `%05d`):
/// `snapshot-%05d.jpg` gives `snapshot-00000.jpg`, `snapshot-00001.jpg`, … The counter
/// skips every name that already exists, so a still never overwrites a file (recordings
/// are numbered the same way, `recording-%05d.mp4`). `%%` is a literal `%`, as in
/// `multifilesink`'s and `splitmuxsink`'s templates (`100%%-crop-%d.jpg`). A bracketed
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
        let counters = Self.counters(in: template)
        guard counters.count == 1, let (whole, digits) = counters.first else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) needs exactly one counter such as %05d or %d (e.g. \(example))")
        }
        let rawPrefix = template[..<whole.lowerBound], rawSuffix = template[whole.upperBound...]
        guard ![rawPrefix, rawSuffix].contains(where: { String($0).replacing("%%", with: "").contains("%") }) else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) may hold only one %-conversion, the counter (%d or %05d); a literal % is written %%")
        }
        prefix = String(rawPrefix).replacing("%%", with: "%")
        suffix = String(rawSuffix).replacing("%%", with: "%")
        width = min(Int(digits) ?? 0, 200)   // as printf (and multifilesink) pad; a file name holds 255 bytes
        guard !(prefix + suffix).hasSuffix("/"), !(prefix + "0" + suffix).hasSuffix("/") else {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) names a folder, not a file")
        }
        // A name that promises another kind of file than the one written (a still named .png
        // was a JPEG, silently): refused. Names without a media extension are taken.
        let written = Self.fileKind(of: example)
        if let kind = Self.fileKind(of: prefix + "0" + suffix), let written, kind.name != written.name {
            throw TemplateError(description: "\(property) \(template.quotedForMessage) names \(kind.name) files, but they are written as \(written.name): "
                                + "end the name in \(written.extensions.map { "." + $0 }.joined(separator: " or ")) (e.g. \(example))")
        }
    }

    /// The kinds of media file a name can promise, by extension.
    private static let fileKinds: [(name: String, extensions: [String])] = [
        ("JPEG", ["jpg", "jpeg"]), ("MP4", ["mp4", "m4v"]),
        ("PNG", ["png"]), ("GIF", ["gif"]), ("BMP", ["bmp"]), ("TIFF", ["tif", "tiff"]), ("WebP", ["webp"]),
        ("HEIF", ["heic", "heif"]), ("AVIF", ["avif"]), ("JPEG XL", ["jxl"]), ("JPEG 2000", ["jp2", "j2k", "jpx"]),
        ("Netpbm", ["ppm", "pgm", "pbm", "pnm"]), ("SVG", ["svg"]), ("ICO", ["ico"]), ("OpenEXR", ["exr"]),
        ("Radiance HDR", ["hdr"]), ("QOI", ["qoi"]), ("Photoshop", ["psd"]), ("DNG", ["dng"]),
        ("Matroska", ["mkv"]), ("WebM", ["webm"]), ("QuickTime", ["mov"]), ("AVI", ["avi"]),
        ("MPEG-TS", ["ts", "m2ts"]), ("Ogg", ["ogv", "ogg"]), ("FLV", ["flv"]), ("WMV", ["wmv"]),
        ("3GP", ["3gp"]), ("MPEG", ["mpg", "mpeg", "m2v"]), ("MXF", ["mxf"]), ("Y4M", ["y4m"]),
        ("raw H.264/H.265", ["h264", "264", "h265", "265", "hevc"]),
    ]

    /// The kind of media file `name` promises by its extension (nil: none known).
    private static func fileKind(of name: String) -> (name: String, extensions: [String])? {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = file.lastIndex(of: ".") else { return nil }
        let ext = file[file.index(after: dot)...].lowercased().trimmingSpaces   // 'a-%d.png ' promises a PNG too
        return fileKinds.first { $0.extensions.contains(ext) }
    }

    /// The counters in `template`, left to right: `%`, an optional `0`, digits (the
    /// width), `d`; with the width's digits. `%%` (a literal `%`) is passed over.
    private static func counters(in template: String) -> [(range: Range<String.Index>, digits: Substring)] {
        let scalars = template.unicodeScalars
        var found: [(range: Range<String.Index>, digits: Substring)] = []
        var next = scalars.startIndex
        while let percent = scalars[next...].firstIndex(of: "%") {
            var i = scalars.index(after: percent)
            if i < scalars.endIndex, scalars[i] == "%" {
                next = scalars.index(after: i)
                continue
            }
            if i < scalars.endIndex, scalars[i] == "0" { i = scalars.index(after: i) }
            let digitsStart = i
            while i < scalars.endIndex, ("0"..."9").contains(scalars[i]) { i = scalars.index(after: i) }
            if i < scalars.endIndex, scalars[i] == "d" {
                next = scalars.index(after: i)
                found.append((percent..<next, template[digitsStart..<i]))
            } else {
                next = scalars.index(after: percent)
            }
        }
        return found
    }

    /// The folder the stills go to.
    public var folder: String {
        let dir = FilePathText.folder(of: prefix)
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

    /// The number after the highest one the folder's names of this template carry (0:
    /// none), where a new run's counter starts: as a camera's DCIM counter, it only counts
    /// up, so names sort in the order the files were made (after `-00001` was deleted,
    /// the next still filled the gap and sorted before `-00002`, though newer).
    public func firstAfterExisting() -> Int {
        let stem = prefix.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? prefix
        guard !suffix.contains("/"), let names = LookFolder.fileNames(in: folder)?.utf8 else { return 0 }
        // A bracketed set's names carry `-ev…` before the extension.
        let dot = suffix.lastIndex(of: ".")
        let (base, ext) = dot.map { (String(suffix[..<$0]), String(suffix[$0...])) } ?? (suffix, "")
        var highest = -1
        for name in names where name.hasPrefix(stem) {
            let rest = name.dropFirst(stem.count)
            let digits = rest.prefix { ("0"..."9").contains($0) }
            // A number past the counter's range (a name no counter made: 9223372036854775807)
            // is left alone, as one too long for an Int is; counting on from it overflowed.
            guard !digits.isEmpty, digits.count >= width, let number = Int(digits), number < Self.counterLimit else { continue }
            let tail = rest.dropFirst(digits.count)
            let matches = tail == suffix || (tail.hasPrefix(base + "-ev") && tail.hasSuffix(ext))
            if matches { highest = max(highest, number) }
        }
        return highest + 1
    }

    /// The counter's range: far more stills than a camera takes, far below where adding one
    /// overflows.
    public static let counterLimit = 1_000_000_000_000

    /// The first counter ≥ `start` whose names (all biases of a set) are all free: no file
    /// of that name, and not `alsoTaken` (names another still of this process is about to
    /// write).
    public func nextFree(from start: Int, biases: [Double], alsoTaken: (String) -> Bool = { _ in false }) -> Int {
        var n = min(max(start, 0), Self.counterLimit)
        while n < Self.counterLimit {
            let names = biases.isEmpty ? [path(counter: n)] : biases.map { path(counter: n, bias: $0) }
            if !names.contains(where: { alsoTaken($0) || Self.isTaken($0) }) { return n }
            n += 1
        }
        return n   // every name taken up to the limit: the write refuses to overwrite it
    }

    /// Whether a name is taken: a file, a folder, or a symbolic link even to nothing (the
    /// still replaced a dangling link with a file; "the counter never overwrites").
    private static func isTaken(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Parses a bracket list such as `-1,0,1` (EV); empty means no bracketing. The error
    /// names the item (the element's refusal names the property and the whole value).
    public static func parseBracket(_ text: String) throws -> [Double] {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return [] }
        let biases = try trimmed.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard let v = NumberText.double(String(item).trimmingSpaces), v.isFinite, abs(v) <= 10 else {

                throw TemplateError(description: "\(item.quotedForMessage) is not an exposure bias in EV from -10 to 10 (write e.g. -1,0,1)")
            }
            return v
        }
        // Each still of a set is named by its bias: a bias given twice (0 and -0 too) wrote
        // one file over the other, both said saved.
        if let twice = biases.enumerated().first(where: { i, v in biases[..<i].contains(v) })?.element {
            let said = twice == twice.rounded() ? String(Int(twice)) : String(twice)
            throw TemplateError(description: "\(said) is given twice; each still of a set needs its own exposure bias (write e.g. -1,0,1)")
        }
        return biases
    }
}
