/// Reads numbers and text from a fuzz input, front to back; past the end it gives zeros,
/// so every input, even an empty one, describes a case.
struct FuzzBytes {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { max(0, bytes.count - offset) }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `range`, from one or two bytes.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        let raw = span > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return range.lowerBound + raw % span
    }

    mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(byte()) / 255
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func pick<T>(_ choices: [T]) -> T { choices[int(in: 0...choices.count - 1)] }

    /// Everything left, as UTF-8 text (invalid bytes become U+FFFD, as a file read would).
    mutating func restAsText() -> String {
        defer { offset = bytes.count }
        guard offset < bytes.count else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset...]), as: UTF8.self)
    }
}
