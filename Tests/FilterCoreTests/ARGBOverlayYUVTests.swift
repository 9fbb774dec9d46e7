import FilterCore
import XCTest

/// The on-screen display blended into YUV planes, by hand-computed samples: luma towards
/// the colour's luma by each pixel's alpha, chroma towards 128 by the mean alpha of the
/// site's pixels and by their colour difference (zero for greys; the recording's red dot
/// has one) (`YUVFrame.blend(_:x:y:)`), in every format, odd sizes included.
final class ARGBOverlayYUVTests: XCTestCase {
    /// Premultiplied ARGB32 words, row after row, `width` a row.
    private func withOverlay(_ words: [UInt32], width: Int, _ body: (ARGBOverlay) -> Void) {
        words.withUnsafeBytes { raw in
            body(ARGBOverlay(pixels: raw.baseAddress!, width: width, height: words.count / width, stride: width * 4))
        }
    }

    /// Luma per pixel, and U and V per site (row after row), of a frame.
    private func samples(_ buffer: YUVBuffer) -> (y: [Int], u: [Int], v: [Int]) {
        let b = buffer.packedBytes.map(Int.init), w = buffer.width, h = buffer.height
        let cw = (w + 1) / 2
        switch buffer.format {
        case .i420:
            let ch = (h + 1) / 2
            return (Array(b[0..<w * h]), Array(b[w * h..<w * h + cw * ch]), Array(b[(w * h + cw * ch)...]))
        case .nv12:
            let c = Array(b[(w * h)...])
            return (Array(b[0..<w * h]), stride(from: 0, to: c.count, by: 2).map { c[$0] },
                    stride(from: 1, to: c.count, by: 2).map { c[$0] })
        case .yuy2, .uyvy:
            let k = buffer.format.packedOffsets
            var y: [Int] = []
            for row in 0..<h {
                for x in 0..<w { y.append(b[row * cw * 4 + (x / 2) * 4 + (x % 2 == 0 ? k.y0 : k.y1)]) }
            }
            let sites = stride(from: 0, to: b.count, by: 4)
            return (y, sites.map { b[$0 + k.u] }, sites.map { b[$0 + k.v] })
        }
    }

    private func filled(_ format: YUVFormat, _ w: Int, _ h: Int, y: UInt8, u: UInt8, v: UInt8) -> YUVBuffer {
        let buffer = YUVBuffer(format: format, width: w, height: h)
        buffer.frame.mapLuma([UInt8](repeating: y, count: 256))
        buffer.frame.mapChroma(u: [UInt8](repeating: u, count: 256), v: [UInt8](repeating: v, count: 256))
        return buffer
    }

    /// 5×3 at video range, Y 200, U 200, V 60: opaque white at (0,0), black at alpha 153
    /// (Cairo's 0.6) at (1,0), 50 % grey at alpha 128 (premultiplied 64) in the odd corner (4,2).
    func testWhiteBlackAndGreyInEveryFormatAtAnOddSize() {
        var words = [UInt32](repeating: 0, count: 15)
        words[0] = 0xFFFF_FFFF
        words[1] = 0x9900_0000
        words[14] = 0x8040_4040
        for format in YUVFormat.allCases {
            let buffer = filled(format, 5, 3, y: 200, u: 200, v: 60)
            withOverlay(words, width: 5) { buffer.frame.blend($0, x: 0, y: 0) }
            let s = samples(buffer)
            // (200·0 + 16·255 + 255·219 + 127) / 255 = 235; (200·102 + 16·153 + 127) / 255 = 90;
            // (200·127 + 16·128 + 64·219 + 127) / 255 = 163.
            var luma = [Int](repeating: 200, count: 15)
            luma[0] = 235; luma[1] = 90; luma[14] = 163
            XCTAssertEqual(s.y, luma, "\(format)")
            if format.isPacked {
                // Sites of 2×1, three a row. (0,0)-(1,0): ā = (408 + 1) / 2 = 204:
                // U (200·51 + 128·204 + 127) / 255 = 142, V (60·51 + 128·204 + 127) / 255 = 114.
                // The odd corner's site holds pixel (4,2) only: ā = 128: U 164, V 94.
                XCTAssertEqual(s.u, [142, 200, 200, 200, 200, 200, 200, 200, 164], "\(format)")
                XCTAssertEqual(s.v, [114, 60, 60, 60, 60, 60, 60, 60, 94], "\(format)")
            } else {
                // Sites of 2×2, 3×2 of them. (0,0): alphas 255, 153, 0, 0: ā = (408 + 2) / 4 = 102:
                // U (200·153 + 128·102 + 127) / 255 = 171, V (60·153 + 128·102 + 127) / 255 = 87.
                // The corner site (2,1) holds pixel (4,2) only: ā = 128:
                // U (200·127 + 128·128 + 127) / 255 = 164, V (60·127 + 128·128 + 127) / 255 = 94.
                XCTAssertEqual(s.u, [171, 200, 200, 200, 200, 164], "\(format)")
                XCTAssertEqual(s.v, [87, 60, 60, 60, 60, 94], "\(format)")
            }
        }
    }

