import Foundation
import XCTest
@testable import FilterCore

/// The `lut` filter's pixels against values worked out by hand: tetrahedral interpolation,
/// the intensity mix, domains, 1D curves, the identity of every size (byte for byte, RGB and
/// YUV), and the table path against the per-pixel path.
final class LookFilterTests: XCTestCase {
    let files = LookFiles()

    /// A 2³ lattice whose vertices × 255 are never halfway between levels, so every
    /// hand-computed result below rounds one way: c000, c100, c010, c110, c001, c101, c011, c111.
    static let vertices: [[Double]] = [
        [0.2, 0.05, 0.25], [0.8, 0.2, 0.0], [0.0, 0.8, 0.2], [0.75, 0.6, 0.05],
        [0.05, 0.0, 0.8], [0.8, 0.2, 0.6], [0.2, 0.6, 0.75], [1.0, 0.95, 0.8],
    ]

    private func handLook() -> String {
        files.write("hand.cube", LookFiles.cube(["LUT_3D_SIZE 2"], Self.vertices))
    }

    private func one(_ c: RGBA) -> Picture { Picture(width: 1, height: 1, pixels: [c]) }

    func testTetrahedralInterpolationByHand() throws {
        let path = handLook()
        let cases: [(RGBA, RGBA)] = [
            // r 0.8 > g 0.4 > b 0.2: 0.2·c000 + 0.4·c100 + 0.2·c110 + 0.2·c111 = (0.71, 0.40, 0.22) × 255
            (RGBA(r: 204, g: 102, b: 51, a: 9), RGBA(r: 181, g: 102, b: 56, a: 9)),
            // b 1 > g 0.4 > r 0.2: 0.6·c001 + 0.2·c011 + 0.2·c111 = (0.27, 0.31, 0.79) × 255 = (68.85, 79.05, 201.45)
            (RGBA(r: 51, g: 102, b: 255), RGBA(r: 69, g: 79, b: 201)),
            // g 0.8 > b 0.6 > r 0.4: 0.2·c000 + 0.2·c010 + 0.2·c011 + 0.4·c111 = (0.48, 0.67, 0.56) × 255
            (RGBA(r: 102, g: 204, b: 153), RGBA(r: 122, g: 171, b: 143)),
            // The corners are the vertices: c000 = (51, 12.75, 63.75), c111 = (255, 242.25, 204).
            (RGBA(r: 0, g: 0, b: 0, a: 0), RGBA(r: 51, g: 13, b: 64, a: 0)),
            (RGBA(r: 255, g: 255, b: 255), RGBA(r: 255, g: 242, b: 204)),
        ]
        for format in PixelFormat.allCases {
            for (input, expected) in cases {
                XCTAssertEqual(try apply("lut file=\(path)", to: one(input), format: format).pixels[0], expected, "\(input) \(format)")
            }
        }
    }

    /// Vertices a little outside 0…1 (what a grading tool leaves) are interpolated as they
    /// are and the result clamped, as FFmpeg's lut3d does: identity corners but for black at
    /// −0.05 and white at 1.08. Grey v: (1 − f)·(−0.05) + f·1.08, f = v / 255, × 255.
    func testVerticesBeyondTheRangeAreInterpolatedAndOnlyTheResultIsClamped() throws {
        var corners = LookFiles.identity2
        corners[0] = [-0.05, -0.05, -0.05]
        corners[7] = [1.08, 1.08, 1.08]
        let path = files.write("overshoot.cube", LookFiles.cube(["LUT_3D_SIZE 2"], corners))
        // 0: −12.75 → 0; 64: 59.57; 128: 131.89; 255: 275.4 → 255 (clamped vertices: 64, 128)
        for (v, want) in [(UInt8(0), UInt8(0)), (64, 60), (128, 132), (255, 255)] {
            for format in PixelFormat.allCases {
                let grey = RGBA(r: v, g: v, b: v)
                XCTAssertEqual(try apply("lut file=\(path)", to: one(grey), format: format).pixels[0], RGBA(r: want, g: want, b: want),
                               "grey \(v) \(format)")
            }
        }
    }

