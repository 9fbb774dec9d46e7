import CGStreamer
@testable import FilterCamHost
import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import PixelateExample
import XCTest

/// FilterCam's elements on I420, NV12, YUY2 and UYVY frames: output in the input's format,
/// geometry byte for byte against `videoflip` and `videocrop` (odd sizes included), and the
/// catalog filters against their RGB result through `videoconvert`.
final class YUVElementTests: XCTestCase {
    static let formats = ["I420", "NV12", "YUY2", "UYVY"]
    static let nicks = ["identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll"]

    override func setUp() {
        GStreamer.initialize()
    }

    private func source(_ format: String, _ w: Int, _ h: Int, pattern: String = "smpte", frames: Int = 1) -> String {
        "videotestsrc num-buffers=\(frames) pattern=\(pattern) ! video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1"
    }

    /// The bytes a stock element defines. For packed 4:2:2 frames of odd width the last
    /// macropixel's second luma is padding (videoflip leaves it, and videocrop its V too):
    /// both are blanked before comparing.
    private func defined(_ frame: CapturedFrame) -> [UInt8] {
        guard let f = YUVFormat(rawValue: frame.format), f.isPacked, frame.width % 2 == 1 else { return frame.bytes }
        var bytes = frame.bytes
        let rowBytes = (frame.width + 1) / 2 * 4, o = f.packedOffsets
        for y in 0..<frame.height {
            bytes[y * rowBytes + rowBytes - 4 + o.y1] = 0
            bytes[y * rowBytes + rowBytes - 4 + o.v] = 0
        }
        return bytes
    }

