/// The lens: a rectangle of the displayed (oriented) picture, as fractions x, y, w, h of
/// its width and height, written "x,y,w,h" (e.g. "0.25,0.25,0.5,0.5", the centred quarter).
///
/// Rules: each of x, y, w, h is within 0…1; w and h are greater than 0; x + w ≤ 1 and
/// y + h ≤ 1 (with 1e-9 slack for decimal fractions such as 0.7 + 0.3).
///
/// Pixels (`pixelRect`), for a W×H picture, rounding half away from zero:
///
///     left   = round(x · W)        right  = round((x + w) · W)
///     top    = round(y · H)        bottom = round((y + h) · H)
///
/// then left and top are clamped into the picture and the rectangle is made at least one
/// pixel wide and high (right ≥ left + 1, bottom ≥ top + 1, still inside). The rectangle
/// covers columns left..<right and rows top..<bottom, i.e. GStreamer's
/// `videocrop left=<left> right=<W-right> top=<top> bottom=<H-bottom>`.
public struct LensRect: Equatable, Sendable, CustomStringConvertible {
    public let x: Double
    public let y: Double
    public let w: Double
    public let h: Double

    /// The whole picture.
    public static let full = LensRect(uncheckedX: 0, y: 0, w: 1, h: 1)

    static let slack = 1e-9

    private init(uncheckedX x: Double, y: Double, w: Double, h: Double) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }

    /// A lens from fractions; throws when they break a rule (see the type's documentation).
    public init(x: Double, y: Double, w: Double, h: Double) throws(GeometryError) {
        try self.init(values: [("x", x, "\(x)"), ("y", y, "\(y)"), ("w", w, "\(w)"), ("h", h, "\(h)")])
    }

    /// Parses "x,y,w,h" (spaces around the numbers allowed).
    public init(parsing text: String) throws(GeometryError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Self.trimmed($0) }
        guard parts.count == 4 else {
            throw GeometryError("lens \(text.quotedForMessage) has \(parts.count) value\(parts.count == 1 ? "" : "s"); "
                                + "write four fractions x,y,w,h of the picture, e.g. 0.25,0.25,0.5,0.5")
        }
        var values: [(String, Double, String)] = []
        for (name, raw) in zip(["x", "y", "w", "h"], parts) {
            guard let v = NumberText.double(raw), v.isFinite else {
                throw GeometryError("lens \(name) \(raw.quotedForMessage) is not a number; write four fractions x,y,w,h "
                                    + "of the picture, e.g. 0.25,0.25,0.5,0.5")
            }
            values.append((name, v, raw))
        }
        try self.init(values: values)
    }

    private static func trimmed(_ s: Substring) -> String {
        var s = s
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }

    private init(values: [(name: String, value: Double, raw: String)]) throws(GeometryError) {
        for (name, v, raw) in values where !(v >= 0 && v <= 1) {
            throw GeometryError("lens \(name)=\(raw) is out of range: x, y, w and h must each be within 0…1")
        }
        for (name, v, raw) in values[2...] where v <= 0 {
            throw GeometryError("lens \(name)=\(raw) must be greater than 0 (w and h are the lens size)")
        }
        for (pos, size) in [(0, 2), (1, 3)] {
            let a = values[pos], b = values[size]
            if a.value + b.value > 1 + Self.slack {
                throw GeometryError("lens \(a.name)+\(b.name) = \(a.raw)+\(b.raw) = \(Self.sum(a.raw, b.raw, a.value + b.value)) exceeds 1: "
                                    + "the lens must end inside the picture (\(a.name) + \(b.name) ≤ 1)")
            }
        }
        self.init(uncheckedX: values[0].value, y: values[1].value, w: values[2].value, h: values[3].value)
    }

    /// `total` of two values typed as `first` and `second`, with as many decimals as they
    /// have (0.48+0.61 is 1.09, not 1.0899999999999999).
    static func sum(_ first: String, _ second: String, _ total: Double) -> String {
        let decimals = [first, second].map { raw in raw.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0 }.max() ?? 0
        var scale = 1.0
        for _ in 0..<min(decimals, 15) { scale *= 10 }
        return NumberText.text((total * scale).rounded() / scale)
    }

    /// "x,y,w,h" with the shortest decimals that read back to the same values.
    public var description: String {
        [x, y, w, h].map(NumberText.text).joined(separator: ",")
    }

    public var isFull: Bool { self == .full }

    /// The lens in pixels of a `width`×`height` picture, by the rule in the type's documentation.
    /// `grid` 2 snaps every edge to the chroma grid of YUV frames: each edge is rounded to
    /// the nearest even pixel (half away from zero) instead of the nearest pixel, the right
    /// and bottom edges may end at an odd picture edge, and the lens is at least 2 pixels
    /// (or the picture) wide and high. So a lens crop never splits a chroma sample.
    public func pixelRect(width: Int, height: Int, grid: Int = 1) -> PixelRect {
        let (left, right) = Self.span(x, x + w, width, grid: grid)
        let (top, bottom) = Self.span(y, y + h, height, grid: grid)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Pixel edges of the fractions `start`…`end` of `size`, at least one pixel, inside.
    static func span(_ start: Double, _ end: Double, _ size: Int, grid: Int = 1) -> (Int, Int) {
        let n = Double(size), g = Double(grid)
        let lastStart = (size - 1) / grid * grid
        let a = min(max(Int((start * n / g).rounded()) * grid, 0), lastStart)
        let b = min(max(Int((end * n / g).rounded()) * grid, a + grid), size)
        return (a, b)
    }
}
