import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import Foundation
import XCTest

/// The face fixture images and their boxes, for the face tests.
///
/// Images: `Fixtures/faces/` next to this file (copies of shared/fixtures/faces), plus
/// grace_hopper.png from `../shared/fixtures/faces` when the shared folder is there.
/// Boxes are [x, y, w, h], top-left origin, copied from
/// - `shared/fixtures/faces/ground_truth.json` (true faces, checked by eye; `ignore` regions),
/// - `shared/fixtures/faces/refs/cv2_debian_4.6.0_mn3.json` (OpenCV 4.6.0 CascadeClassifier,
///   haarcascade_frontalface_default.xml, scaleFactor 1.1, minNeighbors 3, BGR2GRAY, default min size).
enum FaceFixtures {
    struct Image {
        let file: String
        let faces: [PixelRect]
        let ignore: [PixelRect]
        /// OpenCV's raw answer (refs/cv2_debian_4.6.0_mn3.json), sorted by (x, y).
        let opencv: [PixelRect]
    }

    static func r(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    static let astronaut = Image(file: "astronaut.png", faces: [r(177, 66, 95, 95)], ignore: [],
                                 opencv: [r(177, 66, 95, 95)])
    static let graceHopper = Image(file: "grace_hopper.png", faces: [r(155, 105, 222, 222)], ignore: [],
                                   opencv: [r(155, 105, 222, 222)])
    static let lfwMosaic = Image(file: "lfw_mosaic_a.png",
        faces: [r(24, 18, 92, 92), r(151, 20, 90, 90), r(289, 16, 94, 94), r(437, 19, 97, 97),
                r(12, 161, 91, 91), r(157, 161, 87, 87), r(294, 164, 91, 91), r(438, 166, 91, 91)],
        ignore: [],
        opencv: [r(12, 161, 91, 91), r(15, 173, 61, 61), r(24, 18, 92, 92), r(151, 20, 90, 90), r(157, 161, 87, 87),
                 r(289, 16, 94, 94), r(294, 164, 91, 91), r(437, 19, 97, 97), r(438, 166, 91, 91)])
    static let obama2 = Image(file: "obama2.png", faces: [r(96, 164, 218, 218)], ignore: [r(370, 220, 47, 200)],
                              opencv: [r(96, 164, 218, 218)])
    /// Faces 48–55 of the same LFW subset, laid out as `lfw_mosaic_a` (boxes: the tiles,
    /// checked by eye; `opencv` not recorded).
    static let lfwMosaicB = Image(file: "lfw_mosaic_b.png",
        faces: [r(16, 20, 92, 92), r(156, 20, 92, 92), r(296, 20, 92, 92), r(436, 20, 92, 92),
                r(16, 160, 92, 92), r(156, 160, 92, 92), r(296, 160, 92, 92), r(436, 160, 92, 92)],
        ignore: [], opencv: [])
    /// Faces 96–99 of the same LFW subset in one row, laid out as `lfw_mosaic_a`: mirrored,
    /// the right-hand face leaves only lone windows at step 1.2 (docs/faces.md, the seed groups).
    static let lfwMosaicC = Image(file: "lfw_mosaic_c.png",
        faces: [r(16, 20, 92, 92), r(156, 20, 92, 92), r(296, 20, 92, 92), r(436, 20, 92, 92)], ignore: [], opencv: [])
    /// opencv-doc's basketball1.png: one small face; the other player's head, in profile, ignored.
    static let basketball = Image(file: "basketball1.png", faces: [r(72, 93, 38, 38)], ignore: [r(500, 20, 110, 110)], opencv: [])
    /// scikit-image's coins.png: no face, but profiles on the coins that OpenCV's cascade takes for faces.
    static let coins = Image(file: "coins.png", faces: [], ignore: [], opencv: [])
    static let coffee = Image(file: "nonface_coffee.png", faces: [], ignore: [], opencv: [])
    static let home = Image(file: "nonface_home.png", faces: [], ignore: [], opencv: [])

    /// LFW tile 4: OpenCV finds it at minNeighbors 3 only (4–5 candidate windows).
    static let lfwWeakTile = r(12, 161, 91, 91)

    static let local: [Image] = [astronaut, lfwMosaic, obama2, coffee, home]
    /// `local` and pictures from other Debian packages (Fixtures/faces/README.md).
    static let accuracySet: [Image] = local + [lfwMosaicB, lfwMosaicC, basketball, coins]
    static let withFaces: [Image] = [astronaut, lfwMosaic, obama2]
    static let withoutFaces: [Image] = [coffee, home]

    static let localFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/faces").path
    /// `<repo>/../shared/fixtures/faces` (this file is `<repo>/Tests/FilterCamHostTests/…`).
    static let sharedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/faces").path

    static func path(_ image: Image) -> String? {
        for folder in [localFolder, sharedFolder] {
            let p = folder + "/" + image.file
            if FileManager.default.fileExists(atPath: p) { return p }
        }
        return nil
    }

    private static let cache = Locked<[String: PixelBuffer]>([:])

    /// The image as RGBA pixels (decoded by GStreamer's pngdec).
    static func load(_ image: Image, file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        guard let p = path(image) else { throw XCTSkip("fixture \(image.file) not found") }
        if let hit = cache.withLock({ $0[p] }) { return hit }
        let frame = try FrameIO.captureFrame("filesrc location=\"\(p)\" ! pngdec ! videoconvert", format: .rgba)
        cache.withLock { $0[p] = frame }
        return frame
    }

    static func copy(_ b: PixelBuffer) -> PixelBuffer {
        let c = PixelBuffer(width: b.width, height: b.height, format: b.format)
        c.view.copyPixels(from: b.view)
        return c
    }

    /// `b` with each pixel repeated `n`×`n` times.
    static func upscaled(_ b: PixelBuffer, by n: Int) -> PixelBuffer {
        let out = PixelBuffer(width: b.width * n, height: b.height * n, format: b.format)
        let src = b.view, dst = out.view
        for y in 0..<out.height {
            let s = src.row(y / n), d = dst.row(y)
            for x in 0..<out.width { d[x] = s[x / n] }
        }
        return out
    }

    static func iou(_ a: PixelRect, _ b: PixelRect) -> Double { DetectedFace.iou(a, b) }

    /// Asserts every true face is matched by a detection with IoU ≥ `threshold`, and
    /// (with `onlyFaces`) every detection is a face (IoU ≥ 0.4 with one, as score.py counts duplicates) or
    /// touches an ignore region.
    static func assertMatches(_ found: [PixelRect], faces: [PixelRect], ignore: [PixelRect] = [], threshold: Double = 0.5,
                              onlyFaces: Bool = true, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for f in faces {
            let best = found.map { iou($0, f) }.max() ?? 0
            XCTAssertGreaterThanOrEqual(best, threshold, "\(what): face \(f) not found (best IoU \(best)) in \(found)",
                                        file: file, line: line)
        }
        for d in found where onlyFaces && !faces.contains(where: { iou(d, $0) >= 0.4 }) && !ignore.contains(where: { iou(d, $0) > 0 }) {
            XCTFail("\(what): box \(d) is not on a face", file: file, line: line)
        }
    }

    /// The faces the element draws from one picture's candidates (a single analysed frame:
    /// only those surer than the default `face-confirm-neighbors`).
    static func drawn(_ candidates: [DetectedFace]) -> [DetectedFace] {
        var tracker = FaceTracker(confirmNeighbors: FaceSettings.defaultConfirmNeighbors)
        return tracker.update(candidates)
    }

    static let detector: FaceDetector = try! FaceDetector(cascadePath: FaceDetector.defaultCascadePath)

    /// The image's grey copy as the element would make it.
    static func grey(_ b: PixelBuffer, detectionWidth: Int = 0) -> GreyImage {
        GreyImage(frame: b.view, step: GreyImage.step(frameWidth: b.width, frameHeight: b.height, detectionWidth: detectionWidth))
    }

    /// `rect` of a picture after `method` turned that picture (of `width`×`height`), written
    /// out per turn (not with the geometry under test): 90r takes the left edge to the top,
    /// 90l the top edge to the left, the diagonals swap x and y (ul-lr) or reflect across
    /// the other diagonal (ur-ll), as videoflip's methods do.
    static func transformed(_ rect: PixelRect, _ method: OrientationMethod, width: Int, height: Int) -> PixelRect {
        let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height)
        switch method {
        case .identity: return rect
        case .rotate90R: return PixelRect(x: height - y - h, y: x, width: h, height: w)
        case .rotate180: return PixelRect(x: width - x - w, y: height - y - h, width: w, height: h)
        case .rotate90L: return PixelRect(x: y, y: width - x - w, width: h, height: w)
        case .horizontal: return PixelRect(x: width - x - w, y: y, width: w, height: h)
        case .vertical: return PixelRect(x: x, y: height - y - h, width: w, height: h)
        case .upperLeftDiagonal: return PixelRect(x: y, y: x, width: h, height: w)
        case .upperRightDiagonal: return PixelRect(x: height - y - h, y: width - x - w, width: h, height: w)
        }
    }

    static func oriented(_ b: PixelBuffer, _ method: OrientationMethod) -> PixelBuffer {
        let (w, h) = method.outputSize(width: b.width, height: b.height)
        let out = PixelBuffer(width: w, height: h, format: b.format)
        Orientation.transform(method, from: b.view, to: out.view)
        return out
    }
}
