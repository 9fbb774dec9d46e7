extension StringProtocol {
    /// The text in single quotes for an error message: control characters are escaped
    /// (`\n`, `\t`, `\u{0}`) so that they show, and so that a NUL does not cut the message
    /// short when it becomes a C string (GStreamer warnings); very long text is shortened.
    public var quotedForMessage: String {
        var out = "'"
        var count = 0
        for scalar in unicodeScalars {
            count += 1
            if count > 120 {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
