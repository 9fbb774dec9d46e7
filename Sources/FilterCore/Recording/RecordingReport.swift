/// How a recording is told to the user: its length on the preview while it runs (m:ss),
/// and when it ends one line for the terminal: the file, its length and its size.
public enum RecordingReport {
    /// Whole seconds as a clock shows them: "0:07", "12:03", "1:02:03".
    public static func clock(_ seconds: Double) -> String {
        let total = Int(max(seconds, 0))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// A length with tenths: "12.4 s".
    public static func length(_ seconds: Double) -> String {
        let tenths = Int((max(seconds, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A file size in SI units, as file managers show it: "900 B", "812 kB", "3.1 MB", "1.2 GB".
    public static func size(_ bytes: UInt64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return "\((bytes + 500) / 1000) kB" }
        let (unit, divisor): (String, Double) = bytes < 1_000_000_000 ? ("MB", 1e6) : ("GB", 1e9)
        let tenths = Int((Double(bytes) / divisor * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }

    /// "recorded clips/recording-00000.mp4: 12.4 s, 3.1 MB (372 frames, with sound)"; frames
    /// a busy encoder could not take are counted when there were any.
    public static func saved(path: String, seconds: Double, bytes: UInt64, frames: Int, dropped: Int, sound: Bool) -> String {
        var details = ["\(frames) frame\(frames == 1 ? "" : "s")"]
        if dropped > 0 { details.append("\(dropped) dropped") }
        details.append(sound ? "with sound" : "no sound")
        return "recorded \(path): \(length(seconds)), \(size(bytes)) (\(details.joined(separator: ", ")))"
    }
}
