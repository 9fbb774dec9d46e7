/// Faces on YUV frames: the detector's grey picture is the luma plane as it is (no RGB
/// copy), and the squares are drawn into the planes.
extension GreyImage {
    /// The luma of `frame`, `step` times smaller on each axis, sampled as
    /// `init(frame:step:)` samples RGB frames (pixel x·step + step/2). Video-range luma
    /// (16…235) is stretched to 0…255, so the detector sees the contrast an RGB frame gives.
    public init(luma frame: YUVFrame, step: Int) {
        precondition(step >= 1)
        let s = min(step, frame.width, frame.height)
        let w = frame.width / s, h = frame.height / s
        let stretch: [UInt8] = (0..<256).map { y in
            frame.matrix.fullRange ? UInt8(y) : UInt8(min(max(((Double(y) - 16) * 255 / 219).rounded(), 0), 255))
        }
        let packed = frame.format.isPacked, k = frame.format.packedOffsets
        var out = [UInt8](repeating: 0, count: w * h)
        let plane = frame.planes[0]
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                let src = plane.row(y &* s &+ s / 2).assumingMemoryBound(to: UInt8.self)
                let row = dst.baseAddress! + y &* w
                for x in 0..<w {
                    let px = x &* s &+ s / 2
                    let i = packed ? (px >> 1) &* 4 &+ (px & 1 == 0 ? k.y0 : k.y1) : px
                    row[x] = stretch[Int(src[i])]
                }
            }
        }
        self.init(width: w, height: h, pixels: out, step: s)
    }
}

extension FaceOverlay {
    /// The same outlines as on RGB frames, in the overlay colour turned into the frame's
    /// samples: luma per pixel, and the chroma of every site an outline pixel falls in.
    public static func draw(_ boxes: [PixelRect], on frame: YUVFrame) {
        let c = frame.matrix.samples(r: Double(color.r), g: Double(color.g), b: Double(color.b))
        forEachOutlineRun(boxes, width: frame.width, height: frame.height) { y, xs in
            for x in xs { frame.paint(x: x, y: y, c) }
        }
    }
}

extension YUVFrame {
    /// Sets pixel (x, y)'s luma and the chroma of its site (slow; for overlays).
    func paint(x: Int, y: Int, _ c: (y: UInt8, u: UInt8, v: UInt8)) {
        planes[0].row(y).storeBytes(of: c.y, toByteOffset: lumaOffset(x), as: UInt8.self)
        let (u, v) = chromaRows(y / format.chromaHeightFactor), l = chromaLayout
        u[l.u + l.step * (x >> 1)] = c.u
        v[l.v + l.step * (x >> 1)] = c.v
    }
}