    private func assertSame(_ ours: [CapturedFrame], _ theirs: [CapturedFrame], _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ours.count, theirs.count, what, file: file, line: line)
        for (a, b) in zip(ours, theirs) {
            XCTAssertEqual([a.width, a.height], [b.width, b.height], what, file: file, line: line)
            XCTAssertEqual(a.format, b.format, what, file: file, line: line)
            XCTAssertTrue(defined(a) == defined(b), "\(what): samples differ", file: file, line: line)
        }
    }

    func testEveryOrientationMatchesVideoflipInEachFormatAndOddSizes() throws {
        for format in Self.formats {
            for (w, h) in [(16, 10), (13, 7), (37, 29)] {   // 37x29: whole blocks and their remainders
                for nick in Self.nicks {
                    let ours = try collectFrames("\(source(format, w, h)) ! filtercam orientation=\(nick)")
                    let theirs = try collectFrames("\(source(format, w, h)) ! videoflip video-direction=\(nick)")
                    assertSame(ours, theirs, "\(nick) \(format) \(w)x\(h)")
                }
            }
        }
    }

    /// Frames large enough for the rows to be split between two threads: the packed
    /// turns write two output rows per pass, pairs that may straddle the split, and the
    /// plane turns end each thread's rows with a block overlapping the one before.
    func testTurnsMatchVideoflipWhenTheRowsAreSplit() throws {
        for format in ["YUY2", "UYVY", "I420", "NV12"] {
            for nick in ["90r", "90l", "ul-lr", "ur-ll"] {
                let ours = try collectFrames("\(source(format, 203, 161)) ! filtercam orientation=\(nick)")
                let theirs = try collectFrames("\(source(format, 203, 161)) ! videoflip video-direction=\(nick)")
                assertSame(ours, theirs, "\(nick) \(format) 203x161")
            }
        }
    }

    /// A lens crop of the turned picture equals videoflip then videocrop with the lens's
    /// pixel borders, which snap to even pixels on YUV frames.
    func testLensCropMatchesVideoflipThenVideocrop() throws {
        for format in Self.formats {
            for (w, h, lens, nick) in [(16, 10, "0.25,0.25,0.5,0.5", "identity"), (13, 7, "0.1,0.3,0.55,0.6", "90r"),
                                       (13, 9, "0.3,0,0.7,0.5", "ur-ll"), (15, 11, "0.2,0.2,0.7,0.7", "180")] {
                let m = OrientationMethod(nick: nick)!
                let (ow, oh) = m.outputSize(width: w, height: h)
                let r = try LensRect(parsing: lens).pixelRect(width: ow, height: oh, grid: 2)
                XCTAssertTrue(r.x % 2 == 0 && r.y % 2 == 0, "lens \(r) is on the chroma grid")
                let crop = "videocrop left=\(r.x) right=\(ow - r.x - r.width) top=\(r.y) bottom=\(oh - r.y - r.height)"
                let ours = try collectFrames("\(source(format, w, h)) ! filtercam orientation=\(nick) lens=\(lens) lens-crop=true")
                let theirs = try collectFrames("\(source(format, w, h)) ! videoflip video-direction=\(nick) ! \(crop)")
                assertSame(ours, theirs, "\(format) \(w)x\(h) \(nick) lens-crop \(lens)")
            }
        }
    }

    /// A small photo (Fixtures/faces/nonface_coffee.png scaled to 48×32) as RGBA.
    private static let photo: String = {
        let png = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/faces/nonface_coffee.png").path
        return "filesrc location=\(png) ! pngdec ! videoconvert ! videoscale ! video/x-raw,format=RGBA,width=48,height=32"
    }()

    /// The RGBA pictures the filters are checked on: colour bars, a gradient, noise and a photo.
    static let pictures = ["smpte", "gradient", "snow", "photo"]

    /// Differences per sample between an RGB picture converted to `format` and filtered
    /// there, and the same picture filtered in RGB and then converted. `pattern` is a
    /// videotestsrc pattern (32×16), or "photo".
    private func differences(_ filter: String, _ format: String, pattern: String) throws -> [Int] {
        let rgb = pattern == "photo" ? Self.photo
            : "videotestsrc num-buffers=1 pattern=\(pattern) ! video/x-raw,format=RGBA,width=32,height=16,framerate=30/1"
        let convert = "videoconvert ! video/x-raw,format=\(format)"
        let yuv = try collectFrames("\(rgb) ! \(convert) ! \(filter)")
        let reference = try collectFrames("\(rgb) ! \(filter) ! \(convert)")
        XCTAssertEqual(yuv.count, 1)
        XCTAssertEqual(reference.count, 1)
        XCTAssertEqual(yuv.first?.format, format)
        guard let a = yuv.first, let b = reference.first else { return [] }
        return zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }
    }

    /// The largest of `differences`.
    private func largestDifference(_ filter: String, _ format: String, pattern: String) throws -> Int {
        try differences(filter, format, pattern: pattern).max() ?? 0
    }

    /// The tolerances the filters' YUV paths state (MonoFilter, InvertFilter, SepiaFilter),
    /// on colour bars, a gradient and noise.
    func testYUVFiltersMatchTheirRGBResultThroughVideoconvert() throws {
        for format in Self.formats {
            for pattern in ["smpte", "gradient", "snow"] {
                XCTAssertLessThanOrEqual(try largestDifference("fcmono", format, pattern: pattern), 2, "mono \(format) \(pattern)")
                XCTAssertLessThanOrEqual(try largestDifference("fcinvert", format, pattern: pattern), 2, "invert \(format) \(pattern)")
                XCTAssertLessThanOrEqual(try largestDifference("fcsepia intensity=1", format, pattern: pattern), 16,
                                         "sepia \(format) \(pattern)")
            }
        }
    }

    /// The bounds each of these filters' `yuvTolerance` states, per picture (smpte,
    /// gradient, snow, photo), in every format. Where a closed form exists it holds within
    /// ±2 where its conditions hold (chroma flat over each site, nothing clamping); the
    /// other bounds are measured maxima, rounded up a little, and the filters' doc comments
    /// say where they come from.
    static let statedBounds: [(filter: String, bounds: [Int])] = [
        ("fcnoir", [2, 2, 2, 2]),
        ("fcnoir intensity=0.5", [2, 2, 2, 2]),
        ("fcvignette", [4, 2, 2, 2]),
        ("fcvignette radius=0.5 intensity=1", [4, 2, 2, 2]),
        ("fcexposure ev=1", [55, 3, 3, 22]),
        ("fcexposure ev=-2", [55, 3, 3, 22]),
        ("fcexposure ev=2", [55, 3, 3, 22]),
        ("fcposterize", [46, 2, 46, 46]),
        ("fcsharpen", [45, 2, 2, 20]),
        ("fcblur", [21, 2, 2, 6]),
        ("fcblur radius=1", [21, 2, 2, 6]),
        ("fcblur radius=5", [21, 2, 2, 6]),
        ("fcedges", [3, 3, 3, 7]),
        ("fcfocus-peaking", [2, 2, 2, 255]),
        ("fcfocus-peaking threshold=50 color=0xFF00FF00", [2, 2, 2, 255]),
        ("fclut file=\(Build.packageRoot)/looks/teal-orange.cube", [16, 2, 2, 8]),
        ("fclut file=\(Build.packageRoot)/looks/bleach-bypass.cube intensity=0.8", [20, 2, 2, 10]),
    ]

    func testEveryCatalogFilterMatchesItsRGBResultWithinItsStatedTolerance() throws {
        for format in Self.formats {
            for (filter, bounds) in Self.statedBounds {
                for (pattern, bound) in zip(Self.pictures, bounds) {
                    XCTAssertLessThanOrEqual(try largestDifference(filter, format, pattern: pattern), bound,
                                             "\(filter) \(format) \(pattern)")
                }
            }
        }
    }

    /// Focus peaking on a photo: pixels whose edge strength lies within a few levels of the
    /// threshold may be painted on one side only (each such sample differs by up to the
    /// colour's distance); the stated share of those samples is 3 %.
    func testFocusPeakingPaintsTheSamePixelsButNearTheThreshold() throws {
        for format in Self.formats {
            for filter in ["fcfocus-peaking", "fcfocus-peaking threshold=50 color=0xFF00FF00"] {
                let d = try differences(filter, format, pattern: "photo")
                XCTAssertLessThanOrEqual(d.filter { $0 > 2 }.count * 100, 3 * d.count, "\(filter) \(format)")
            }
        }
    }

    /// Colour matrices as YUV matrices (YUVAffine). A matrix that mixes chroma into luma
    /// needs each pixel's own chroma, which 4:2:0 and 4:2:2 frames keep per site only: the
    /// stated ±2 holds where chroma is flat over each site (a gradient, flat colours) and no
    /// channel clamps. (At colour edges inside a site, e.g. colour bars, up to 9 measured.)
    func testColourMatrixFiltersMatchTheirRGBResultWhereChromaIsFlatPerSite() throws {
        let pictures = ["gradient"] + ["0xff806040", "0xff3070a0", "0xff60a050"].map { "solid-color foreground-color=\($0)" }
        for format in Self.formats {
            for pattern in pictures {
                for filter in ["fccolor-controls saturation=0.5 contrast=0.8", "fcwhite-balance temperature=5000",
                               "fcchannel-mix matrix=\"<0.5,0.3,0.2,0, 0.2,0.6,0.2,0, 0.1,0.2,0.7,0>\""] {
                    XCTAssertLessThanOrEqual(try largestDifference(filter, format, pattern: pattern), 2,
                                             "\(filter) \(format) \(pattern)")
                }
            }
        }
    }

    /// Matrices that push R′G′B′ past 0…255 clamp as in RGB, each channel per pixel, and the
    /// samples stay in video range. As one affine map on the samples they were 55–81 levels
    /// from the RGB result (a red flag stayed deep red where RGB washes it pink) and left
    /// luma up to 255 in limited-range frames (superwhites an encoder keeps).
    func testColourMatrixFiltersClampAsTheirRGBResultDoes() throws {
        let pictures = ["gradient"] + ["0xff806040", "0xff3070a0", "0xffe0e0e0", "0xffd02020", "0xff101010"]
            .map { "solid-color foreground-color=\($0)" }
        let clamping = ["fccolor-controls contrast=3", "fccolor-controls brightness=0.5", "fccolor-controls brightness=-0.4 contrast=2",
                        "fcchannel-mix matrix=\"<2,0,0,0, 0,2,0,0, 0,0,2,0>\"", "fcwhite-balance temperature=2000 tint=0.8"]
        for format in Self.formats {
            for pattern in pictures {
                for filter in clamping {
                    XCTAssertLessThanOrEqual(try largestDifference(filter, format, pattern: pattern), 2, "\(filter) \(format) \(pattern)")
                }
            }
        }
        for format in ["I420", "NV12"] {
            for filter in clamping {
                let bars = "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGBA,width=32,height=16 ! videoconvert ! video/x-raw,format=\(format)"
                let out = try XCTUnwrap(try collectFrames("\(bars) ! \(filter)").first)
                let luma = out.bytes[0..<(32 * 16)], chroma = out.bytes[(32 * 16)...]
                XCTAssertTrue(luma.allSatisfy { (16...235).contains($0) }, "\(filter) \(format): luma \(luma.min()!)…\(luma.max()!)")
                XCTAssertTrue(chroma.allSatisfy { (16...240).contains($0) }, "\(filter) \(format): chroma \(chroma.min()!)…\(chroma.max()!)")
            }
        }
    }

    /// Caps without colorimetry are read in BT.601 up to 576 lines and BT.709 above: a turn
    /// or a lens crop across that line kept the samples but changed how downstream read
    /// them (a saturated green 20 levels off in RGB). The picture in RGB is the unturned,
    /// uncropped picture's, turned or cropped by the stock elements after videoconvert. (One
    /// colour: at the edges of bars the turned 4:2:2 chroma differs by its resampling.)
    func testATurnOrALensAcrossTheHDLineKeepsTheColours() throws {
        func rgb(_ frames: [CapturedFrame]) -> [UInt8] { frames.first?.bytes ?? [] }
        let rgbx = "videoconvert ! video/x-raw,format=RGBx"
        func source(_ format: String, _ w: Int, _ h: Int) -> String {
            self.source(format, w, h, pattern: "solid-color foreground-color=0xff20c040")
        }
        for format in ["I420", "NV12", "YUY2"] {
            let turned = try collectFrames("\(source(format, 600, 40)) ! filtercam orientation=90r ! \(rgbx)")
            let stockTurned = try collectFrames("\(source(format, 600, 40)) ! \(rgbx) ! videoflip video-direction=90r")
            XCTAssertEqual([turned.first?.width, turned.first?.height], [40, 600])
            XCTAssertLessThanOrEqual(zip(rgb(turned), rgb(stockTurned)).map { abs(Int($0) - Int($1)) }.max() ?? 255, 2, "\(format) turned")
            let lens = try collectFrames("\(source(format, 64, 600)) ! filtercam lens=0,0,0.5,0.5 lens-crop=true ! \(rgbx)")
            let stockLens = try collectFrames("\(source(format, 64, 600)) ! \(rgbx) ! videocrop right=32 bottom=300")
            XCTAssertEqual([lens.first?.width, lens.first?.height], [32, 300])
            XCTAssertLessThanOrEqual(zip(rgb(lens), rgb(stockLens)).map { abs(Int($0) - Int($1)) }.max() ?? 255, 2, "\(format) lens")
        }
    }

    func testOutputKeepsTheInputFormatAndFiltersChangeIt() throws {
        for format in Self.formats {
            let input = try collectFrames(source(format, 16, 8))
            let out = try collectFrames("\(source(format, 16, 8)) ! fcinvert")
            XCTAssertEqual(out.first?.format, format)
            XCTAssertNotEqual(out.first?.bytes, input.first?.bytes, "\(format): invert changed nothing")
        }
    }

    /// Faces on a YUV stream: searched on the luma plane, squares drawn into the planes,
    /// the frames stay in their format.
    func testFacesOnAYUVStreamAreSquaredInPlace() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/faces/astronaut.png").path
        let source = "filesrc location=\(photo) ! pngdec ! videoconvert ! video/x-raw,format=I420 ! imagefreeze num-buffers=2"
        let plain = try collectFrames(source)
        let squared = try collectFrames("\(source) ! filtercam detect-faces=true")
        XCTAssertEqual(squared.count, 2)
        XCTAssertEqual(squared.first?.format, "I420")
        XCTAssertNotEqual(squared.first?.bytes, plain.first?.bytes, "no square was drawn")
    }

    /// The error a pipeline posts, whether it came before or after its end of stream.
    private func error(of description: String) -> String? {
        var after: String?
        do {
            _ = try collectFrames(description, afterEOS: { after = $0.popError() })
        } catch {
            return "\(error)"
        }
        return after
    }

    /// Every catalog filter has a YUV path: its element takes each YUV format and keeps it,
    /// and so does `filtercam` with it in its chain.
    func testEveryCatalogFilterElementTakesEachYUVFormatAndKeepsIt() throws {
        for d in FilterRegistry(registeringBuiltIns: true).all {
            XCTAssertTrue(d.worksOnYUV, d.id)
            XCTAssertNotNil(d.yuvTolerance, d.id)
            for format in Self.formats {
                if d.id != "none" {
                    let out = try collectFrames("\(source(format, 16, 8)) ! fc\(d.id)")
                    XCTAssertEqual(out.first?.format, format, "fc\(d.id) \(format)")
                }
                let chain = try collectFrames("\(source(format, 16, 8)) ! filtercam filter=\(d.id)")
                XCTAssertEqual(chain.first?.format, format, "filtercam filter=\(d.id) \(format)")
            }
        }
    }

    /// A filter written against the public API without a YUV path (the pixelate example)
    /// still refuses YUV clearly.
    func testFiltersWithoutAYUVPathRefuseYUVClearly() {
        FilterCamPlugin.register(filter: PixelateFilter.descriptor)
        // The filter's element does not offer YUV caps: GStreamer cannot link it.
        let link = error(of: "\(source("I420", 16, 8)) ! fcpixelate") ?? ""
        XCTAssertTrue(link.contains("fcpixelate") && link.contains("I420"), link)
        // filtercam takes YUV, and says which filter of its chain cannot.
        let chain = error(of: "\(source("NV12", 16, 8)) ! filtercam filter=\"mono, pixelate\"") ?? ""
        XCTAssertTrue(chain.contains("'pixelate'") && chain.contains("NV12") && chain.contains("videoconvert"), chain)
    }

    /// On YUV frames, a chain with a filter without a YUV path is refused while playing
    /// and the filter kept (it was taken, and the next frame ended the stream with an
    /// error); the window's n passes over such a filter.
    func testAnRGBOnlyFilterSetOnYUVFramesIsRefusedAndTheStreamGoesOn() throws {
        FilterCamPlugin.register(filter: PixelateFilter.descriptor)
        var refusal: String?, afterN: String?
        let frames = try collectFrames("\(source("I420", 16, 8, frames: 6)) ! filtercam name=f filter=mono", onFrame: { i, _, pipeline in
            guard i == 0, let f = pipeline.element(named: "f") else { return }
            do { try Pipeline.setProperty(f, "filter", "pixelate") } catch { refusal = "\(error)" }
            // n from the filter before pixelate in the catalog goes past it.
            let before = FilterRegistry.shared.id(after: "pixelate", step: -1)
            try? Pipeline.setProperty(f, "filter", FilterShowcase.chain(for: before))
            _ = try? ControlCommand.nextFilter.run(on: ElementControl(f))
            afterN = Pipeline.property(f, "filter")
        })
        XCTAssertEqual(frames.count, 6)
        XCTAssertTrue(refusal?.contains("'pixelate' works on RGB frames only, and these frames are I420") == true, refusal ?? "taken")
        XCTAssertNotNil(afterN)
        XCTAssertFalse(afterN?.hasPrefix("pixelate") ?? true, afterN ?? "")
    }

    /// The on-screen display on each YUV format: no error, the frames keep their format and
    /// the filter's title (shown after the filter is set) is drawn into them.
    func testOnScreenDisplayIsDrawnIntoEveryYUVFormat() throws {
        for format in Self.formats {
            let plain = try collectFrames("\(source(format, 64, 48)) ! filtercam filter=sepia")
            let shown = try collectFrames("\(source(format, 64, 48)) ! filtercam filter=sepia osd=true")
            XCTAssertEqual(shown.first?.format, format)
            XCTAssertNotEqual(shown.first?.bytes, plain.first?.bytes, "\(format): no title drawn")
        }
    }

    /// The lens outline drawn into I420 planes lands on the pixels it covers when drawn into
    /// BGRx (through videoconvert both ways): the same pixels change, luma within ±3 of
    /// the RGB result (its round trip's rounding) and chroma within ±4 (videoconvert
    /// subsamples the blended RGB with its own filter; the blend uses the site's mean
    /// alpha). On flat colours and a grey ramp, which the RGB round trip keeps (±2).
    func testLensOutlineOnI420MatchesTheRGBResultThroughVideoconvert() throws {
        let (w, h) = (64, 48)
        let osd = "filtercam osd=true lens-outline=true lens=0.25,0.25,0.5,0.5"
        let rgb = "videoconvert ! video/x-raw,format=BGRx"
        let back = "videoconvert ! video/x-raw,format=I420"
        for pattern in ["solid-color foreground-color=0xff806040", "solid-color foreground-color=0xff3070a0", "gradient"] {
            let src = source("I420", w, h, pattern: pattern)
            let frames = try [src, "\(src) ! \(osd)", "\(src) ! \(rgb) ! \(back)", "\(src) ! \(rgb) ! \(osd) ! \(back)"]
                .map { try XCTUnwrap(collectFrames($0).first?.bytes) }
            let (plain, yuv, roundTrip, reference) = (frames[0], frames[1], frames[2], frames[3])
            func changed(_ a: [UInt8], _ b: [UInt8], by d: Int = 4) -> Set<Int> {
                Set((0..<w * h).filter { abs(Int(a[$0]) - Int(b[$0])) > d })
            }
            let drawn = changed(reference, roundTrip)
            // The outline of the 32×24 lens at (16,12): pixels along its edges only.
            XCTAssertGreaterThan(drawn.count, 2 * (32 + 24), pattern)
            XCTAssertTrue(drawn.allSatisfy { i in
                let x = i % w, y = i / w
                return (14...19).contains(x) || (46...50).contains(x) || (10...15).contains(y) || (34...38).contains(y)
            }, "\(pattern): outline pixels away from the lens edges: \(drawn.sorted().map { ($0 % w, $0 / w) })")
            // The same pixels (an antialiased one near the threshold may change by a little
            // more in one and a little less in the other).
            XCTAssertTrue(changed(yuv, plain).isSubset(of: changed(reference, roundTrip, by: 1)), pattern)
            XCTAssertTrue(drawn.isSubset(of: changed(yuv, plain, by: 1)), pattern)
            let luma = (0..<w * h).map { abs(Int(yuv[$0]) - Int(reference[$0])) }.max() ?? 0
            let chroma = (w * h..<yuv.count).map { abs(Int(yuv[$0]) - Int(reference[$0])) }.max() ?? 0
            XCTAssertLessThanOrEqual(luma, 3, pattern)
            XCTAssertLessThanOrEqual(chroma, 4, pattern)
            print("outline \(pattern): \(drawn.count) pixels, luma ±\(luma), chroma ±\(chroma) against the RGB result")
        }
    }

    func testInterlacedCapsAreRefusedClearly() {
        let text = error(of: "videotestsrc num-buffers=1 ! video/x-raw,format=I420,width=16,height=8,interlace-mode=interleaved ! filtercam orientation=90r") ?? ""
        XCTAssertTrue(text.contains("progressive") && text.contains("interleaved"), text)
    }
}
