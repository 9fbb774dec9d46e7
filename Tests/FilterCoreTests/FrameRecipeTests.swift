import XCTest
@testable import FilterCore

/// The lens/filter recipe, without GStreamer: each of the three ways a frame is written
/// (in place, copying shared memory, rendering a new picture) gives the picture computed
/// by hand — the filter (invert: 255 − c on R, G, B) inside the lens, the rest untouched.
final class FrameRecipeTests: XCTestCase {
    let input = Picture.noise(width: 6, height: 8, seed: 3)

    func frame(_ p: Picture, padding: Int = 4) -> PixelBuffer {
        let buffer = PixelBuffer(width: p.width, height: p.height, stride: p.width * 4 + padding)
        for y in 0..<p.height { for x in 0..<p.width { buffer.view.setPixel(x: x, y: y, p[x, y]) } }
        return buffer
    }

    func picture(_ b: PixelBuffer) -> Picture {
        var p = Picture.filled(width: b.width, height: b.height, RGBA(r: 0, g: 0, b: 0, a: 0))
        for y in 0..<b.height { for x in 0..<b.width { p[x, y] = b.view.pixel(x: x, y: y) } }
        return p
    }

    func inverted(_ c: RGBA) -> RGBA { RGBA(r: 255 - c.r, g: 255 - c.g, b: 255 - c.b, a: c.a) }

    func recipe(_ method: OrientationMethod, lens: String) throws -> FrameRecipe {
        let plan = GeometryPlan(inputWidth: input.width, inputHeight: input.height, method: method,
                                zoom: 1, lens: try LensRect(parsing: lens), lensCrop: false)
        return FrameRecipe(plan: plan, filters: try FilterChain.parse("invert intensity=1").makeFilters())
    }

    /// Upright: inside the lens (x 1…3, y 2…5 of 6×8) inverted, outside as it came.
    func expectedUpright() -> Picture {
        var out = input
        for y in 2..<6 { for x in 1..<4 { out[x, y] = inverted(input[x, y]) } }
        return out
    }

    func testInPlaceFiltersOnlyInsideTheLens() throws {
        let r = try recipe(.identity, lens: "0.1667,0.25,0.5,0.5")
        XCTAssertEqual(r.lensRect, PixelRect(x: 1, y: 2, width: 3, height: 4))
        let f = frame(input)
        r.applyInPlace(f.view)
        XCTAssertEqual(picture(f), expectedUpright())
    }

    func testCopyingSharedMemoryGivesTheSamePictureInOnePass() throws {
        let r = try recipe(.identity, lens: "0.1667,0.25,0.5,0.5")
        let source = frame(input), destination = PixelBuffer(width: 6, height: 8, stride: 6 * 4 + 12)
        r.apply(from: source.view, to: destination.view)
        XCTAssertEqual(picture(destination), expectedUpright())
        XCTAssertEqual(picture(source), input, "the shared source is not written")
    }

    func testRenderTurnsFirstThenFiltersTheLensOfTheOutput() throws {
        // 90° clockwise: the output is 8×6, out(x, y) = in(y, 7 − x); the lens is in output pixels.
        let r = try recipe(.rotate90R, lens: "0.25,0.5,0.5,0.5")
        XCTAssertEqual(r.lensRect, PixelRect(x: 2, y: 3, width: 4, height: 3))
        let source = frame(input), destination = PixelBuffer(width: 8, height: 6)
        r.apply(from: source.view, to: destination.view)
        var expected = Picture.filled(width: 8, height: 6, RGBA(r: 0, g: 0, b: 0, a: 0))
        for y in 0..<6 {
            for x in 0..<8 {
                let c = input[y, 7 - x]
                expected[x, y] = (2..<6).contains(x) && (3..<6).contains(y) ? inverted(c) : c
            }
        }
        XCTAssertEqual(picture(destination), expected)
    }

    func testJobPicksTheWayAndRunsFinishOnTheFinishedPicture() throws {
        let none = FrameRecipe(plan: GeometryPlan(inputWidth: 6, inputHeight: 8, method: .identity, zoom: 1,
                                                  lens: .full, lensCrop: false), filters: [])
        if case .passthrough = none.job(finish: nil).work {} else { XCTFail("nothing to do: passthrough") }

        let turned = try recipe(.rotate90R, lens: "0.25,0.5,0.5,0.5")
        let job = turned.job { frame in frame.setPixel(x: 0, y: 0, RGBA(r: 1, g: 2, b: 3)) }
        XCTAssertEqual(job.outputWidth, 8)
        XCTAssertEqual(job.outputHeight, 6)
        XCTAssertTrue(job.swapsAxes)
        guard case .render(let work) = job.work else { return XCTFail("a turn renders a new frame") }
        let source = frame(input), destination = PixelBuffer(width: 8, height: 6)
        work(source.view, destination.view)
        XCTAssertEqual(destination.view.pixel(x: 0, y: 0), RGBA(r: 1, g: 2, b: 3), "finish ran after the recipe")
        XCTAssertEqual(destination.view.pixel(x: 1, y: 0), input[0, 6])
    }
}
