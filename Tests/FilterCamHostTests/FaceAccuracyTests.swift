import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import Foundation
import XCTest

/// Recall and false alarms of the element's face defaults against OpenCV's own
/// `detectMultiScale` (haarcascade_frontalface_default, scaleFactor 1.1, minNeighbors 5,
/// default min size, on the full-size grey picture: OpenCV's BGR2GRAY, which `GreyImage`
/// at step 1 equals, see FaceDetectorTests), both computed here and scored as
/// shared/fixtures/faces/score.py does (`FaceScore`, IoU ≥ 0.4, ignore regions).
///
/// Pictures: the five local fixtures and versions of each made with GStreamer's own
/// elements (never with FilterCam's code): turned 90r / 180 / 90l and mirrored
/// (`videoflip video-direction`), letterboxed at half size on black (`videoscale !
/// videobox`), darkened and brightened (`videobalance`); and three pictures from other
/// Debian packages (two more LFW mosaics, opencv-doc's basketball1, scikit-image's coins)
/// upright and turned 90r (fewer versions: the suite's time), the third mosaic also
/// mirrored; 49 pictures, 110 faces.
/// True boxes: checked by eye (ground_truth.json's for the shared ones), moved with the
/// picture. The whole package face set is scored by a script (docs/faces.md, "Against OpenCV").
final class FaceAccuracyTests: XCTestCase {
    struct Picture {
        let name: String
        let variant: String
        let frame: PixelBuffer
        let faces: [PixelRect]
        let ignore: [PixelRect]
        /// The faces are turned in the picture (roll 90, 180 or 270).
        let turned: Bool
    }

    /// Each variant: its GStreamer elements and how a true box moves with it.
    struct Variant: Sendable {
        let name: String
        let elements: @Sendable (Int, Int) -> String
        let move: @Sendable (PixelRect, Int, Int) -> PixelRect
        var turned = false
    }

    static let variants: [Variant] = {
        var list = [Variant(name: "upright", elements: { _, _ in "identity" }, move: { r, _, _ in r })]
        for method in [OrientationMethod.rotate90R, .rotate180, .rotate90L, .horizontal] {
            list.append(Variant(name: method.nick, elements: { _, _ in "videoflip video-direction=\(method.nick)" },
                                move: { r, w, h in FaceFixtures.transformed(r, method, width: w, height: h) },
                                turned: method != .horizontal))
        }
        list.append(Variant(name: "small", elements: { w, h in
            let l = (w - w / 2) / 2, t = (h - h / 2) / 2
            return "videoscale ! video/x-raw,width=\(w / 2),height=\(h / 2) ! videobox fill=black left=-\(l) right=-\(w - w / 2 - l) top=-\(t) bottom=-\(h - h / 2 - t)"
        }, move: { r, w, h in
            PixelRect(x: (w - w / 2) / 2 + r.x * (w / 2) / w, y: (h - h / 2) / 2 + r.y * (h / 2) / h,
                      width: r.width * (w / 2) / w, height: r.height * (h / 2) / h)
        }))
        list.append(Variant(name: "dark", elements: { _, _ in "videobalance brightness=-0.15 contrast=0.5" }, move: { r, _, _ in r }))
        list.append(Variant(name: "bright", elements: { _, _ in "videobalance brightness=0.35 contrast=0.6" }, move: { r, _, _ in r }))
        return list
    }()

    nonisolated(unsafe) private static var cached: [Picture]?

    static func pictures() throws -> [Picture] {
        if let cached { return cached }
        var out: [Picture] = []
        for image in FaceFixtures.accuracySet {
            let upright = try FaceFixtures.load(image)
            let (w, h) = (upright.width, upright.height)
            let local = FaceFixtures.local.contains { $0.file == image.file }
            let mirrored = image.file == FaceFixtures.lfwMosaicC.file
            for v in variants where local || ["upright", "90r"].contains(v.name) || (mirrored && v.name == "horiz") {
                let frame = try FrameIO.captureFrame("filesrc location=\"\(FaceFixtures.path(image)!)\" ! pngdec ! videoconvert ! \(v.elements(w, h))",
                                                     format: .rgba)
                out.append(Picture(name: "\(image.file) \(v.name)", variant: v.name, frame: frame, faces: image.faces.map { v.move($0, w, h) },
                                   ignore: image.ignore.map { v.move($0, w, h) }, turned: v.turned && !image.faces.isEmpty))
            }
        }
        cached = out
        return out
    }

    private var pipeline: Pipeline!

    override func setUpWithError() throws {
        pipeline = try Pipeline(description: "fakesrc name=face-accuracy ! fakesink")
    }

    override func tearDown() { pipeline = nil }

    /// Answers two tests ask for on the same picture (the element's defaults, OpenCV's
    /// minNeighbors 5), computed once: detection is most of this class's time.
    nonisolated(unsafe) private static var defaultFaces: [String: [DetectedFace]] = [:]
    nonisolated(unsafe) private static var openCVAnswers: [String: [PixelRect]] = [:]

    /// The faces the element draws on `picture` as a single frame, with its defaults
    /// except `properties` (a new detection: no earlier frame to confirm faces).
    private func elementFaces(_ picture: Picture, _ properties: [String: PropertyValue] = [:]) -> [DetectedFace] {
        guard properties.isEmpty else { return detectFaces(picture, properties) }
        if let known = Self.defaultFaces[picture.name] { return known }
        let found = detectFaces(picture, [:])
        Self.defaultFaces[picture.name] = found
        return found
    }

