/// A second look at a sure candidate before it may become a face square: another cascade
/// (OpenCV's `haarcascade_frontalface_alt` by default), searched only in a small region
/// round the candidate and only at sizes near its own, must find a box that is the same
/// face (`FaceOrientationMerge.sameFace`).
///
/// Why: the default cascade's false boxes (a cheek or an eye of a turned face, a shirt's
/// pattern, a wall's corner) are its own habits; a cascade trained otherwise rarely
/// shares them, while a real face is found by both. The look costs one search of a
/// region about 1.5 times the candidate's size over a narrow range of sizes, for the few
/// candidates sure enough to be drawn: well under a millisecond per candidate at 640×360.
public struct FaceVerification: Equatable, Sendable {
    /// The region searched: the candidate grown by this fraction of its size on each side.
    public var margin = 0.25
    /// Sizes searched, as fractions of the candidate's size.
    public var smallest = 0.6
    public var largest = 1.6
    /// The second cascade's own tuning (detectMultiScale's scaleFactor and minNeighbors):
    /// OpenCV's usual fine steps; 2 windows, since the region is already a face's size
    /// (on the package face set, docs/faces.md: 1 window let through twice the false boxes).
    public var scaleFactor = 1.1
    public var minNeighbors = 2

    public init() {}

    /// The look that decides a weak candidate (`FaceSearch`): the default cascade itself
    /// searched again at OpenCV's usual step (1.1) and minNeighbors (5), at 0.6–1.6 times
    /// the candidate's size, over the whole picture (`margin` unused: see
    /// `FaceSearch.refined`). At the element's faster step (1.2) a face gathers about half
    /// the candidate windows; faces OpenCV finds at minNeighbors 5 with 6–12 windows had
    /// only 2–4 (package face set, docs/faces.md), too few to be drawn.
    public static let refinement: FaceVerification = {
        var r = FaceVerification()
        r.minNeighbors = 5
        return r
    }()

    /// The region of a `width`×`height` picture searched for `box`; nil when too little
    /// of it is left there to hold the smallest size searched.
    public func region(around box: PixelRect, width: Int, height: Int) -> PixelRect? {
        let m = Int((Double(max(box.width, box.height)) * margin).rounded())
        let grown = PixelRect(x: box.x - m, y: box.y - m, width: box.width + 2 * m, height: box.height + 2 * m)
        guard let r = FaceGeometry.clip(grown, width: width, height: height),
              min(r.width, r.height) >= sizes(for: box).smallest else { return nil }
        return r
    }

    /// The smallest and largest face sizes searched for `box`, in its pixels.
    public func sizes(for box: PixelRect) -> (smallest: Int, largest: Int) {
        let size = Double(max(box.width, box.height))
        return (Int((size * smallest).rounded(.down)), Int((size * largest).rounded(.up)))
    }

    /// Whether the second cascade's boxes `found` (in the picture's pixels) confirm `box`.
    public func confirms(_ box: PixelRect, found: [PixelRect]) -> Bool {
        found.contains { FaceOrientationMerge.sameFace($0, box) }
    }
}