    func testIntensityMixesLinearlyWithTheOriginal() throws {
        let path = handLook(), input = one(RGBA(r: 204, g: 102, b: 51, a: 200))   // full look (181, 102, 56)
        // c + k (t − c), rounded half up: k 0.5 → (192.5, 102, 53.5); k 0.25 → (198.25, 102, 52.25).
        XCTAssertEqual(try apply("lut file=\(path) intensity=0.5", to: input).pixels[0], RGBA(r: 193, g: 102, b: 54, a: 200))
        XCTAssertEqual(try apply("lut file=\(path) intensity=0.25", to: input).pixels[0], RGBA(r: 198, g: 102, b: 52, a: 200))
        XCTAssertEqual(try apply("lut file=\(path) intensity=0", to: input), input)
        // The element's intensity shortcut sets it too.
        let chain = try FilterChain.parse("lut file=\(path)").withStrength(0.5)
        XCTAssertEqual(applyFilters(chain.makeFilters(), on: input).pixels[0], RGBA(r: 193, g: 102, b: 54, a: 200))
    }

    func testDomainScalesTheInputOntoTheTable() throws {
        let identity = LookFiles.identity2
        // Inputs 0…2 on the table, which is the identity there (corners 0 and 2): 200 sits
        // at 0.39 of the cell and comes out as 200, as with FFmpeg's lut3d.
        let wide = files.write("wide.cube", LookFiles.cube(["LUT_3D_SIZE 2", "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 2 2 2"],
                                                           identity.map { (c: [Double]) -> [Double] in c.map { $0 * 2 } }))
        XCTAssertEqual(try apply("lut file=\(wide)", to: one(RGBA(r: 200, g: 255, b: 0))).pixels[0], RGBA(r: 200, g: 255, b: 0))
        // A wider look (an HDR one, outputs to 10) is counted more coarsely; still the identity.
        let hdr = files.write("hdr.cube", LookFiles.cube(["LUT_3D_SIZE 2", "DOMAIN_MAX 10 10 10"],
                                                         identity.map { (c: [Double]) -> [Double] in c.map { $0 * 10 } }))
        XCTAssertEqual(try apply("lut file=\(hdr)", to: one(RGBA(r: 200, g: 50, b: 0))).pixels[0], RGBA(r: 200, g: 50, b: 0))
        // A domain no 8-bit picture needs (to 20000): taken without a fault (its unit of
        // count would be below one level); every 8-bit input lies at its very bottom.
        let absurd = files.write("absurd.cube", LookFiles.cube(["LUT_3D_SIZE 2", "DOMAIN_MAX 20000 20000 20000"],
                                                            identity.map { (c: [Double]) -> [Double] in c.map { $0 * 20000 } }))
        XCTAssertEqual(try apply("lut file=\(absurd)", to: one(RGBA(r: 255, g: 9, b: 0))).pixels[0], RGBA(r: 0, g: 0, b: 0))
        // Red's inputs 0.2…1 (and its outputs, which must lie in the domain): red 0.2 at the
        // lattice's 0 and 1 at its 1, i.e. out = 0.2 + 0.8 t with t = (v/255 − 0.2)/0.8:
        // 102 is t = 0.25 (out 0.4 → 102); 40 lies below the domain, t = 0 (out 0.2 → 51).
        let narrow = files.write("narrow.cube", LookFiles.cube(["DOMAIN_MIN 0.2 0 0", "LUT_3D_SIZE 2"],
                                                               identity.map { (c: [Double]) -> [Double] in [max(c[0], 0.2), c[1], c[2]] }))
        XCTAssertEqual(try apply("lut file=\(narrow)", to: one(RGBA(r: 102, g: 10, b: 20))).pixels[0], RGBA(r: 102, g: 10, b: 20))
        XCTAssertEqual(try apply("lut file=\(narrow)", to: one(RGBA(r: 40, g: 10, b: 20))).pixels[0], RGBA(r: 51, g: 10, b: 20))
    }

    func testCurvesInterpolateEachChannelLinearly() throws {
        let path = files.write("curves.cube", LookFiles.cube(["LUT_1D_SIZE 3"], [[0, 0, 0], [0.2, 0.8, 0.5], [1, 1, 1]]))
        // 51 sits at 0.4 of the first segment: (0.08, 0.32, 0.2) × 255 = (20.4, 81.6, 51).
        // 204 at 0.6 of the second: (0.68, 0.92, 0.8) × 255 = (173.4, 234.6, 204).
        XCTAssertEqual(try apply("lut file=\(path)", to: one(RGBA(r: 51, g: 51, b: 51))).pixels[0], RGBA(r: 20, g: 82, b: 51))
        XCTAssertEqual(try apply("lut file=\(path)", to: one(RGBA(r: 204, g: 204, b: 204))).pixels[0], RGBA(r: 173, g: 235, b: 204))
    }

