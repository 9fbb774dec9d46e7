import FilterCore

/// One frame's face search: the detector's tuning and which turns of the picture to try,
/// and the mapping of what it finds back to output-frame pixels.
///
/// The output frame is what the viewer sees (orientation already applied), so faces
/// upright in it are found by a plain search. With `orientations` on:
/// - the grey copy is also searched turned 90° clockwise, 90° counter-clockwise and 180°,
///   for faces rotated in the picture itself (the device turned while the orientation is
///   fixed). Faces in one picture share its "up", so the turn with the surest face
///   (most merged candidates, OpenCV's `numDetections`) wins and only its boxes are kept;
///   upright wins ties. This keeps out the face-like patterns a turned picture shows: on
///   the astronaut fixture the wrong turns gave boxes with 5–6 candidates, the face 40;
/// - the upright copy is also searched mirrored and the two answers are joined. OpenCV's
///   frontal cascade finds mirrored faces anyway (tested); the mirror pass is for
///   one-sided cascades such as haarcascade_profileface.xml, which finds faces looking
///   one way only.
/// Boxes found in a turned copy are mapped back through the turn with
/// `OrientationMethod.sourceRect`, so they land on the face in the output frame. The
/// search costs about five plain ones (still only ~1/4 of that work per turn at 640 wide).
struct FaceSearch: Equatable, Sendable {
    /// Tuning in output-frame pixels (sizes are divided by the grey copy's step).
    var parameters = FaceDetector.Parameters(minSize: FaceSettings.defaultMinSize)
    var orientations = false

    /// The turns tried with `orientations` on, after the upright search.
    static let turns: [OrientationMethod] = [.rotate90R, .rotate90L, .rotate180]

    /// Faces in `grey` (a copy of a `frameWidth`×`frameHeight` frame), in frame pixels.
    func run(_ detector: FaceDetector, on grey: GreyImage, frameWidth: Int, frameHeight: Int) throws -> [PixelRect] {
        var p = parameters
        p.minSize = parameters.minSize / grey.step
        p.maxSize = parameters.maxSize > 0 ? max(1, (parameters.maxSize + grey.step - 1) / grey.step) : 0
        var best = Self.largestFirst(try detector.detect(grey, p))
        if orientations {
            best += Self.largestFirst(try Self.detect(detector, grey, turned: .horizontal, p))
            var bestScore = Self.evidence(best)
            for turn in Self.turns {
                let found = try Self.detect(detector, grey, turned: turn, p)
                let score = Self.evidence(found)
                if score > bestScore {
                    bestScore = score
                    best = Self.largestFirst(found)
                }
            }
        }
        return Self.merged(best.map(\.rect)).map { Self.scale($0, by: grey.step, frameWidth: frameWidth, frameHeight: frameHeight) }
    }

    /// Detections in `grey` turned by `turn`, mapped back to `grey`'s pixels.
    private static func detect(_ detector: FaceDetector, _ grey: GreyImage, turned turn: OrientationMethod,
                               _ p: FaceDetector.Parameters) throws -> [FaceDetector.Detection] {
        try detector.detect(grey.oriented(turn), p).map { d in
            var d = d
            d.rect = turn.sourceRect(forOutputRect: d.rect, inputWidth: grey.width, inputHeight: grey.height)
            return d
        }
    }

    /// The surest face's candidate count (0 without faces).
    static func evidence(_ found: [FaceDetector.Detection]) -> Int {
        found.map(\.neighbors).max() ?? 0
    }

    private static func largestFirst(_ found: [FaceDetector.Detection]) -> [FaceDetector.Detection] {
        found.sorted { $0.rect.width * $0.rect.height > $1.rect.width * $1.rect.height }
    }

    /// Keeps boxes in the order given, dropping one whose overlap with a kept box covers
    /// ≥ 60 % of the smaller of the two: the same face from the mirror pass, or OpenCV's
    /// smaller duplicate inside a face. The result is sorted by (y, x).
    static func merged(_ boxes: [PixelRect]) -> [PixelRect] {
        var kept: [PixelRect] = []
        for b in boxes {
            let duplicate = kept.contains { k in
                intersection(k, b) * 10 >= min(k.width * k.height, b.width * b.height) * 6
            }
            if !duplicate { kept.append(b) }
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
