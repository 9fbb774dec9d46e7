import FilterCore

/// One frame's face search: the detector's tuning, the rolls of face to look for, and the
/// mapping of what it finds back to output-frame pixels.
///
/// The cascade finds upright faces only. Each roll in `rolls` is one detection on the grey
/// copy turned so that a face of that roll stands upright (`FaceRoll.uprighting`); the
/// boxes go back through the turn (`OrientationMethod.sourceRect`) onto the face in the
/// output frame, labelled with the roll. `FaceOrientationMerge` then joins the rolls'
/// answers into one list of candidates (which ones are drawn is `FaceTracker`'s call).
/// Each roll costs one plain search; mirrored faces need none (the frontal cascade finds
/// them anyway, tested). Candidates sure enough to be drawn (more candidate windows than
/// `verifyAbove`) get a second look with the confirming cascade, in their roll's
/// turned copy (`FaceVerification`); those it does not confirm are marked unverified, and
/// lose to a verified twin in another roll when the rolls are merged (an upright face is
/// often also found upside down, where the second cascade does not see it).
struct FaceSearch: Equatable, Sendable {
    /// Tuning in output-frame pixels (sizes are divided by the grey copy's step).
    var parameters = FaceDetector.Parameters(scaleFactor: FaceSettings.defaultScaleFactor, minSize: FaceSettings.defaultMinSize)
    /// Rolls searched (degrees clockwise), the expected one first.
    var rolls = [0]
    var otherRollMinimum = FaceOrientationMerge.defaultOtherRollMinimum
    var verification = FaceVerification()
    /// How a weak candidate (no more windows than `verifyAbove`) is looked at again at a
    /// finer step (nil: never); the search then also keeps, only as seeds for that look,
    /// boxes with one window fewer than `minNeighbors` and groups of the looser seed
    /// grouping (`seedGroupEps`).
    var refinement: FaceVerification? = .refinement
    /// Candidates with more candidate windows than this get the second look (the drawing
    /// threshold, `face-confirm-neighbors`: weaker ones are never drawn anyway).
    var verifyAbove = FaceSettings.defaultConfirmNeighbors

    /// Candidates in `grey` (a copy of a `frameWidth`×`frameHeight` frame), in frame pixels;
    /// `confirmer`: the second cascade (nil: none, every candidate stays verified).
    func run(_ detector: FaceDetector, confirmer: FaceDetector? = nil, on grey: GreyImage, frameWidth: Int,
             frameHeight: Int) throws -> [DetectedFace] {
        var p = parameters
        p.minSize = parameters.minSize / grey.step
        p.maxSize = parameters.maxSize > 0 ? max(1, (parameters.maxSize + grey.step - 1) / grey.step) : 0
        let minNeighbors = p.minNeighbors
        if refinement != nil {
            p.minNeighbors = max(0, minNeighbors - 1)
            p.seedGroupEps = Self.seedGroupEps(scaleFactor: p.scaleFactor)
            p.seedMinNeighbors = p.minNeighbors
        }
        var found: [DetectedFace] = []
        for roll in rolls {
            let turn = FaceRoll.uprighting(roll)
            let image = grey.oriented(turn)
            let detections = try detector.detect(image, p)
            let groups = detections.filter { !$0.seed }
            // A seed group where OpenCV's own grouping already has a box adds nothing.
            let kept = detections.filter { d in !d.seed || !groups.contains { FaceOrientationMerge.sameFace($0.rect, d.rect) } }
            let weak = refinement == nil ? [] : kept.indices.filter { kept[$0].seed || kept[$0].neighbors <= verifyAbove }
            let verdicts = try refinement.map { try refined(weak.map { kept[$0].rect }, in: image, detector, $0, within: p) } ?? []
            let sureOf = Dictionary(uniqueKeysWithValues: zip(weak, verdicts))
            for (i, seed) in kept.enumerated() {
                var d = seed
                if let verdict = sureOf[i] {
                    if let sure = verdict {
                        d = FaceDetector.Detection(rect: sure.rect, neighbors: max(sure.neighbors, verifyAbove + 1))
                    } else if d.seed || d.neighbors <= minNeighbors {
                        continue   // only a seed
                    }
                }
                // The sizes asked for hold for every face given: OpenCV falls back to its
                // nearest scale when none lies between them (face-min-size above face-max-size).
                let side = max(d.rect.width, d.rect.height)
                if side < p.minSize || (p.maxSize > 0 && side > p.maxSize) { continue }
                let r = turn.sourceRect(forOutputRect: d.rect, inputWidth: grey.width, inputHeight: grey.height)
                var face = DetectedFace(rect: r, angle: roll, neighbors: d.neighbors)
                if let confirmer, d.neighbors > verifyAbove { face.verified = try confirms(d.rect, in: image, confirmer) }
                found.append(face)
            }
        }
        let merged = FaceOrientationMerge(otherRollMinimum: otherRollMinimum).merge(found, expectedRoll: rolls.first ?? 0)
        return merged.map { f in
            var f = f
            f.rect = Self.scale(f.rect, by: grey.step, frameWidth: frameWidth, frameHeight: frameHeight)
            return f
        }
    }

