/// Face roll bookkeeping: which way a face is turned in a picture after an orientation
/// method, and which turn of the picture brings a face of a given roll upright for the
/// (upright-only) cascade. Rolls are degrees clockwise, 0, 90, 180 or 270.
public enum FaceRoll {
    public static let all = [0, 90, 180, 270]

    /// The roll an upright face gets when its picture is transformed by `method`: where
    /// the picture's "up" points afterwards (a mirror keeps a face's up, so `horiz` is 0).
    public static func of(_ method: OrientationMethod) -> Int {
        let m = method.matrix
        // output = M · input with y down; "up" is (0, -1) and lands on (-b, -d).
        switch (-m.b, -m.d) {
        case (0, -1): return 0
        case (1, 0): return 90
        case (0, 1): return 180
        default: return 270
        }
    }

    /// The turn of the picture that makes a face of roll `roll` upright.
    public static func uprighting(_ roll: Int) -> OrientationMethod {
        switch normalized(roll) {
        case 90: .rotate90L
        case 180: .rotate180
        case 270: .rotate90R
        default: .identity
        }
    }

    public static func normalized(_ roll: Int) -> Int { ((roll % 360) + 360) % 360 }

    /// The roll a face of roll `roll` in a picture made by `from` has in the picture made
    /// from the same input by `to` (the device turned between two detections). A mirror
    /// keeps a face's up but turns its roll the other way (head right becomes head left).
    public static func carried(_ roll: Int, from: OrientationMethod, to: OrientationMethod) -> Int {
        func mirrors(_ m: OrientationMethod) -> Bool { let x = m.matrix; return x.a * x.d - x.b * x.c < 0 }
        let relative = roll - of(from)
        let inInput = mirrors(from) ? -relative : relative
        return normalized(of(to) + (mirrors(to) ? -inInput : inInput))
    }
}
