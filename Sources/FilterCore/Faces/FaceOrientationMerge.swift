/// One picture's detections from several rolls merged into one list of candidates.
///
/// Each extra roll searched brings its own face-like patterns (a turned picture shows
/// the cascade shapes it never sees upright). Measured on the six face fixtures and their
/// turned, mirrored, small, dark and bright versions (OpenCV 4.6, scaleFactor 1.2,
/// minNeighbors 3, the element's defaults): true faces in their roll had 11–45 candidate
/// windows, the false boxes of the other rolls 4–6, beside a surer face or alone. So:
/// - a roll is kept only when its surest box has at least a third of the candidates of
///   the picture's surest box (faces in one picture mostly share its "up": on the
///   astronaut turned 180° the face had 23 in its roll, a false box 4 in the upright one);
/// - a roll other than the expected one (the first searched: upright, or the device's)
///   also needs a box with more than `otherRollMinimum` candidates;
/// - boxes that cover the same face (overlap ≥ 60 % of the smaller) are one face: within
///   a roll the larger stays (OpenCV's smaller duplicate inside a face, which can have
///   more candidates: LFW tile 4's 61 px box inside its 91 px face), across rolls the
///   surer one, with its roll (a face is often also found upside down, less surely),
///   but a box the second cascade confirmed (`DetectedFace.verified`) before one it did not.
public struct FaceOrientationMerge: Sendable {
    /// A roll other than the expected one needs a box with more candidates than this.
    public var otherRollMinimum: Int

    public static let defaultOtherRollMinimum = 10

    public init(otherRollMinimum: Int = Self.defaultOtherRollMinimum) {
        self.otherRollMinimum = otherRollMinimum
    }

    /// The candidates kept, sorted by (y, x). `expectedRoll`: the roll searched first.
    public func merge(_ found: [DetectedFace], expectedRoll: Int) -> [DetectedFace] {
        let surest = found.map(\.neighbors).max() ?? 0
        var surestByRoll: [Int: Int] = [:]
        for f in found { surestByRoll[f.angle] = max(surestByRoll[f.angle] ?? 0, f.neighbors) }
        let rolls = Set(surestByRoll.compactMap { roll, best in
            best * 3 >= surest && (roll == expectedRoll || best > otherRollMinimum) ? roll : nil
        })
        let withinRolls = rolls.flatMap { roll in
            Self.dropDuplicates(found.filter { $0.angle == roll }.sorted { Self.area($0) > Self.area($1) })
        }
        return Self.dropDuplicates(withinRolls.sorted { (rank($0.verified), $0.neighbors, Self.area($0)) > (rank($1.verified), $1.neighbors, Self.area($1)) })
            .sorted { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }
    }

    /// Keeps faces in the order given, dropping one that is the same face as a kept one.
    static func dropDuplicates(_ ordered: [DetectedFace]) -> [DetectedFace] {
        var kept: [DetectedFace] = []
        for c in ordered where !kept.contains(where: { sameFace($0.rect, c.rect) }) {
            kept.append(c)
        }
        return kept
    }

    private static func area(_ f: DetectedFace) -> Int { f.rect.width * f.rect.height }

    private func rank(_ verified: Bool) -> Int { verified ? 1 : 0 }

    /// Overlap covering ≥ 60 % of the smaller box: the same face (a turn's twin, or
    /// OpenCV's smaller duplicate inside a face).
    public static func sameFace(_ a: PixelRect, _ b: PixelRect) -> Bool {
        DetectedFace.intersection(a, b) * 10 >= min(a.width * a.height, b.width * b.height) * 6
    }
}