    /// Every size 2…65: the identity lattice gives every channel value back, alone and
    /// with the others anywhere.
    func testTheIdentityOfEverySizeChangesNoValue() {
        var state: UInt32 = 1
        for n in CubeFile.sizes3D {
            let look = ColorLookup.identity(.cube(size: n))
            for v in 0...255 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let a = UInt8(truncatingIfNeeded: state >> 8), b = UInt8(truncatingIfNeeded: state >> 16)
                for (r, g, bl) in [(UInt8(v), a, b), (a, UInt8(v), b), (a, b, UInt8(v))] {
                    let o = look.look(r: r, g: g, b: bl)
                    if o != (r, g, bl) { return XCTFail("size \(n): (\(r), \(g), \(bl)) became \(o)") }
                }
            }
        }
    }

    /// Identity files as tools write them (six decimals), through the filter: every
    /// format's bytes unchanged, alpha and padding included.
    func testIdentityFilesLeaveFramesByteForByte() throws {
        let picture = Picture.colourSample
        for n in [2, 3, 17, 33] {
            let path = files.write("identity-\(n).cube", LookFiles.identityCube(size: n))
            for format in PixelFormat.allCases {
                XCTAssertEqual(try apply("lut file=\(path)", to: picture, format: format, padding: 8), picture, "size \(n) \(format)")
                XCTAssertEqual(try apply("lut file=\(path) intensity=0.6", to: picture, format: format), picture, "size \(n) \(format) mixed")
            }
            let filter = try FilterChain.parse("lut file=\(path)").makeFilters()
            for format in YUVFormat.allCases {
                let frame = YUVBuffer(format: format, width: 7, height: 5)
                Self.fillNoise(frame)
                let before = Self.bytes(frame)
                filter.apply(to: frame.frame)
                XCTAssertEqual(Self.bytes(frame), before, "size \(n) \(format)")
            }
        }
    }

    /// The table (one load per pixel) and the per-pixel interpolation give the same pixels,
    /// both byte orders, mixed or not, and on YUV. Only the slabs the picture uses are built
    /// (a whole table takes seconds in a debug build).
    func testTheTableGivesThePixelsOfThePerPixelPath() throws {
        let look = try LookLibrary.load(shippedLooks.first ?? handLook())
        let slabs = [0, 37, 128, 200, 255]
        var picture = Picture.noise(width: 23, height: 11, seed: 5)
        for i in picture.pixels.indices {   // red and blue from the built slabs: the third byte in either order
            picture.pixels[i].r = UInt8(slabs[i % slabs.count])
            picture.pixels[i].b = UInt8(slabs[(i / 3) % slabs.count])
        }
        guard case .cube(let cube) = look.kernel.form else { return XCTFail("the look is not 3D") }
        for redFirst in [true, false] {
            let table = LookTable()
            for slab in slabs { LookTables.fill(table, slabs: slab..<slab + 1, kernel: look.kernel, space: .rgb(redFirst: redFirst)) }
            for intensity in [1.0, 0.7] {
                let mix = LookMix(intensity)
                for format in PixelFormat.allCases where format.isRGBOrder == redFirst {
                    let viaTable = applyFilters([KernelFilter { mix.run(TableLookKernel(entries: table.entries), $0) }], on: picture, format: format)
                    let direct = applyFilters([LookFilter(look: look, intensity: intensity)], on: picture, format: format)
                    XCTAssertEqual(viaTable, direct, "\(format) intensity \(intensity)")
                    XCTAssertNotEqual(direct, picture)
                }
            }
        }
        let table = LookTable()
        for slab in slabs { LookTables.fill(table, slabs: slab..<slab + 1, kernel: look.kernel, space: .yuv(.bt601)) }
        for format in YUVFormat.allCases {
            let a = YUVBuffer(format: format, width: 9, height: 6), b = YUVBuffer(format: format, width: 9, height: 6)
            Self.fillNoise(a, vSamples: slabs.map(UInt8.init))
            b.frame.copy(from: a.frame)
            LookFilter.apply(TableYUVLook(entries: table.entries), LookMix(0.8), to: a.frame)
            LookFilter.apply(YUVLook(cube, .bt601), LookMix(0.8), to: b.frame)
            XCTAssertEqual(Self.bytes(a), Self.bytes(b), "\(format)")
        }
    }

    /// The table read eight pixels per gather, on a frame large enough to be split between
    /// threads and with pixels left after the last eight in each row, in place (whole and
    /// mixed) and from one frame into another: the pixels of the per-pixel path.
    func testTheTableGathersGiveThePixelsOfThePerPixelPathOnASplitFrame() throws {
        let look = try LookLibrary.load(shippedLooks.first ?? handLook())
        let slabs = [0, 140, 255]
        var picture = Picture.noise(width: 203, height: 101, seed: 8)
        for i in picture.pixels.indices {   // red and blue from the built slabs
            picture.pixels[i].r = UInt8(slabs[i % slabs.count])
            picture.pixels[i].b = UInt8(slabs[(i / 7) % slabs.count])
        }
        for format in [PixelFormat.bgrx, .rgba] {
            let table = LookTable()
            for slab in slabs { LookTables.fill(table, slabs: slab..<slab + 1, kernel: look.kernel, space: .rgb(redFirst: format.isRGBOrder)) }
            let kernel = TableLookKernel(entries: table.entries)
            let direct = applyFilters([LookFilter(look: look, intensity: 1)], on: picture, format: format)
            XCTAssertNotEqual(direct, picture)
            XCTAssertEqual(applyFilters([KernelFilter { kernel.lookUp($0) }], on: picture, format: format, padding: 8), direct, "\(format) in place")
            let mixed = applyFilters([LookFilter(look: look, intensity: 0.7)], on: picture, format: format)
            XCTAssertEqual(applyFilters([KernelFilter { kernel.lookUp($0, mix: LookMix(0.7)) }], on: picture, format: format), mixed, "\(format) mixed")
            let source = PixelBuffer(width: picture.width, height: picture.height, format: format)
            let destination = PixelBuffer(width: picture.width, height: picture.height, format: format, stride: picture.width * 4 + 16)
            for y in 0..<picture.height { for x in 0..<picture.width { source.view.setPixel(x: x, y: y, picture[x, y]) } }
            for (intensity, expected) in [(1.0, direct), (0.7, mixed)] {
                kernel.lookUp(FramePass(from: source.view, to: destination.view), mix: LookMix(intensity))
                var copied = picture
                for y in 0..<picture.height { for x in 0..<picture.width { copied[x, y] = destination.view.pixel(x: x, y: y) } }
                XCTAssertEqual(copied, expected, "\(format) intensity \(intensity) into another frame")
            }
        }
    }

    /// Every value of a pixel's first byte through the gathers, which read an entry that
    /// starts a cache line (a first byte that is a multiple of 64) from its first byte and
    /// every other from the byte before it: each gives the per-pixel path's colour.
    func testTheGathersReadEveryEntryOfARowWhereverItLiesInItsCacheLine() throws {
        let look = try LookLibrary.load(shippedLooks.first ?? handLook())
        var picture = Picture.noise(width: 259, height: 3, seed: 3)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                picture[x, y].b = UInt8(x & 0xFF)   // BGRx's first byte
                picture[x, y].r = 200               // its third: the slab built
            }
        }
        let table = LookTable()
        LookTables.fill(table, slabs: 200..<201, kernel: look.kernel, space: .rgb(redFirst: false))
        let kernel = TableLookKernel(entries: table.entries)
        let direct = applyFilters([LookFilter(look: look, intensity: 1)], on: picture, format: .bgrx)
        XCTAssertNotEqual(direct, picture)
        XCTAssertEqual(applyFilters([KernelFilter { kernel.lookUp($0) }], on: picture, format: .bgrx), direct)
    }

    /// A frame of noise; V samples from `vSamples` when given.
    static func fillNoise(_ buffer: YUVBuffer, vSamples: [UInt8]? = nil) {
        var state: UInt32 = 99
        for plane in buffer.frame.planes {
            for y in 0..<plane.height {
                let row = plane.row(y).assumingMemoryBound(to: UInt8.self)
                for i in 0..<(plane.width * plane.elementBytes) {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    row[i] = UInt8(truncatingIfNeeded: state >> 24)
                }
            }
        }
        guard let vSamples else { return }
        let grid = buffer.frame.chromaGrid(v: true)
        for y in 0..<grid.height { for x in 0..<grid.width { grid.row(y)[x * grid.step] = vSamples[(x + y) % vSamples.count] } }
    }

    static func bytes(_ buffer: YUVBuffer) -> [UInt8] {
        buffer.frame.planes.flatMap { p in
            (0..<p.height).flatMap { y in Array(UnsafeBufferPointer(start: p.row(y).assumingMemoryBound(to: UInt8.self), count: p.width * p.elementBytes)) }
        }
    }
}

/// A filter made of one pass (to run a kernel the way the catalog filters do).
private final class KernelFilter: PassFilter {
    let body: (FramePass) -> Void
    init(_ body: @escaping (FramePass) -> Void) { self.body = body }
    func run(_ pass: FramePass) { body(pass) }
}