    /// Whether `confirmer` finds the face at `box` in `image` (the grey copy turned so that
    /// the face stands upright; `box` in its pixels).
    private func confirms(_ box: PixelRect, in image: GreyImage, _ confirmer: FaceDetector) throws -> Bool {
        guard let region = verification.region(around: box, width: image.width, height: image.height) else { return false }
        let sizes = verification.sizes(for: box)
        let p = FaceDetector.Parameters(scaleFactor: verification.scaleFactor, minNeighbors: verification.minNeighbors,
                                        minSize: sizes.smallest, maxSize: sizes.largest)
        return verification.confirms(box, found: try confirmer.detect(image, in: region, p).map(\.rect))
    }

    /// For each weak candidate in `boxes`, the surest box the finer look (`refinement`)
    /// finds that is the same face, if any (in `image`'s pixels). One search of the whole
    /// `image` at the sizes of all of them, each box then taking only its own sizes: a search
    /// of a crop round the box would lay its window grid from the crop's corner, and the
    /// count of a face's windows swings with that grid (0 to 8 for one face as the crop moves
    /// by a pixel), so the whole picture makes each verdict OpenCV's own at these settings.
    /// The sizes looked at stay within the search's own (`face-min-size`, `face-max-size`:
    /// the finer look found faces of 0.6–1.6× a candidate's size beyond them).
    private func refined(_ boxes: [PixelRect], in image: GreyImage, _ detector: FaceDetector,
                         _ look: FaceVerification, within bounds: FaceDetector.Parameters) throws -> [FaceDetector.Detection?] {
        let sizes = boxes.map { box in
            let size = look.sizes(for: box)
            return (smallest: max(size.smallest, bounds.minSize),
                    largest: bounds.maxSize > 0 ? min(size.largest, bounds.maxSize) : size.largest)
        }
        guard sizes.contains(where: { $0.smallest <= $0.largest }) else { return boxes.map { _ in nil } }
        let p = FaceDetector.Parameters(scaleFactor: look.scaleFactor, minNeighbors: look.minNeighbors,
                                        minSize: sizes.map(\.smallest).min()!, maxSize: sizes.map(\.largest).max()!)
        let found = try detector.detect(image, p)
        return zip(boxes, sizes).map { box, size in
            found.filter { f in
                let side = max(f.rect.width, f.rect.height)
                return side >= size.smallest && side <= size.largest && FaceOrientationMerge.sameFace(f.rect, box)
            }.max { $0.neighbors < $1.neighbors }
        }
    }

    /// The similarity that groups one face's windows at `scaleFactor` as OpenCV's own
    /// grouping (eps 0.2) does at its usual step 1.1: at 1.2 neighbouring scales' windows
    /// are twice as far apart in size and place, and a face between two scales leaves single
    /// windows that eps 0.2 never joins (a face OpenCV finds with 6 windows had 3 lone ones).
    /// 0 (no seed grouping) at steps of 1.1 or finer.
    static func seedGroupEps(scaleFactor: Double) -> Double {
        scaleFactor > 1.1 + 1e-9 ? 2 * (scaleFactor - 1) : 0
    }

    /// A grey-copy box in frame pixels, kept inside the frame.
    static func scale(_ r: PixelRect, by step: Int, frameWidth: Int, frameHeight: Int) -> PixelRect {
        let x = min(r.x * step, frameWidth - 1), y = min(r.y * step, frameHeight - 1)
        return PixelRect(x: x, y: y, width: max(1, min(r.width * step, frameWidth - x)),
                         height: max(1, min(r.height * step, frameHeight - y)))
    }
}
