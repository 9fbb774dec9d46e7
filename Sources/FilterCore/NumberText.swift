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

    /// A number as the user would write it: integers without ".0", others to 12
    /// significant digits with the shortest decimals that read back to that. Arithmetic
    /// leaves noise in the last bits (a lens 0.4 wide made 0.8 times smaller is
    /// 0.32000000000000006 wide): it is not shown, and reading the text back changes the
    /// value by less than a millionth of a millionth of itself.
    public static func text(_ v: Double) -> String {
        guard v.isFinite else { return String(v) }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let scale = pow(10, 11 - (log10(abs(v))).rounded(.down))
        guard scale.isFinite, scale > 0 else { return String(v) }
        let tidy = (v * scale).rounded() / scale
        if tidy == tidy.rounded(), abs(tidy) < 1e15 { return String(Int(tidy)) }
        return String(tidy)
    }
}
