import XCTest
@testable import FilterCore

/// The look's table read eight chroma sites per gather (`TableLookSites`) against the look's
/// closed form on Y′CbCr (`YUVLook`), worked out here pixel by pixel: each pixel keeps its
/// own looked luma, each site takes the mean of its pixels' looked chroma rounded half up,
/// then every sample is mixed with the original by intensity. Every format, widths and
/// heights that leave sites of one or two pixels, rows padded (the padding must stay as it
/// was), whole and mixed looks.
final class TableLookSitesTests: XCTestCase {
    /// V samples come from these, so only their slabs of the table need building.
    static let slabs: [UInt8] = [3, 90, 128, 171, 250]

    func testTheGatheredSitesGiveTheClosedFormPerPixel() throws {
        let look = try LookLibrary.load(shippedLooks.first ?? LookFiles().write("hand.cube", LookFiles.cube(["LUT_3D_SIZE 2"], LookFilterTests.vertices)))
        guard case .cube(let cube) = look.kernel.form else { return XCTFail("the look is not 3D") }
        let matrix = YUVMatrix.bt601, closedForm = YUVLook(cube, matrix)
        let table = LookTable()
        for slab in Self.slabs { LookTables.fill(table, slabs: Int(slab)..<Int(slab) + 1, kernel: look.kernel, space: .yuv(matrix)) }
        // 35 wide: sixteen sites through the gathers, one whole site and one single column after.
        for (width, height) in [(35, 5), (32, 4), (49, 3)] {
            for format in YUVFormat.allCases {
                for intensity in [1.0, 0.7] {
                    let frame = YUVBuffer(format: format, width: width, height: height, rowAlignment: 64)
                    Self.fillEveryByte(frame, seed: UInt32(width * 7 + height))
                    let expected = Self.expect(frame.frame, closedForm, intensity: intensity, around: Self.raw(frame))
                    TableLookSites(entries: table.entries, mix: LookMix(intensity)).apply(to: frame.frame)
                    let got = Self.raw(frame)
                    XCTAssertEqual(got.count, expected.count)
                    let differing = zip(got, expected).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(format) \(width)x\(height) intensity \(intensity): \(differing) bytes differ")
                }
            }
        }
    }

    /// Every byte of the planes, padding included: noise, V samples from `slabs`.
    static func fillEveryByte(_ buffer: YUVBuffer, seed: UInt32) {
        var state = seed
        let frame = buffer.frame
        for p in frame.planes {
            for i in 0..<(p.stride * p.height) {
                state = state &* 1_664_525 &+ 1_013_904_223
                p.base.storeBytes(of: UInt8(truncatingIfNeeded: state >> 24), toByteOffset: i, as: UInt8.self)
            }
        }
        let v = frame.chromaGrid(v: true)
        for y in 0..<v.height { for x in 0..<v.width { v.row(y)[x * v.step] = slabs[(x * 3 + y) % slabs.count] } }
    }

    /// The planes' memory, padding included, one array per plane joined.
    static func raw(_ buffer: YUVBuffer) -> [UInt8] {
        buffer.frame.planes.flatMap { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.stride * $0.height)) }
    }

    /// The frame's memory `raw` (padding included) with the samples the closed form gives
    /// `frame`, pixel by pixel.
    static func expect(_ frame: YUVFrame, _ look: YUVLook<CubeKernel>, intensity: Double, around raw: [UInt8]) -> [UInt8] {
        let luma = frame.lumaGrid, u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        let rowsPerSite = frame.format.isPacked ? 1 : 2
        let k = Int((intensity * 1024).rounded())
        func mixed(_ original: Int, _ looked: Int) -> UInt8 { UInt8((original * (1024 - k) + looked * k + 512) >> 10) }
        var newLuma = [[UInt8]](repeating: [UInt8](repeating: 0, count: frame.width), count: frame.height)
        var newU = [[UInt8]](repeating: [UInt8](repeating: 0, count: u.width), count: u.height), newV = newU
        for cy in 0..<u.height {
            for cx in 0..<u.width {
                let su = Int(u.row(cy)[cx * u.step]), sv = Int(v.row(cy)[cx * v.step])
                var sumU = 0, sumV = 0, count = 0
                for y in cy * rowsPerSite..<min((cy + 1) * rowsPerSite, frame.height) {
                    for x in 2 * cx..<min(2 * cx + 2, frame.width) {
                        let sy = Int(luma.row(y)[x * luma.step])
                        let e = look.look(Int32(sy), Int32(su), Int32(sv))
                        newLuma[y][x] = mixed(sy, Int(e & 0xFF))
                        sumU += Int((e >> 8) & 0xFF)
                        sumV += Int((e >> 16) & 0xFF)
                        count += 1
                    }
                }
                // The mean rounded half up: ⌊sum / count + ½⌋.
                newU[cy][cx] = mixed(su, (2 * sumU + count) / (2 * count))
                newV[cy][cx] = mixed(sv, (2 * sumV + count) / (2 * count))
            }
        }
        // Written into a copy of the frame's memory, through the same addressing.
        let copy = YUVBuffer(format: frame.format, width: frame.width, height: frame.height, rowAlignment: 64)
        var offset = 0
        for p in copy.frame.planes {
            raw[offset..<offset + p.stride * p.height].withUnsafeBytes { p.base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            offset += p.stride * p.height
        }
        let cl = copy.frame.lumaGrid, cu = copy.frame.chromaGrid(v: false), cv = copy.frame.chromaGrid(v: true)
        for y in 0..<frame.height { for x in 0..<frame.width { cl.row(y)[x * cl.step] = newLuma[y][x] } }
        for y in 0..<u.height {
            for x in 0..<u.width {
                cu.row(y)[x * cu.step] = newU[y][x]
                cv.row(y)[x * cv.step] = newV[y][x]
            }
        }
        return Self.raw(copy)
    }
}
