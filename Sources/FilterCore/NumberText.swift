#if canImport(Glibc)
import Glibc
#endif

/// Numbers the user wrote (filter parameters, lens, exposure bracket).
public enum NumberText {
    /// The number in `text`, or nil. Unlike `Double(_:)`, which reads the text as a C
    /// string and so takes "0.5\0junk" for 0.5, text with a NUL in it is not a number.
    public static func double(_ text: some StringProtocol) -> Double? {
        guard !text.utf8.contains(0) else { return nil }
        return Double(text)
    }

    /// A number as the user would write it: integers without ".0", others in the
    /// shortest decimals that read back to them. Arithmetic leaves noise in the last bits
    /// (a lens 0.4 wide made 0.8 times smaller is 0.32000000000000006 wide): a value
    /// within `noiseUlps` units in the last place of a 12-significant-digit number is
    /// shown as that number. Anything further away is a value someone wrote (1/3 to 16
    /// digits) and is shown in full, so copying the text back gives the same value.
    public static func text(_ v: Double) -> String {
        guard v.isFinite else { return String(v) }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let scale = pow(10, 11 - (log10(abs(v))).rounded(.down))
        guard scale.isFinite, scale > 0 else { return String(v) }
        let tidy = (v * scale).rounded() / scale
        guard abs(tidy - v) <= Double(noiseUlps) * v.ulp else { return String(v) }
        if tidy == tidy.rounded(), abs(tidy) < 1e15 { return String(Int(tidy)) }
        return String(tidy)
    }

    /// How far (in units in the last place) a shown number may be from the value: the
    /// noise a handful of multiplications and divisions leave.
    public static let noiseUlps = 8

    /// Whether `a` and `b` are the same number but for arithmetic noise (what `text`
    /// hides).
    public static func sameButForNoise(_ a: Double, _ b: Double) -> Bool {
        a == b || abs(a - b) <= Double(noiseUlps) * Swift.max(a.ulp, b.ulp)
    }
}
