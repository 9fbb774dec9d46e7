import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import XCTest

/// `filtercam gallery=true` on BGRx and I420 frames: a 320×240 SMPTE picture, whose
/// thumbnails are 88×66 (`GalleryLayoutTests`): cell 0 (none) at (8, 4), cell 2 (mono, the
/// selected filter) at (218, 4). The reference is stock `videoscale` of the same picture
/// to 88×66; the mono cell's grey is Rec.601 luma of that (by hand), or its Y with
/// U = V = 128 on I420.
final class GalleryElementTests: XCTestCase {
    let none = (x: 8, y: 4), mono = (x: 218, y: 4)
    /// The middle of each of the seven top bars in the 88-wide thumbnail, 30 rows down
    /// (above the title at the thumbnail's foot).
    let spots = (0..<7).map { (x: Int((Double($0) + 0.5) * 88 / 7), y: 30) }

    override func setUp() {
        GStreamer.initialize()
    }

    private func frame(_ description: String) throws -> CapturedFrame {
        let frames = try collectFrames(description)
        return try XCTUnwrap(frames.first)
    }

    private func source(_ format: String) -> String {
        "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=\(format),width=320,height=240"
    }

    func testBGRxCellsAreTheFiltersOnThePictureScaledDown() throws {
        let gallery = try frame("\(source("BGRx")) ! filtercam filter=mono gallery=true")
        let scaled = try frame("\(source("BGRx")) ! videoscale ! video/x-raw,width=88,height=66")
        XCTAssertEqual([gallery.width, gallery.height], [320, 240], "the output keeps the picture's size")
        for (x, y) in spots {
            let reference = scaled.pixel(x, y)   // B, G, R, x
            let shown = gallery.pixel(none.x + x, none.y + y)
            for c in 0..<3 { XCTAssertEqual(Double(shown[c]), Double(reference[c]), accuracy: 3, "none at \(x): \(shown) vs \(reference)") }
            let grey = gallery.pixel(mono.x + x, mono.y + y)
            let luma = 0.299 * Double(reference[2]) + 0.587 * Double(reference[1]) + 0.114 * Double(reference[0])
            XCTAssertTrue(grey[0] == grey[1] && grey[1] == grey[2], "mono at \(x): \(grey)")
            XCTAssertEqual(Double(grey[0]), luma, accuracy: 3, "mono at \(x)")
        }
        // The selected cell (mono) is outlined in white 2 pixels outside its picture; the
        // others are not (the grey background there).
        XCTAssertGreaterThan(gallery.pixel(mono.x - 2, mono.y + 30)[1], 200, "the selection's outline")
        XCTAssertEqual(gallery.pixel(none.x - 2, none.y + 30), [32, 32, 32, 255])
    }

    func testI420CellsAreTheFiltersOnThePictureScaledDown() throws {
        let gallery = try frame("\(source("I420")) ! filtercam filter=mono gallery=true")
        let scaled = try frame("\(source("I420")) ! videoscale ! video/x-raw,width=88,height=66")
        XCTAssertEqual(gallery.format, "I420")
        // Planes one after another: Y (w × h), U and V (w/2 × h/2 each).
        func samples(_ f: CapturedFrame, _ x: Int, _ y: Int) -> [Int] {
            let ySize = f.width * f.height, cw = f.width / 2, cSize = cw * (f.height / 2)
            return [Int(f.bytes[y * f.width + x]), Int(f.bytes[ySize + y / 2 * cw + x / 2]),
                    Int(f.bytes[ySize + cSize + y / 2 * cw + x / 2])]
        }
        for (x, y) in spots {
            let reference = samples(scaled, x, y)
            let shown = samples(gallery, none.x + x, none.y + y)
            for c in 0..<3 { XCTAssertEqual(shown[c], reference[c], accuracy: 3, "none at \(x): \(shown) vs \(reference)") }
            let grey = samples(gallery, mono.x + x, mono.y + y)
            XCTAssertEqual(grey[0], reference[0], accuracy: 3, "mono keeps the luma at \(x)")
            XCTAssertEqual(Array(grey[1...]), [128, 128], "mono's chroma is neutral at \(x)")
        }
    }

    /// A still taken with the gallery open is of the picture (here inverted), not of the
    /// gallery: the same picture as the still taken without the gallery, and tens of levels
    /// from the gallery's frame. (Pixels, not file bytes: each still's tags carry the time
    /// to the second, so two runs either side of a second differ in those bytes.)
    func testAStillIsOfThePictureNotOfTheGallery() throws {
        for format in ["BGRA", "I420"] {
            let dir = try makeTempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            let source = "videotestsrc num-buffers=2 pattern=smpte ! video/x-raw,format=\(format),width=64,height=48"
            func run(_ name: String, gallery: Bool) throws -> [CapturedFrame] {
                try collectFrames("\(source) ! filtercam filter=invert gallery=\(gallery) snapshot-every=2 snapshot-quality=95 "
                                  + "flash=false snapshot-location=\(dir.path)/\(name)-%d.jpg ! videoconvert ! video/x-raw,format=BGRA")
            }
            let galleryFrames = try run("gallery", gallery: true)
            _ = try run("picture", gallery: false)
            let still = dir.appendingPathComponent("gallery-0.jpg").path, plain = dir.appendingPathComponent("picture-0.jpg").path
            let stillPixels = try decode(still)
            XCTAssertEqual(stillPixels.packedBytes, try decode(plain).packedBytes, format)
            XCTAssertGreaterThan(meanDifference(stillPixels, galleryFrames[1]), 30, format)
        }
    }

    /// Turned a quarter, the output is 240×320 and the thumbnails are of the turned picture:
    /// the bars, left to right, run top to bottom (white at the top).
    func testThumbnailsFollowTheOrientation() throws {
        let gallery = try frame("\(source("BGRx")) ! filtercam orientation=90r gallery=true")
        XCTAssertEqual([gallery.width, gallery.height], [240, 320])
        // Cell 0 at (6, 6), 66×88 (`GalleryPainterTests`); the bars' part now spans the right
        // 2/3 of the width: the first bar (white) on top, the fifth (magenta) at 4/7–5/7 of
        // the height (above the title).
        let top = gallery.pixel(6 + 50, 6 + 4), magenta = gallery.pixel(6 + 50, 6 + 56)
        XCTAssertTrue(top[0] > 150 && top[1] > 150 && top[2] > 150, "white on top: \(top)")
        XCTAssertTrue(magenta[0] > 150 && magenta[1] < 60 && magenta[2] > 150, "magenta below: \(magenta)")
    }
}
