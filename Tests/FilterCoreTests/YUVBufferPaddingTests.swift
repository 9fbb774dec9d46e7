import FilterCore
import XCTest

/// A still's planes go to `jpegenc` as they are, and a JPEG encoder reads whole blocks: at a
/// width that is no multiple of 16 it encodes each row's padding too. Whatever the padding
/// held showed as stray colours in the last 8 columns of 600-pixel-wide I420 and NV12
/// stills, different on each run; the padding now repeats each row's last sample.
final class YUVBufferPaddingTests: XCTestCase {
    func testRowPaddingRepeatsEachRowsLastSample() {
        for format in [YUVFormat.i420, .nv12, .yuy2] {
            let buffer = YUVBuffer(format: format, width: 38, height: 6, rowAlignment: 16, zeroed: false)
            let frame = buffer.frame
            for (i, plane) in frame.planes.enumerated() {
                // Garbage everywhere first, as reused memory holds; then the picture: row y, byte x.
                for y in 0..<plane.height {
                    let row = plane.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<plane.stride { row[x] = 0xEE }
                    for x in 0..<plane.width * plane.elementBytes { row[x] = UInt8((i * 50 + y * 7 + x) & 0x7F) }
                }
            }
            buffer.repeatLastSampleIntoRowPadding()
            for (i, plane) in frame.planes.enumerated() {
                let used = plane.width * plane.elementBytes
                XCTAssertGreaterThan(plane.stride, used, "\(format) plane \(i) has padding to fill")
                for y in 0..<plane.height {
                    let row = plane.row(y).assumingMemoryBound(to: UInt8.self)
                    let last = (0..<plane.elementBytes).map { row[used - plane.elementBytes + $0] }
                    for x in used..<(plane.stride / plane.elementBytes * plane.elementBytes) {
                        XCTAssertEqual(row[x], last[(x - used) % plane.elementBytes], "\(format) plane \(i) row \(y) byte \(x)")
                    }
                    XCTAssertEqual(row[0], UInt8((i * 50 + y * 7) & 0x7F), "the picture itself is left alone")
                }
            }
        }
    }
}
