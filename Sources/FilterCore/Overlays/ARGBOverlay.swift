/// Translucent colours to lay over a picture, as Cairo draws them into an ARGB32 surface:
/// premultiplied 32-bit native-endian pixels 0xAARRGGBB, `stride` bytes a row. The
/// on-screen display draws text boxes and the lens outline in white, black and greys, and
/// the recording's dot in red; on a YUV frame each colour is blended in the frame's own
/// matrix (a grey moves luma towards its luma and chroma towards neutral).
public struct ARGBOverlay {
    public let pixels: UnsafeRawPointer
    public let width: Int
    public let height: Int
    public let stride: Int

    public init(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width * 4, "stride \(stride) does not fit \(width) pixels")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// Row `y`'s pixels.
    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt32> {
        (pixels + y &* stride).assumingMemoryBound(to: UInt32.self)
    }
}

extension YUVFrame {
    /// Lays `overlay` over the picture with its top-left pixel at (`x`, `y`) (any position;
    /// what falls outside the frame is left out), as Cairo's OVER does in R′G′B′. With a
    /// pixel's alpha `a` and its premultiplied colour's luma `L = Kr·R + Kg·G + Kb·B` (the
    /// frame's matrix, weights in 1/65536):
    ///
    /// - luma, per pixel: Y′ = (Y·(255 − a) + black·a + L·span + 127) / 255, black 16 and
    ///   span 219 at video range (0 and 255 at full range);
    /// - chroma, per site: C′ = (C·(255 − ā) + 128·ā + c̄ + 127) / 255, with ā the rounded
    ///   mean alpha of the site's pixels in the frame (2×2 in I420/NV12, 2×1 in YUY2/UYVY;
    ///   fewer at odd edges), pixels outside the overlay counting as transparent, and c̄ the
    ///   mean of their premultiplied colour differences scaled as the matrix scales them:
    ///   (B − L)·range / (2·(1 − Kb)) for U, (R − L)·range / (2·(1 − Kr)) for V, range 224 at
    ///   video range (255 at full).
    ///
    /// A grey has no colour difference (c̄ = 0): the blend leaves chroma × (1 − a), and the
    /// mean alpha is what subsampling that blend gives where the picture's chroma is flat
    /// over a site.
    public func blend(_ overlay: ARGBOverlay, x ox: Int, y oy: Int) {
        let x0 = max(ox, 0), y0 = max(oy, 0)
        let x1 = min(ox + overlay.width, width), y1 = min(oy + overlay.height, height)
        guard x0 < x1, y0 < y1 else { return }
        let black = matrix.fullRange ? 0 : 16, span = matrix.fullRange ? 255 : 219
        let weights = OverlayWeights(matrix)
        // Luma, pixel by pixel (transparent ones skipped).
        let luma = planes[0]
        for py in y0..<y1 {
            let src = overlay.row(py &- oy), dst = luma.row(py).assumingMemoryBound(to: UInt8.self)
            for px in x0..<x1 {
                let p = src[px &- ox]
                let a = Int(p >> 24)
                guard a > 0 else { continue }
                let luma = (weights.luma(p) &* span &+ 32768) >> 16   // L·span
                let l = dst + lumaOffset(px)
                l.pointee = UInt8(truncatingIfNeeded: (Int(l.pointee) &* (255 &- a) &+ black &* a &+ luma &+ 127) / 255)
            }
        }
        // Chroma, site by site: the mean alpha of the site's pixels in the frame.
        let sy = format.chromaHeightFactor, (uStart, vStart, cStep) = chromaLayout
        for cy in (y0 / sy)...((y1 - 1) / sy) {
            let (uRow, vRow) = chromaRows(cy)
            let top = cy &* sy, bottom = min(top &+ sy, height)
            for cx in (x0 >> 1)...((x1 - 1) >> 1) {
                let left = 2 &* cx, right = min(left &+ 2, width)
                var sum = 0, blueDifference = 0, redDifference = 0
                for py in max(top, y0)..<min(bottom, y1) {
                    let src = overlay.row(py &- oy)
                    for px in max(left, x0)..<min(right, x1) {
                        let p = src[px &- ox]
                        sum &+= Int(p >> 24)
                        // Colour differences in 1/65536 (zero for greys).
                        let luma = weights.luma(p)
                        blueDifference &+= Int(p & 0xFF) &<< 16 &- luma
                        redDifference &+= Int((p >> 16) & 0xFF) &<< 16 &- luma
                    }
                }
                guard sum > 0 else { continue }
                let n = (bottom &- top) &* (right &- left)
                let mean = n == 4 ? (sum &+ 2) >> 2 : n == 2 ? (sum &+ 1) >> 1 : sum   // (sum + n/2) / n, n is 4, 2 or 1
                let u = uRow + (uStart &+ cStep &* cx), v = vRow + (vStart &+ cStep &* cx)
                let addU = weights.chroma(blueDifference, scale: weights.blueScale, count: n)
                let addV = weights.chroma(redDifference, scale: weights.redScale, count: n)
                u.pointee = UInt8(clamping: (Int(u.pointee) &* (255 &- mean) &+ 128 &* mean &+ addU &+ 127) / 255)
                v.pointee = UInt8(clamping: (Int(v.pointee) &* (255 &- mean) &+ 128 &* mean &+ addV &+ 127) / 255)
            }
        }
    }

    /// Where pixel x's luma sample is in its row.
    @inline(__always)
    func lumaOffset(_ x: Int) -> Int {
        guard format.isPacked else { return x }
        let k = format.packedOffsets
        return (x >> 1) &* 4 &+ (x & 1 == 0 ? k.y0 : k.y1)
    }

