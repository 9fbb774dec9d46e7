/// The orientation in a camera user's words, for what the rotate and mirror keys say:
/// "90° clockwise, mirrored" rather than "ur-ll" (the nick follows in brackets, for
/// those who write pipelines).
///
/// A mirrored method is a turn plus a left/right mirror, and which comes first changes
/// the turn's angle; each key tells it in the order its press makes true: the rotate key
/// turns what is shown, so it says the mirror first, then the turn; the mirror key
/// mirrors what is shown, so it says the turn first, then the mirror.
extension OrientationMethod {
    /// True for the four methods that mirror the picture (a reflection, not a turn).
    public var isMirrored: Bool {
        let m = matrix
        return m.a * m.d - m.b * m.c < 0
    }

    /// The turn a mirrored picture was given after its mirror (`horiz` then this turn is
    /// `self`); for an unmirrored method, itself.
    var turnAfterMirror: OrientationMethod { isMirrored ? OrientationMethod.horizontal.then(self) : self }

    /// The turn given before the mirror (this turn then `horiz` is `self`).
    var turnBeforeMirror: OrientationMethod { isMirrored ? then(.horizontal) : self }

    /// A turn in words: "90° clockwise", "180°"; nil for no turn (or a mirror).
    var turnWords: String? {
        switch self {
        case .rotate90R: "90° clockwise"
        case .rotate180: "180°"
        case .rotate90L: "90° counter-clockwise"
        default: nil
        }
    }

    /// What the rotate key says: "rotate: 90° clockwise (orientation 90r)",
    /// "rotate: 90° clockwise, of the mirrored picture (orientation ur-ll)",
    /// "rotate: none, mirrored (orientation horiz)". (The order is in the words: the same
    /// turn and mirror the other way round is another picture, said by the mirror key as
    /// "mirror: on, after a 90° clockwise turn (orientation ul-lr)".)
    public var afterRotateWords: String {
        guard let turn = turnAfterMirror.turnWords else { return "rotate: none\(isMirrored ? ", mirrored" : "") (orientation \(nick))" }
        return "rotate: \(turn)\(isMirrored ? ", of the mirrored picture" : "") (orientation \(nick))"
    }

    /// What the mirror key says: "mirror: on (orientation horiz)",
    /// "mirror: on, after a 90° clockwise turn (orientation ul-lr)",
    /// "mirror: off, turned 90° clockwise (orientation 90r)", "mirror: off (orientation identity)".
    public var afterMirrorWords: String {
        guard let turn = turnBeforeMirror.turnWords else { return "mirror: \(isMirrored ? "on" : "off") (orientation \(nick))" }
        return isMirrored ? "mirror: on, after a \(turn) turn (orientation \(nick))" : "mirror: off, turned \(turn) (orientation \(nick))"
    }
}
