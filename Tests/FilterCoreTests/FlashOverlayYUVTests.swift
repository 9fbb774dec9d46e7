import FilterCore
import XCTest

/// The still's flash on YUV frames, by hand-computed samples: luma towards the matrix's
/// white, chroma towards grey, by the same weight as the RGB blend.
final class FlashOverlayYUVTests: XCTestCase {
    func testHalfWeightMovesLumaHalfwayToWhiteAndChromaHalfwayToGrey() {
        for format in [YUVFormat.i420, .nv12, .yuy2, .uyvy] {
            let buffer = YUVBuffer(format: format, width: 6, height: 4)
            let frame = buffer.frame
            frame.mapLuma([UInt8](repeating: 16, count: 256))    // black, limited range
            frame.mapChroma(u: [UInt8](repeating: 240, count: 256), v: [UInt8](repeating: 20, count: 256))
            FlashOverlay.apply(weight: 0.5, to: frame)
            var lumas: Set<UInt8> = [], us: Set<UInt8> = [], vs: Set<UInt8> = []
            let bytes = buffer.packedBytes
            switch format {
            case .i420:
                lumas = Set(bytes[0..<24]); us = Set(bytes[24..<30]); vs = Set(bytes[30..<36])
            case .nv12:
                lumas = Set(bytes[0..<24])
                us = Set(stride(from: 24, to: 36, by: 2).map { bytes[$0] })
                vs = Set(stride(from: 25, to: 36, by: 2).map { bytes[$0] })
            case .yuy2:
                lumas = Set(stride(from: 0, to: bytes.count, by: 2).map { bytes[$0] })
                us = Set(stride(from: 1, to: bytes.count, by: 4).map { bytes[$0] })
                vs = Set(stride(from: 3, to: bytes.count, by: 4).map { bytes[$0] })
            case .uyvy:
                lumas = Set(stride(from: 1, to: bytes.count, by: 2).map { bytes[$0] })
                us = Set(stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] })
                vs = Set(stride(from: 2, to: bytes.count, by: 4).map { bytes[$0] })
            }
            // 16 + (235 − 16) / 2 = 125.5 → 126; 240 − 112 / 2 = 184; 20 + 108 / 2 = 74.
            XCTAssertEqual(lumas, [126], "\(format)")
            XCTAssertEqual(us, [184], "\(format)")
            XCTAssertEqual(vs, [74], "\(format)")
        }
    }

    func testFullRangeLumaGoesTowards255() {
        let buffer = YUVBuffer(format: .i420, width: 4, height: 2)
        var frame = buffer.frame
        frame.matrix = YUVMatrix.bt601.withFullRange(true)
        frame.mapLuma([UInt8](repeating: 0, count: 256))
        frame.mapChroma(u: [UInt8](repeating: 128, count: 256), v: [UInt8](repeating: 128, count: 256))
        FlashOverlay.apply(weight: 0.25, to: frame)
        let bytes = buffer.packedBytes
        // 0 + 255 / 4 = 63.75 → 64; grey chroma stays 128.
        XCTAssertEqual(Set(bytes[0..<8]), [64])
        XCTAssertEqual(Set(bytes[8...]), [128])
    }
}
