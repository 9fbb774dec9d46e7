import FilterCore

/// One frame's face search: the detector's tuning and which turns of the picture to try,
/// and the mapping of what it finds back to output-frame pixels.
///
/// The output frame is what the viewer sees (orientation already applied), so faces
/// upright in it are found by a plain search. With `orientations` on, the grey copy is
/// also searched turned 90° clockwise, 90° counter-clockwise, 180° and mirrored, for faces
/// that are rotated in the picture itself (e.g. the device turned while the orientation
/// is fixed); each box found in a turned copy is mapped back through the turn with
/// `OrientationMethod.sourceRect`, so it lands on the face in the output frame.
/// On a 640-wide grey copy the four extra passes cost about four plain ones.
struct FaceSearch: Equatable, Sendable {
    /// Tuning in output-frame pixels (sizes are divided by the grey copy's step).
    var parameters = FaceDetector.Parameters()
    var orientations = false

    /// Extra turns tried with `orientations` on, after the upright search.
    static let turns: [OrientationMethod] = [.rotate90R, .rotate90L, .rotate180, .horizontal]

    /// Faces in `grey` (a copy of a `frameWidth`×`frameHeight` frame), in frame pixels.
    func run(_ detector: FaceDetector, on grey: GreyImage, frameWidth: Int, frameHeight: Int) throws -> [PixelRect] {
        var p = parameters
        p.minSize = parameters.minSize / grey.step
        p.maxSize = parameters.maxSize > 0 ? max(1, (parameters.maxSize + grey.step - 1) / grey.step) : 0
        var found = try detector.detect(grey, p)
        if orientations {
            for turn in Self.turns {
                let turned = grey.oriented(turn)
                for box in try detector.detect(turned, p) {
                    found.append(turn.sourceRect(forOutputRect: box, inputWidth: grey.width, inputHeight: grey.height))
                }
            }
        }
        return Self.merged(found).map { Self.scale($0, by: grey.step, frameWidth: frameWidth, frameHeight: frameHeight) }
    }

    /// Drops boxes that are mostly (≥ 60 %) inside a larger one: the same face found in
    /// two turns, or OpenCV's smaller duplicate inside a face. Larger boxes first.
    static func merged(_ boxes: [PixelRect]) -> [PixelRect] {
        var kept: [PixelRect] = []
        for b in boxes.sorted(by: { $0.width * $0.height > $1.width * $1.height }) {
            let area = b.width * b.height
            if !kept.contains(where: { intersection($0, b) * 10 >= area * 6 }) { kept.append(b) }
        }
        return kept.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    static func intersection(_ a: PixelRect, _ b: PixelRect) -> Int {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// A grey-copy box in frame pixels, kept inside the frame.
    static func scale(_ r: PixelRect, by step: Int, frameWidth: Int, frameHeight: Int) -> PixelRect {
        let x = min(r.x * step, frameWidth - 1), y = min(r.y * step, frameHeight - 1)
        return PixelRect(x: x, y: y, width: max(1, min(r.width * step, frameWidth - x)),
                         height: max(1, min(r.height * step, frameHeight - y)))
    }
}