    /// Full range, an opaque white 3×2 overlay at (−1, 3) over a 6×4 frame: only frame
    /// pixels (0,3) and (1,3) are covered; a site's other pixels count as transparent.
    func testFullRangeAndAnOverlayPartlyOutsideTheFrame() {
        let words = [UInt32](repeating: 0xFFFF_FFFF, count: 6)
        for format in YUVFormat.allCases {
            let buffer = filled(format, 6, 4, y: 100, u: 200, v: 60)
            var frame = buffer.frame
            frame.matrix = YUVMatrix.bt709.withFullRange(true)
            withOverlay(words, width: 3) { frame.blend($0, x: -1, y: 3) }
            let s = samples(buffer)
            var luma = [Int](repeating: 100, count: 24)
            luma[18] = 255; luma[19] = 255   // (0 + 0 + 255·255 + 127) / 255
            XCTAssertEqual(s.y, luma, "\(format)")
            if format.isPacked {
                // Site (0, row 3) is both covered pixels: ā = 255, chroma becomes 128.
                XCTAssertEqual(s.u, [200, 200, 200, 200, 200, 200, 200, 200, 200, 128, 200, 200], "\(format)")
                XCTAssertEqual(s.v, [60, 60, 60, 60, 60, 60, 60, 60, 60, 128, 60, 60], "\(format)")
            } else {
                // Site (0,1): alphas 0, 0, 255, 255: ā = 128: U 164, V 94.
                XCTAssertEqual(s.u, [200, 200, 200, 164, 200, 200], "\(format)")
                XCTAssertEqual(s.v, [60, 60, 60, 94, 60, 60], "\(format)")
            }
        }
    }

