@testable import FilterCore
import XCTest

/// The two ways of walking a frame's chroma sites agree: whole 4:2:0 sites by value, their
/// luma pairs read and written as 16-bit words (`WholeSiteVisitor`), and every site through
/// per-sample pointers (`ChromaSiteVisitor`), odd edges included.
final class ChromaSiteWalkTests: XCTestCase {
    /// Changes each sample by its site's other samples, so that a sample read from or
    /// written to the wrong place shows: chroma from the mean luma, luma from the chroma.
    private struct Mixer {
        @inline(__always)
        func mix(_ y: inout [UInt8], _ u: inout UInt8, _ v: inout UInt8) {
            let mean = y.map(Int.init).reduce(0, +) / y.count
            let (cu, cv) = (Int(u), Int(v))
            u = UInt8(truncatingIfNeeded: mean &* 3 &+ cv)
            v = UInt8(truncatingIfNeeded: mean ^ cu)
            for i in y.indices { y[i] = UInt8(truncatingIfNeeded: Int(y[i]) &* 5 &+ cu &- cv &+ i) }
        }
    }

    /// Takes whole sites by value, the rest through pointers.
    private struct ByWords: WholeSiteVisitor {
        let mixer = Mixer()
        func visit(_ site: ChromaSite) { ByPointers().visit(site) }
        func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ y2: inout UInt8, _ y3: inout UInt8,
                   _ u: inout UInt8, _ v: inout UInt8) {
            var y = [y0, y1, y2, y3]
            mixer.mix(&y, &u, &v)
            (y0, y1, y2, y3) = (y[0], y[1], y[2], y[3])
        }
    }

    /// Every site through its pointers.
    private struct ByPointers: ChromaSiteVisitor {
        let mixer = Mixer()
        func visit(_ site: ChromaSite) {
            let pointers = [site.y0, site.y1, site.y2, site.y3].compactMap { $0 }
            var y = pointers.map(\.pointee), u = site.u.pointee, v = site.v.pointee
            mixer.mix(&y, &u, &v)
            for (p, value) in zip(pointers, y) { p.pointee = value }
            site.u.pointee = u
            site.v.pointee = v
        }
    }

    private func noise(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    func testWholeSitesByValueMatchEverySiteThroughPointers() {
        for format in YUVFormat.allCases {
            for (w, h) in [(2, 2), (7, 5), (32, 6), (33, 9), (64, 3)] {
                let byWords = YUVBuffer(format: format, width: w, height: h)
                let byPointers = YUVBuffer(format: format, width: w, height: h)
                let input = noise(byWords.packedBytes.count, seed: UInt32(w * 100 + h))
                byWords.load(packed: input)
                byPointers.load(packed: input)
                byWords.frame.forEachChromaSite(ByWords())
                byPointers.frame.forEachChromaSite(ByPointers())
                XCTAssertNotEqual(byPointers.packedBytes, input, "\(format) \(w)x\(h): the visitor changed nothing")
                XCTAssertEqual(byWords.packedBytes, byPointers.packedBytes, "\(format) \(w)x\(h)")
            }
        }
    }

    /// By hand, one 2×2 I420 site: luma 10, 20, 30, 40 (mean 25), U 100, V 60.
    func testOneSiteByHand() {
        let b = YUVBuffer(format: .i420, width: 2, height: 2)
        b.load(packed: [10, 20, 30, 40, 100, 60])
        b.frame.forEachChromaSite(ByWords())
        // U = 25·3 + 60 = 135; V = 25 ^ 100 = 125; Y = 5y + 100 − 60 + i: 90, 141, 192, 243.
        XCTAssertEqual(b.packedBytes, [90, 141, 192, 243, 135, 125])
    }
}
