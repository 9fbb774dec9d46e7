/// Detections scored against true faces as `shared/fixtures/faces/score.py` does: greedy
/// matching at IoU ≥ 0.4, largest detection first. A detection is a hit when it matches a
/// face not matched yet; one overlapping an already matched face (a duplicate) or touching
/// an ignore region is neither hit nor false alarm; any other is a false alarm.
public struct FaceScore: Equatable, Sendable, CustomStringConvertible {
    public var hits = 0
    public var falseAlarms = 0
    public var misses = 0

    public init(hits: Int = 0, falseAlarms: Int = 0, misses: Int = 0) {
        self.hits = hits
        self.falseAlarms = falseAlarms
        self.misses = misses
    }

    public var description: String { "tp=\(hits) fp=\(falseAlarms) fn=\(misses)" }

    public static func + (a: FaceScore, b: FaceScore) -> FaceScore {
        FaceScore(hits: a.hits + b.hits, falseAlarms: a.falseAlarms + b.falseAlarms, misses: a.misses + b.misses)
    }

    public init(_ detections: [PixelRect], faces: [PixelRect], ignore: [PixelRect] = [], threshold: Double = 0.4) {
        var used = [Bool](repeating: false, count: faces.count)
        var hits = 0, falseAlarms = 0
        // Python's sort is stable: equal areas keep the detections' order.
        let ordered = detections.enumerated().sorted { ($0.element.width * $0.element.height, -$0.offset) > ($1.element.width * $1.element.height, -$1.offset) }
        for d in ordered.map(\.element) {
            // max() in score.py keeps the first of equal scores; used faces score -1.
            var best: Int?
            var bestScore = -Double.infinity
            for i in faces.indices {
                let s = used[i] ? -1 : DetectedFace.iou(d, faces[i])
                if s > bestScore { best = i; bestScore = s }
            }
            if let best, !used[best], DetectedFace.iou(d, faces[best]) >= threshold {
                used[best] = true
                hits += 1
            } else if faces.contains(where: { DetectedFace.iou(d, $0) >= threshold })
                        || ignore.contains(where: { DetectedFace.iou(d, $0) > 0 }) {
                continue
            } else {
                falseAlarms += 1
            }
        }
        self.init(hits: hits, falseAlarms: falseAlarms, misses: used.filter { !$0 }.count)
    }
}
