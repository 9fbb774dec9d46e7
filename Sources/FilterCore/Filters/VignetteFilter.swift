/// `vignette`: darkens towards the corners with a smooth falloff, like Core Image's CIVignette.
///
///     vignette radius=1 intensity=0.8
///
/// For the centre of pixel (x, y), `d` is its distance from the frame's centre divided by
/// half the frame's diagonal (0 in the middle, just under 1 in the corners), then
///
///     t    = min(d / radius, 1)          (radius 0: t = 1 everywhere but the centre)
///     gain = 1 − intensity · t² (3 − 2t)   (smoothstep: no visible edge)
///     c'   = c · gain
///
/// so `radius` is where the darkening reaches full `intensity`, as a fraction of the
/// half-diagonal: 1 puts it at the corners, 2 gives a gentle vignette, 0.5 a spotlight.
/// The gains are computed in `Double` once per frame size, rounded to 8 fractional bits
/// (`gain256`), and kept for the top half of the frame (the bottom half mirrors it); each
/// channel becomes `(c · gain256 + 128) >> 8`: within ±1 of the formula rounded.
final class VignetteFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "vignette", title: "Vignette",
        summary: "Darkens the picture towards the corners with a smooth falloff",
        parameters: [
            FilterParameter("radius", .double(range: 0...2, defaultValue: 1),
                            "distance of full darkening, as a fraction of the half-diagonal"),
            FilterParameter("intensity", .double(range: 0...1, defaultValue: 0.8),
                            "darkening at and beyond the radius: 0 = none, 1 = black"),
        ],
        strengthParameter: "intensity",
        make: { VignetteFilter(radius: $0.double("radius"), intensity: $0.double("intensity")) })

    let radius: Double
    let intensity: Double
    /// gain256 of every pixel of the top `(height + 1) / 2` rows, for `gainsSize`.
    private let gains = Scratch<UInt16>()
    private var gainsSize = (width: 0, height: 0)
    /// The YUV path's gains: every pixel's, then every chroma site's, for `yuvGainsLayout`.
    let yuvGains = Scratch<UInt16>()
    var yuvGainsLayout = (width: 0, height: 0, chromaRows: 0)

    init(radius: Double, intensity: Double) {
        self.radius = radius
        self.intensity = intensity
    }

    func run(_ pass: FramePass) {
        if intensity == 0 { return pass.leaveUnchanged() }
        let width = pass.width, height = pass.height
        let map = gains.reserve(width * ((height + 1) / 2))
        if gainsSize != (width, height) {
            fillGains(map, width: width, height: height)
            gainsSize = (width, height)
        }
        let source = pass.source, destination = pass.destination, inPlace = pass.inPlace
        RowSplitter.shared.run(rows: height, columns: width) { rows in
            for y in rows {
                let gainRow = map + min(y, height - 1 - y) * width
                if inPlace {
                    let row = destination.row(y)
                    for x in 0..<width { row[x] = darkened(row[x], gainRow[x]) }
                } else {
                    let input = source.row(y), output = destination.row(y)
                    for x in 0..<width { output[x] = darkened(input[x], gainRow[x]) }
                }
            }
        }
    }

    private func fillGains(_ map: UnsafeMutablePointer<UInt16>, width: Int, height: Int) {
        for y in 0..<(height + 1) / 2 {
            for x in 0..<width {
                map[y * width + x] = gain256(x: Double(x) + 0.5, y: Double(y) + 0.5, width: width, height: height)
            }
        }
    }

    /// gain256 at point (x, y) of a `width`×`height` frame (pixel (i, j) has its centre at
    /// i + 0.5, j + 0.5).
    func gain256(x: Double, y: Double, width: Int, height: Int) -> UInt16 {
        let halfDiagonal = Double(width * width + height * height).squareRoot() / 2
        let dx = (x - Double(width) / 2) / halfDiagonal, dy = (y - Double(height) / 2) / halfDiagonal
        let d = (dx * dx + dy * dy).squareRoot()
        let t = radius > 0 ? min(d / radius, 1) : (d > 0 ? 1 : 0)
        let gain = 1 - intensity * t * t * (3 - 2 * t)
        return UInt16((gain * 256).rounded())
    }
}

/// `c · gain256 / 256` on R, G, B, rounded: bytes 0 and 2 in 16-bit lanes, byte 1 alone
/// (c · gain256 ≤ 65280 never carries into the next lane).
@inline(__always)
private func darkened(_ p: UInt32, _ gain256: UInt16) -> UInt32 {
    let g = UInt32(gain256)
    let outer = ((p & outerLanesMask) &* g &+ 0x0080_0080) &>> 8 & outerLanesMask
    let middle = ((p & 0xFF00) &* g &+ 0x8000) &>> 8 & 0xFF00
    return (p & alphaMask) | outer | middle
}
