/// Numbers the user wrote (filter parameters, lens, exposure bracket).
public enum NumberText {
    /// The number in `text`, or nil. Unlike `Double(_:)`, which reads the text as a C
    /// string and so takes "0.5\0junk" for 0.5, text with a NUL in it is not a number.
    public static func double(_ text: some StringProtocol) -> Double? {
        guard !text.utf8.contains(0) else { return nil }
        return Double(text)
    }

    /// A number as the user would write it: integers without ".0", others with the
    /// shortest decimals that read back to the same value.
    public static func text(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }
}
