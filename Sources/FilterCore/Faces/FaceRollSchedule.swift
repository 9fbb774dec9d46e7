/// Which of the requested rolls one analysed frame of a video searches.
///
/// Each roll costs one full detection, so searching all four on every frame costs four
/// times the upright search. Faces in a video keep their roll from frame to frame (a
/// turned camera stays turned), so after a first analysis of every roll, each frame
/// searches the expected roll (the first requested) and the rolls of the faces drawn or
/// being confirmed, and every `period`-th frame one more of the other rolls, in turn. A face appearing in
/// another roll is found within `period` × (other rolls) analysed frames (9 with all four
/// rolls: 0.3 s at 30 analyses per second); `FaceTracker` keeps the faces of a roll not
/// searched on a frame. A single picture is one first frame: every roll is searched.
public struct FaceRollSchedule: Sendable {
    public var period: Int
    private var analysed = 0
    private var nextOther = 0
    private var requested: [Int] = []

    public static let defaultPeriod = 3

    public init(period: Int = Self.defaultPeriod) {
        self.period = max(1, period)
    }

    /// The rolls to search on the next analysed frame, the expected one first.
    /// `drawn`: the rolls of the faces drawn or being confirmed now (`FaceTracker.trackedRolls`).
    public mutating func rolls(requested: [Int], drawn: [Int]) -> [Int] {
        if requested != self.requested { reset(requested) }
        defer { analysed += 1 }
        guard requested.count > 1, analysed > 0 else { return requested }
        var out = [requested[0]]
        for roll in requested where roll != requested[0] && drawn.contains(roll) { out.append(roll) }
        let others = requested.filter { !out.contains($0) }
        if analysed % period == 0, !others.isEmpty {
            out.append(others[nextOther % others.count])
            nextOther += 1
        }
        return out
    }

    /// Starts again (detection switched on, another mode): the next frame searches every roll.
    public mutating func reset(_ requested: [Int] = []) {
        self.requested = requested
        analysed = 0
        nextOther = 0
    }
}
