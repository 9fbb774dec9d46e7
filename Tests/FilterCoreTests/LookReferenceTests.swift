import Foundation
import XCTest
@testable import FilterCore

/// The shipped looks against FFmpeg's `lut3d=interp=tetrahedral` (and 1D curves against
/// `lut1d`) on the same raw frames: colour bars, a gradient and a photo, ±1 per channel.
/// FFmpeg computes in floats and truncates to 8 bits; the filter rounds: the results differ
/// by at most one level.
final class LookReferenceTests: XCTestCase {
    /// The three pictures one above the other (96 wide): FFmpeg's colour bars (96×48), a
    /// gradient sweeping red, green and blue (96×64) and a photo (the astronaut fixture scaled
    /// by FFmpeg, 96×96), raw RGBA: the same bytes for both sides.
    private func pictures() throws -> Picture {
        let bars = try ffmpegRGBA(nil, width: 96, height: 48, filters: ["null"], source: "-f lavfi -i smptebars=size=96x48")[0]
        let photoPath = repositoryRoot + "/Tests/FilterCamHostTests/Fixtures/faces/astronaut.png"
        let photo = try ffmpegRGBA(nil, width: 96, height: 96, filters: ["scale=96:96"], source: "-i \(photoPath)")[0]
        var gradient = Picture.filled(width: 96, height: 64, RGBA(r: 0, g: 0, b: 0))
        for y in 0..<64 {
            for x in 0..<96 {
                let r = x * 255 / 95, g = y * 255 / 63
                gradient[x, y] = RGBA(r: UInt8(r), g: UInt8(g), b: UInt8((r + 2 * (255 - g)) / 3))
            }
        }
        return Picture(width: 96, height: 208, rgba: bars + gradient.rgbaBytes + photo)
    }

    /// The worst difference in each of the three pictures' rows.
    private func assertWithinOne(_ ours: Picture, _ theirs: Picture, _ what: String) {
        for (name, rows) in [("colour bars", 0..<48), ("gradient", 48..<112), ("photo", 112..<208)] {
            let worst = rows.flatMap { y in (0..<ours.width).map { x -> Int in
                let a = ours[x, y], b = theirs[x, y]
                return max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            } }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "\(what) on \(name)")
        }
        XCTAssertEqual(ours.pixels.map(\.a), theirs.pixels.map(\.a), "\(what): alpha")
    }

    func testEveryShippedLookMatchesFFmpegLut3dTetrahedral() throws {
        let looks = shippedLooks, picture = try pictures()
        XCTAssertGreaterThanOrEqual(looks.count, 6, "the shipped looks (scripts/make-looks.py)")
        let references = try ffmpegRGBA(picture.rgbaBytes, width: picture.width, height: picture.height,
                                        filters: looks.map { "lut3d=file=\($0):interp=tetrahedral" })
        for (look, reference) in zip(looks, references) {
            let name = (look as NSString).lastPathComponent
            let ours = try apply("lut file=\(look)", to: picture, format: .rgba)
            assertWithinOne(ours, Picture(width: picture.width, height: picture.height, rgba: reference), name)
            XCTAssertNotEqual(ours, picture, "\(name) changes the pictures")
            // The other byte order gives the same colours.
            XCTAssertEqual(try apply("lut file=\(look)", to: picture, format: .bgrx).pixels.map { [$0.r, $0.g, $0.b] },
                           ours.pixels.map { [$0.r, $0.g, $0.b] }, "\(name) BGRx")
        }
    }

    /// A look whose vertices overshoot 0…1 as grading tools write them (saturation 1.1 about
    /// the BT.709 luma: pure red's vertex is (1.079, −0.021, −0.021)) against `lut3d`, which
    /// interpolates the vertices as they are and clamps the result.
    func testALookWhoseVerticesOvershootTheRangeMatchesFFmpeg() throws {
        let files = LookFiles(), n = 9
        var entries: [[Double]] = []
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    let c = [r, g, b].map { Double($0) / Double(n - 1) }
                    let luma = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
                    entries.append(c.map { luma + 1.1 * ($0 - luma) })
                }
            }
        }
        XCTAssertLessThan(entries.flatMap { $0 }.min()!, -0.02)
        XCTAssertGreaterThan(entries.flatMap { $0 }.max()!, 1.07)
        let path = files.write("saturate.cube", LookFiles.cube(["LUT_3D_SIZE \(n)"], entries))
        let picture = try pictures()
        let reference = try ffmpegRGBA(picture.rgbaBytes, width: picture.width, height: picture.height,
                                       filters: ["lut3d=file=\(path):interp=tetrahedral"])[0]
        assertWithinOne(try apply("lut file=\(path)", to: picture, format: .rgba),
                        Picture(width: picture.width, height: picture.height, rgba: reference), "saturation 1.1")
    }

    /// A 1D look (a gamma curve on red, an inverted ramp on blue) against `lut1d`.
    func testCurvesMatchFFmpegLut1d() throws {
        let files = LookFiles()
        let entries = (0..<64).map { i -> [Double] in
            let x = Double(i) / 63
            return [pow(x, 0.6), x, 1 - x]
        }
        let path = files.write("curves.cube", LookFiles.cube(["TITLE \"curves\"", "LUT_1D_SIZE 64"], entries))
        let picture = try pictures()
        let reference = try ffmpegRGBA(picture.rgbaBytes, width: picture.width, height: picture.height,
                                       filters: ["lut1d=file=\(path):interp=linear"])[0]
        assertWithinOne(try apply("lut file=\(path)", to: picture, format: .rgba),
                        Picture(width: picture.width, height: picture.height, rgba: reference), "1D curves")
    }
}