    /// Where site column cx's U and V are in their rows (`chromaRows`): start + step · cx.
    var chromaLayout: (u: Int, v: Int, step: Int) {
        switch format {
        case .i420: (0, 0, 1)
        case .nv12: (0, 1, 2)
        case .yuy2, .uyvy: (format.packedOffsets.u, format.packedOffsets.v, 4)
        }
    }

    /// The rows holding chroma site row `cy`'s U and V samples (the same row for NV12 and
    /// the packed formats; the offsets inside it differ).
    @inline(__always)
    func chromaRows(_ cy: Int) -> (u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>) {
        switch format {
        case .i420:
            (planes[1].row(cy).assumingMemoryBound(to: UInt8.self), planes[2].row(cy).assumingMemoryBound(to: UInt8.self))
        case .nv12:
            (planes[1].row(cy).assumingMemoryBound(to: UInt8.self), planes[1].row(cy).assumingMemoryBound(to: UInt8.self))
        case .yuy2, .uyvy:
            (planes[0].row(cy).assumingMemoryBound(to: UInt8.self), planes[0].row(cy).assumingMemoryBound(to: UInt8.self))
        }
    }
}

/// The frame matrix's numbers the blend needs, in integers: luma weights in 1/65536 (summing
/// to 65536, so a grey's luma is the grey exactly), and the chroma scales in 1/256.
private struct OverlayWeights {
    let red: Int, green: Int, blue: Int
    let blueScale: Int, redScale: Int

    init(_ m: YUVMatrix) {
        red = Int((m.kr * 65536).rounded())
        blue = Int((m.kb * 65536).rounded())
        green = 65536 - red - blue
        let range = m.fullRange ? 255.0 : 224.0
        blueScale = Int((range / (2 * (1 - m.kb)) * 256).rounded())
        redScale = Int((range / (2 * (1 - m.kr)) * 256).rounded())
    }

    /// A premultiplied pixel's luma, in 1/65536.
    @inline(__always)
    func luma(_ p: UInt32) -> Int {
        red &* Int((p >> 16) & 0xFF) &+ green &* Int((p >> 8) & 0xFF) &+ blue &* Int(p & 0xFF)
    }

    /// The chroma term c̄ (in samples × 255) of `count` pixels whose colour differences
    /// (1/65536) add up to `difference`, rounded to the nearest.
    @inline(__always)
    func chroma(_ difference: Int, scale: Int, count: Int) -> Int {
        guard difference != 0 else { return 0 }
        let total = difference &* scale, divisor = count &<< 24
        return total >= 0 ? (total &+ divisor / 2) / divisor : -((-total &+ divisor / 2) / divisor)
    }
}

/// Where an overlay may draw, as few disjoint rectangles on the 2×2 chroma grid: each is
/// drawn into scratch of its own size and blended once, so a chroma site is never shared
/// between two of them (its mean alpha sees all its pixels) and a pixel never blended twice.
public enum OverlayAreas {
    /// The band `margin` pixels either side of a rectangle outline drawn on the pixels
    /// x…x+1 (and y…y+1) in from each edge of `r`, as four strips (top and bottom full
    /// width, left and right between them), or the whole box when the inside is too
    /// small to leave out.
    public static func outline(_ r: PixelRect, margin m: Int) -> [PixelRect] {
        let outer = aligned(PixelRect(x: r.x - m, y: r.y - m, width: r.width + 1 + 2 * m, height: r.height + 1 + 2 * m))
        // The untouched inside, shrunk to the grid.
        let ix0 = evenUp(r.x + 2 + m), ix1 = evenDown(r.x + r.width - 1 - m)
        let iy0 = evenUp(r.y + 2 + m), iy1 = evenDown(r.y + r.height - 1 - m)
        guard ix0 < ix1, iy0 < iy1 else { return [outer] }
        let ox1 = outer.x + outer.width, oy1 = outer.y + outer.height
        return [PixelRect(x: outer.x, y: outer.y, width: outer.width, height: iy0 - outer.y),
                PixelRect(x: outer.x, y: iy1, width: outer.width, height: oy1 - iy1),
                PixelRect(x: outer.x, y: iy0, width: ix0 - outer.x, height: iy1 - iy0),
                PixelRect(x: ix1, y: iy0, width: ox1 - ix1, height: iy1 - iy0)]
    }

    /// `rects` grown to the 2×2 grid, clipped to the frame, and overlapping ones replaced
    /// by their bounding box until none overlap; empty ones are left out.
    public static func disjoint(_ rects: [PixelRect], width: Int, height: Int) -> [PixelRect] {
        var out: [PixelRect] = rects.compactMap { r in
            let a = aligned(r)
            let x0 = max(a.x, 0), y0 = max(a.y, 0)
            let x1 = min(a.x + a.width, width), y1 = min(a.y + a.height, height)
            return x0 < x1 && y0 < y1 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
        var merged = true
        while merged {
            merged = false
            search: for i in out.indices {
                for j in out.indices where j > i && overlap(out[i], out[j]) {
                    out[i] = union(out[i], out[j])
                    out.remove(at: j)
                    merged = true
                    break search
                }
            }
        }
        return out
    }

    static func evenDown(_ v: Int) -> Int { v & ~1 }
    static func evenUp(_ v: Int) -> Int { (v + 1) & ~1 }

    static func aligned(_ r: PixelRect) -> PixelRect {
        let x0 = evenDown(r.x), y0 = evenDown(r.y)
        return PixelRect(x: x0, y: y0, width: evenUp(r.x + r.width) - x0, height: evenUp(r.y + r.height) - y0)
    }

    /// Whether two rectangles share a pixel.
    public static func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        return PixelRect(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
                         height: max(a.y + a.height, b.y + b.height) - y0)
    }
}