    private func detectFaces(_ picture: Picture, _ properties: [String: PropertyValue]) -> [DetectedFace] {
        let d = FaceDetection(element: pipeline.element(named: "face-accuracy")!)
        for (name, value) in ["detect-faces": .bool(true), "face-overlay": .bool(false)].merging(properties, uniquingKeysWith: { $1 }) {
            try! d.set(name, value)
        }
        d.start()
        defer { d.stop() }
        return d.process(picture.frame.view, method: .identity, live: false)
    }

    /// OpenCV's own answer on the full-size picture (minNeighbors 5 unless said).
    private func openCVFaces(_ picture: Picture, minNeighbors: Int = 5) throws -> [PixelRect] {
        if minNeighbors == 5, let known = Self.openCVAnswers[picture.name] { return known }
        let p = FaceDetector.Parameters(scaleFactor: 1.1, minNeighbors: minNeighbors, minSize: 0, maxSize: 0)
        let found = try FaceFixtures.detector.detect(GreyImage(frame: picture.frame.view, step: 1), p).map(\.rect)
        if minNeighbors == 5 { Self.openCVAnswers[picture.name] = found }
        return found
    }

    func testDefaultsFindAtLeastOpenCVsFacesWithAtMostHalfItsFalseAlarms() throws {
        var ours = FaceScore(), opencv = FaceScore()
        var oursUpright = FaceScore(), opencvUpright = FaceScore()   // every version whose faces stand upright
        var lines: [String] = []
        for picture in try Self.pictures() {
            let a = FaceScore(elementFaces(picture).map(\.rect), faces: picture.faces, ignore: picture.ignore)
            let b = FaceScore(try openCVFaces(picture), faces: picture.faces, ignore: picture.ignore)
            ours = ours + a
            opencv = opencv + b
            if !picture.turned && !["90r", "180", "90l"].contains(picture.variant) {
                oursUpright = oursUpright + a
                opencvUpright = opencvUpright + b
            }
            lines.append("\(picture.name.padding(toLength: 28, withPad: " ", startingAt: 0)) ours \(a)   opencv mn5 \(b)")
        }
        print((lines + ["total: ours \(ours)   opencv mn5 \(opencv)"]).joined(separator: "\n"))
        XCTAssertEqual(ours.hits + ours.misses, 110)
        XCTAssertGreaterThanOrEqual(ours.hits, opencv.hits, "recall below OpenCV minNeighbors 5")
        XCTAssertLessThanOrEqual(ours.falseAlarms * 2, opencv.falseAlarms, "more than half OpenCV minNeighbors 5's false alarms")
        // Where OpenCV's upright-only search can find them too (upright, mirrored, small, dark,
        // bright), not one face fewer: the finer look at weak candidates (FaceSearch).
        XCTAssertGreaterThanOrEqual(oursUpright.hits, opencvUpright.hits, "upright versions: recall below OpenCV minNeighbors 5")
        // The orientation search must be what finds the turned faces OpenCV cannot.
        XCTAssertGreaterThan(ours.hits, opencv.hits)
    }

    /// Without the second cascade's look, the same upright pictures draw more false boxes
    /// (the look is what takes them away) and no more faces than with it, plus two.
    func testSecondCascadeTakesFalseAlarmsAwayNotFaces() throws {
        var ours = FaceScore(), unconfirmed = FaceScore()
        for picture in try Self.pictures() where picture.variant == "upright" {
            ours = ours + FaceScore(elementFaces(picture).map(\.rect), faces: picture.faces, ignore: picture.ignore)
            unconfirmed = unconfirmed + FaceScore(elementFaces(picture, ["face-confirm-cascade": .string("")]).map(\.rect),
                                                  faces: picture.faces, ignore: picture.ignore)
        }
        print("upright: ours \(ours)   one cascade \(unconfirmed)")
        XCTAssertLessThan(ours.falseAlarms, unconfirmed.falseAlarms)
        XCTAssertGreaterThanOrEqual(ours.hits, unconfirmed.hits - 2)
    }

    /// Every face turned in the picture is found in `all` mode, with the roll the turn
    /// gave it; in `upright` mode no more than the upright-only cascade itself finds
    /// (OpenCV, minNeighbors 5: one LFW tile upside down, nothing else), and fewer.
    func testTurnedFacesFoundInAllModeOnlyWithTheirRoll() throws {
        let allIndex = FaceOrientations.allCases.firstIndex(of: .all)!, uprightIndex = FaceOrientations.allCases.firstIndex(of: .upright)!
        let local = Set(FaceFixtures.local.map(\.file))
        let turned = try Self.pictures().filter { $0.turned && local.contains(String($0.name.split(separator: " ")[0])) }
        XCTAssertEqual(turned.count, 9)   // astronaut, lfw mosaic, obama2 × 90r, 180, 90l
        for picture in turned {
            let found = elementFaces(picture, ["face-orientations": .int(allIndex)])
            let roll = picture.name.hasSuffix("90r") ? 90 : picture.name.hasSuffix("90l") ? 270 : 180
            let hits = found.filter { f in picture.faces.contains { DetectedFace.iou(f.rect, $0) >= 0.4 } }
            // LFW tile 4 is not confirmed on one frame, as OpenCV's minNeighbors 5 misses it upright.
            XCTAssertGreaterThanOrEqual(hits.count, picture.faces.count == 8 ? 7 : picture.faces.count, "\(picture.name): \(found)")
            XCTAssertEqual(Set(hits.map(\.angle)), [roll], picture.name)
            let upright = FaceScore(elementFaces(picture, ["face-orientations": .int(uprightIndex)]).map(\.rect), faces: picture.faces)
            let opencv = FaceScore(try openCVFaces(picture), faces: picture.faces)
            XCTAssertLessThanOrEqual(upright.hits, opencv.hits, picture.name)
            XCTAssertLessThan(upright.hits, hits.count, picture.name)
        }
    }
}
