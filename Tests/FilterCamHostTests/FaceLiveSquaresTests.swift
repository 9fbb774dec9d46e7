import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import FilterCore
import Foundation
import XCTest

/// Face squares on a live picture turned, mirrored and zoomed, as a user sets them in the
/// preview (`pipelines/faces.pipeline` with `orientation=ur-ll zoom=1.6`): Grace Hopper's
/// photo through `imagefreeze is-live=true` at 30 fps, 640×360 (the face search works on
/// a 640-pixel copy at any size; the smaller frame keeps this debug-build test's video
/// thread at full rate), every output frame's squares read from its region-of-interest
/// metas.
///
/// Where the face is, is computed here from the photo's eye-checked box with plain
/// arithmetic for each step (`videoscale add-borders`, the anti-transpose, the centred
/// 1.6× crop), never with FilterCam's geometry code.
final class FaceLiveSquaresTests: XCTestCase {
    /// The face in grace_hopper.jpg (512×600), checked by eye (shared/fixtures ground truth).
    static let faceInPhoto = PixelRect(x: 155, y: 105, width: 222, height: 222)

    /// The face box in the 360×640 output of `ur-ll` and `zoom`: the photo scaled with
    /// borders into 640×360 (× 0.6: 307 px wide, 166 px from the left), anti-transposed
    /// ((x, y) → (359 − y, 639 − x)), zoomed about the centre and clipped to the frame.
    static func expectedFace(zoom: Double) -> PixelRect {
        let s = 0.6, left = 166.0
        let x = left + Double(faceInPhoto.x) * s, y = Double(faceInPhoto.y) * s
        let w = Double(faceInPhoto.width) * s, h = Double(faceInPhoto.height) * s
        let tx = 360 - (y + h), ty = 640 - (x + w)
        let zx = 180 + (tx - 180) * zoom, zy = 320 + (ty - 320) * zoom
        let x0 = max(0, zx), y0 = max(0, zy)
        let x1 = min(360, zx + h * zoom), y1 = min(640, zy + w * zoom)
        return PixelRect(x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
    }

    func testTurnedMirroredZoomedFaceIsFoundAndNoSquareStaysOnANonFace() throws {
        let photo = Build.packageRoot + "/Tests/FilterCamHostTests/Fixtures/faces/grace_hopper.jpg"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: photo), "fixture missing")
        GStreamer.initialize()
        let face = Self.expectedFace(zoom: 1.6)
        let pipeline = try Pipeline(description: """
            filesrc location=\(photo) ! jpegdec ! videoconvert ! imagefreeze is-live=true
            ! videoscale add-borders=true ! video/x-raw,width=640,height=360,pixel-aspect-ratio=1/1,framerate=30/1
            ! filtercam detect-faces=true face-min-size=40 face-overlay=false orientation=ur-ll zoom=1.6
            ! appsink name=out sync=true max-buffers=8 drop=true
            """)
        let sink = try pipeline.requireElement("out")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }

        // Every frame from the start: its time and whether it shows the face and a square elsewhere.
        var frames: [(pts: UInt64, onFace: Bool, elsewhere: Bool)] = []
        var firstFound: UInt64?
        let deadline = Date().addingTimeInterval(90)   // a loaded debug build takes seconds to its first update
        while Date() < deadline {
            if let error = pipeline.popError() { return XCTFail(error) }
            guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 100_000_000) else { continue }
            defer { gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample) else { continue }
            let pts = UInt64(fc_buffer_pts(buffer))
            let squares = FaceReport.regionMetas(on: buffer).map(\.rect)
            let onFace = squares.contains { DetectedFace.iou($0, face) >= 0.4 }
            frames.append((pts, onFace, squares.contains { DetectedFace.iou($0, face) < 0.4 }))
            if onFace && firstFound == nil { firstFound = pts }
            if let firstFound, pts >= firstFound + 10_000_000_000 { break }
        }
        let start = try XCTUnwrap(firstFound, "the face was never squared (\(frames.count) frames)")
        let counted = frames.filter { $0.pts >= start }
        XCTAssertGreaterThanOrEqual(counted.last.map { $0.pts - start } ?? 0, 9_900_000_000, "fewer than 10 s of frames")
        // The face is found as at zoom 1: squared on (nearly) every frame once found.
        let withFace = counted.filter(\.onFace).count
        XCTAssertGreaterThanOrEqual(Double(withFace), 0.95 * Double(counted.count), "face squared on \(withFace) of \(counted.count) frames")
        // No square elsewhere for longer than 0.5 s at a time, from the very first frame.
        var longest: UInt64 = 0, since: UInt64?
        for f in frames {
            if f.elsewhere { since = since ?? f.pts; longest = max(longest, f.pts - since! + 33_333_333) } else { since = nil }
        }
        XCTAssertLessThanOrEqual(longest, 500_000_000, "a square stayed off the face for \(Double(longest) / 1e9) s")
        print("live ur-ll zoom 1.6: first square on the face at \(Double(start) / 1e9) s; squared on \(withFace) of \(counted.count) frames; "
              + "frames with a square off the face: \(frames.filter(\.elsewhere).count), longest run \(Double(longest) / 1e9) s")
    }

    /// A zoom set while the face's square is shown: on every zoomed frame the square is where
    /// the face is at the new zoom, not where it was (a result found before the change is
    /// carried through it). 640×480: the photo scaled by 0.8 with black bars left and right
    /// of it (115 px), the face at (239, 84), 178 px a side; zoom 1.5 about the centre puts
    /// it at (198, 6), 266 px a side, and leaves column 60 on the photo instead of the bar,
    /// which tells a zoomed frame from the pixels.
    func testASquareFollowsAZoomSetWhileItIsShown() throws {
        let photo = Build.packageRoot + "/Tests/FilterCamHostTests/Fixtures/faces/grace_hopper.jpg"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: photo), "fixture missing")
        GStreamer.initialize()
        let s = 0.8, left = 115.0
        func face(zoom: Double) -> PixelRect {
            let x = left + Double(Self.faceInPhoto.x) * s, y = Double(Self.faceInPhoto.y) * s, side = Double(Self.faceInPhoto.width) * s
            return PixelRect(x: Int((320 + (x - 320) * zoom).rounded()), y: Int((240 + (y - 240) * zoom).rounded()),
                             width: Int((side * zoom).rounded()), height: Int((side * zoom).rounded()))
        }
        let before = face(zoom: 1), after = face(zoom: 1.5)
        let pipeline = try Pipeline(description: """
            filesrc location=\(photo) ! jpegdec ! videoconvert ! imagefreeze is-live=true
            ! videoscale add-borders=true ! videoconvert
            ! video/x-raw,format=BGRx,width=640,height=480,pixel-aspect-ratio=1/1,framerate=30/1
            ! filtercam name=cam detect-faces=true face-min-size=40 face-overlay=false
            ! appsink name=out sync=true max-buffers=8 drop=true
            """)
        let sink = try pipeline.requireElement("out"), cam = try pipeline.requireElement("cam")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }

        var zoomSet = false, zoomedWithSquares = 0
        let deadline = Date().addingTimeInterval(90)   // a loaded debug build takes seconds to its first result
        while Date() < deadline, zoomedWithSquares < 15 {
            if let error = pipeline.popError() { return XCTFail(error) }
            guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 100_000_000) else { continue }
            defer { gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample) else { continue }
            let squares = FaceReport.regionMetas(on: buffer).map(\.rect)
            if !zoomSet {
                if squares.contains(where: { DetectedFace.iou($0, before) >= 0.5 }) {
                    try Pipeline.setProperty(cam, "zoom", "1.5")
                    zoomSet = true
                }
                continue
            }
            // Column 60: the bar's black (16, 16, 16 from videoscale) at zoom 1; the photo at zoom 1.5.
            var offBlack = 0
            for y in stride(from: 0, to: 480, by: 8) {
                var pixel = [UInt8](repeating: 0, count: 3)
                _ = pixel.withUnsafeMutableBytes { gst_buffer_extract(buffer, gsize(y * 640 * 4 + 60 * 4), $0.baseAddress, 3) }
                if pixel.contains(where: { abs(Int($0) - 16) > 10 }) { offBlack += 1 }
            }
            let zoomed = offBlack > 8
            guard zoomed, !squares.isEmpty else { continue }
            zoomedWithSquares += 1
            for square in squares {
                XCTAssertGreaterThan(DetectedFace.iou(square, after), DetectedFace.iou(square, before),
                                     "a zoomed frame's square \(square) is where the face was before the zoom (\(before)), not where it is (\(after))")
            }
        }
        XCTAssertTrue(zoomSet, "the face was never squared at zoom 1")
        XCTAssertGreaterThanOrEqual(zoomedWithSquares, 15, "zoomed frames with squares")
    }
}