    /// Opaque red over a whole site gives the matrix's red (BT.601 video range: Y 81, U 90,
    /// V 240, as `YUVMatrix.samples` computes it); half-covered, half the way there.
    func testRedIsTheMatrixsRed() {
        let red = YUVMatrix.bt601.samples(r: 255, g: 0, b: 0)
        XCTAssertEqual([red.y, red.u, red.v], [81, 90, 240])
        for format in YUVFormat.allCases {
            let buffer = filled(format, 4, 2, y: 235, u: 128, v: 128)   // white
            // Opaque red on the left site (2×2, or two 2×1 sites); red at alpha 128
            // (premultiplied 0x80) on the right site's left column.
            withOverlay([0xFFFF_0000, 0xFFFF_0000, 0x8080_0000, 0, 0xFFFF_0000, 0xFFFF_0000, 0x8080_0000, 0], width: 4) {
                buffer.frame.blend($0, x: 0, y: 0)
            }
            let s = samples(buffer)
            // Luma at alpha 128: the premultiplied red's luma times the span is
            // 0.299·128·219 ≈ 8381, so (235·127 + 16·128 + 8381 + 127) / 255 = 158.
            XCTAssertEqual(s.y[0], 81, "\(format)")
            XCTAssertEqual(s.y[2], 158, "\(format)")
            XCTAssertEqual(s.y[3], 235, "\(format)")
            XCTAssertEqual(s.u[0], 90, "\(format)")
            XCTAssertEqual(s.v[0], 240, "\(format)")
            // The right site: mean alpha 64 (128 + 0 over two or four pixels), U below 128, V above.
            let right = 1   // the second site of the first row
            XCTAssertLessThan(s.u[right], 128, "\(format)")
            XCTAssertGreaterThan(s.v[right], 128, "\(format)")
            XCTAssertEqual(Double(s.v[right] - 128), Double(240 - 128) / 4, accuracy: 1, "a quarter of red's V: \(format)")
        }
    }

    func testTransparentOverlayAndOneOutsideChangeNothing() {
        for format in YUVFormat.allCases {
            let buffer = filled(format, 7, 5, y: 81, u: 90, v: 240)
            let before = buffer.packedBytes
            withOverlay([UInt32](repeating: 0, count: 12), width: 4) { buffer.frame.blend($0, x: 1, y: 1) }
            withOverlay([UInt32](repeating: 0xFFFF_FFFF, count: 4), width: 2) { buffer.frame.blend($0, x: 7, y: 0) }
            withOverlay([UInt32](repeating: 0xFFFF_FFFF, count: 4), width: 2) { buffer.frame.blend($0, x: -2, y: -2) }
            XCTAssertEqual(buffer.packedBytes, before, "\(format)")
        }
    }

    func testOutlineAreasAreFourDisjointStripsOnTheChromaGrid() {
        // Outline of 40×30 at (10,10), 3 px either side: the band is x 7..<54, y 7..<44 outside
        // and x 15..<46, y 15..<36 left out inside, each grown or shrunk to even.
        let strips = OverlayAreas.outline(PixelRect(x: 10, y: 10, width: 40, height: 30), margin: 3)
        XCTAssertEqual(strips, [PixelRect(x: 6, y: 6, width: 48, height: 10), PixelRect(x: 6, y: 36, width: 48, height: 8),
                                PixelRect(x: 6, y: 16, width: 10, height: 20), PixelRect(x: 46, y: 16, width: 8, height: 20)])
        // Too small to leave an inside out: one box.
        XCTAssertEqual(OverlayAreas.outline(PixelRect(x: 10, y: 10, width: 8, height: 30), margin: 3),
                       [PixelRect(x: 6, y: 6, width: 16, height: 38)])
    }

    func testDisjointAreasMergeOverlapsAndClipToTheFrame() {
        let areas = OverlayAreas.disjoint([PixelRect(x: 1, y: 1, width: 3, height: 3), PixelRect(x: 3, y: 3, width: 4, height: 4),
                                           PixelRect(x: 20, y: 20, width: 5, height: 5), PixelRect(x: 30, y: 0, width: 4, height: 4)],
                                          width: 23, height: 22)
        XCTAssertEqual(areas, [PixelRect(x: 0, y: 0, width: 8, height: 8), PixelRect(x: 20, y: 20, width: 3, height: 2)])
        // Merging can make a new overlap: merged until none is left.
        let chain = OverlayAreas.disjoint([PixelRect(x: 0, y: 0, width: 4, height: 4), PixelRect(x: 10, y: 0, width: 4, height: 4),
                                           PixelRect(x: 2, y: 2, width: 4, height: 4), PixelRect(x: 4, y: 0, width: 8, height: 2)],
                                          width: 100, height: 100)
        XCTAssertEqual(chain, [PixelRect(x: 0, y: 0, width: 14, height: 6)])
    }
}
