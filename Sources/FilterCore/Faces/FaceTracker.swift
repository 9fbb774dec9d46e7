/// Which candidates become face squares, and where the squares sit from one analysed
/// frame to the next.
///
/// Confirmation (fewer false alarms): a candidate is sure when it has more candidate
/// windows than `confirmNeighbors` (the same rule as detectMultiScale's minNeighbors at
/// that stricter setting: a single picture gets exactly that) and the second cascade did
/// not reject it (`DetectedFace.verified`). A face is drawn once it has
/// been sure on `confirmFrames` consecutive analysed frames that searched its roll: 1 for
/// non-live sources (every frame is analysed; a single picture has only one), 2 for live
/// ones (a pattern the camera's noise makes look like a face for one frame is not drawn).
///
/// Following (no flicker): a candidate that overlaps a track (IoU ≥ 0.3) continues it;
/// the square moves halfway towards the new box while the two still overlap well
/// (IoU ≥ 0.5), and jumps when the face moved more. A drawn face keeps its square while
/// weaker candidates still find it, and for one analysed frame where nothing does; but
/// not for more than `staleFrames` analyses since it was last sure: weak candidates
/// alone (a cheek, an eye, the cascade's 3–4 windows on a pattern) never hold a square
/// for long.
public struct FaceTracker: Sendable {
    struct Track: Sendable {
        var x, y, width, height: Double
        var angle: Int
        var neighbors: Int
        var confirmed: Bool
        /// Consecutive analyses with a sure candidate.
        var sure: Int
        var missed = 0
        /// Analyses since the last sure candidate (0: this one was sure).
        var sinceSure = 0

        var rect: PixelRect {
            PixelRect(x: Int(x.rounded()), y: Int(y.rounded()), width: max(1, Int(width.rounded())),
                      height: max(1, Int(height.rounded())))
        }
    }

    /// A candidate with more candidate windows than this is sure.
    public var confirmNeighbors: Int
    /// Consecutive analyses a face must be sure on before it is drawn.
    public var confirmFrames: Int
    /// Analysed frames a confirmed face may be missed on before its square goes.
    public var holdFrames = 1
    /// Analysed frames a confirmed face may go without a sure candidate before its
    /// square goes (weak candidates still follow it meanwhile). 5 analyses: under 0.5 s
    /// live (11–15 detection updates a second), a sixth of a second on a 30 fps file.
    public var staleFrames = 5
    /// How far a square moves towards a new box of the same face (1: all the way).
    public var smoothing = 0.5

    private var tracks: [Track] = []
    /// The picture the tracks' boxes are in (see `update(_:in:)`).
    private var geometry: FaceGeometry?

    public init(confirmNeighbors: Int, confirmFrames: Int = 1) {
        self.confirmNeighbors = confirmNeighbors
        self.confirmFrames = confirmFrames
    }

    /// Takes one analysed frame's candidates; returns the faces to draw, sorted by (y, x).
    /// `searched`: the rolls this frame searched (nil: all); a face of another roll was
    /// not looked for, so it is kept as it is rather than counted as missed.
    public mutating func update(_ candidates: [DetectedFace], searched: Set<Int>? = nil) -> [DetectedFace] {
        var unmatched = Array(tracks.indices)
        var next: [Track] = []
        for c in candidates.sorted(by: { $0.neighbors > $1.neighbors }) {
            let best = unmatched.max { DetectedFace.iou(tracks[$0].rect, c.rect) < DetectedFace.iou(tracks[$1].rect, c.rect) }
            if let best, DetectedFace.iou(tracks[best].rect, c.rect) >= 0.3 {
                unmatched.removeAll { $0 == best }
                let t = follow(tracks[best], to: c)
                if (t.confirmed && t.sinceSure <= staleFrames) || t.sure > 0 { next.append(t) }
            } else if isSure(c) {
                next.append(Track(x: Double(c.rect.x), y: Double(c.rect.y), width: Double(c.rect.width),
                                  height: Double(c.rect.height), angle: c.angle, neighbors: c.neighbors,
                                  confirmed: confirmFrames <= 1, sure: 1))
            }
        }
        for i in unmatched {
            if let searched, !searched.contains(tracks[i].angle) {
                next.append(tracks[i])
            } else if tracks[i].confirmed && tracks[i].missed < holdFrames && tracks[i].sinceSure < staleFrames {
                var t = tracks[i]
                t.missed += 1
                t.sinceSure += 1
                next.append(t)
            }
        }
        tracks = next
        return faces
    }

    /// The faces drawn now.
    public var faces: [DetectedFace] {
        tracks.filter(\.confirmed).map { DetectedFace(rect: $0.rect, angle: $0.angle, neighbors: $0.neighbors) }
            .sorted { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }
    }

    /// The rolls of the faces drawn or on their way to being drawn (for `FaceRollSchedule`).
    public var trackedRolls: [Int] { tracks.map(\.angle) }

    /// Moves every track into another picture (the output's size or orientation changed):
    /// its box mapped and its roll turned with the picture; a track with nothing left there
    /// is dropped.
    public mutating func remap(from old: FaceGeometry, to new: FaceGeometry) {
        tracks = tracks.compactMap { t in
            guard let f = old.map(DetectedFace(rect: t.rect, angle: t.angle), to: new) else { return nil }
            var t = t
            (t.x, t.y, t.width, t.height) = (Double(f.rect.x), Double(f.rect.y), Double(f.rect.width), Double(f.rect.height))
            t.angle = f.angle
            return t
        }
    }

    /// `update` for candidates found in the picture `geometry`: tracks from another picture
    /// (the device turned, the zoom changed) are first moved into it.
    public mutating func update(_ candidates: [DetectedFace], in geometry: FaceGeometry, searched: Set<Int>? = nil) -> [DetectedFace] {
        if let old = self.geometry, old != geometry { remap(from: old, to: geometry) }
        self.geometry = geometry
        return update(candidates, searched: searched)
    }

    public mutating func reset() {
        tracks = []
        geometry = nil
    }

    private func follow(_ t: Track, to c: DetectedFace) -> Track {
        var t = t
        let a = DetectedFace.iou(t.rect, c.rect) >= 0.5 ? smoothing : 1
        t.x += (Double(c.rect.x) - t.x) * a
        t.y += (Double(c.rect.y) - t.y) * a
        t.width += (Double(c.rect.width) - t.width) * a
        t.height += (Double(c.rect.height) - t.height) * a
        t.angle = c.angle
        t.neighbors = c.neighbors
        t.sure = isSure(c) ? t.sure + 1 : 0
        t.sinceSure = t.sure > 0 ? 0 : t.sinceSure + 1
        t.confirmed = t.confirmed || t.sure >= confirmFrames
        t.missed = 0
        return t
    }

    private func isSure(_ c: DetectedFace) -> Bool { c.neighbors > confirmNeighbors && c.verified }
}
