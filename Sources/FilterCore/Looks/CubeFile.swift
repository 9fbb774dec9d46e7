/// The Adobe/Resolve `.cube` format (Adobe Cube LUT Specification 1.0):
///
///     # comment
///     TITLE "Teal and orange"
///     LUT_3D_SIZE 33                  (2…65; or LUT_1D_SIZE 2…65536)
///     DOMAIN_MIN 0 0 0                (optional; Resolve's LUT_3D_INPUT_RANGE 0 1 too)
///     DOMAIN_MAX 1 1 1
///     0.000000 0.000000 0.000000      (R G B, red fastest, then green, then blue)
///     …
///
/// Keywords come before the table; other keywords are skipped (writers add their own).
/// Keywords in any case, LF, CRLF or CR line ends and a UTF-8 byte-order mark are taken,
/// as the tools that write these files vary. Outputs are the 0…1 range (or the domain, if
/// wider): values a little outside it (up to `outputSlack` of it, which a grading tool's
/// float arithmetic leaves) are taken as they are; the looked colour is clamped (as FFmpeg's `lut3d`). Refused, naming
/// the line: a table without a size line, a size out of range, a line that is not three
/// numbers, NaN or infinity, a value far outside the outputs' range (a LUT made for
/// another range, log or HDR), too many or too few entries, binary data.
enum CubeFile {
    static let sizes3D = 2...65
    static let sizes1D = 2...65536
    /// How far beyond the outputs' range a value may lie, as a fraction of the range.
    static let outputSlack = 0.1

    private struct Header {
        var title: String?
        var shape: ColorLookup.Shape?
        var domainMin: [Double] = [0, 0, 0]
        var domainMax: [Double] = [1, 1, 1]
        var domainLine = 0
    }

    static func parse(_ bytes: [UInt8], file: String) throws(LookError) -> ColorLookup {
        do {
            return try bytes.withUnsafeBufferPointer { try parse($0, file: file) }
        } catch let error as LookError {
            throw error
        } catch {
            preconditionFailure("parsing throws only LookError")
        }
    }

    /// Walks the bytes line by line with indices (no line or field arrays): a 65³ table
    /// has 274 625 lines.
    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>, file: String) throws(LookError) -> ColorLookup {
        guard let b = buffer.baseAddress, buffer.count > 0 else {
            throw LookError(file: file, line: 1, "is empty; a .cube file has a LUT_3D_SIZE or LUT_1D_SIZE line and the table")
        }
        let count = buffer.count
        var header = Header()
        var values: [Float] = []
        var expected = 0
        var lineNumber = 0
        // A UTF-8 byte-order mark (Notepad and .NET writers add one) is not part of line 1.
        var next = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while next < count {
            lineNumber += 1
            var end = next
            while end < count && b[end] != 10 && b[end] != 13 { end += 1 }
            var start = next
            next = end < count && b[end] == 13 && end + 1 < count && b[end + 1] == 10 ? end + 2 : end + 1
            func fail(_ reason: String) -> LookError { LookError(file: file, line: lineNumber, reason) }
            for i in start..<end where b[i] < 32 && b[i] != 9 {
                throw fail("holds binary data (byte \(b[i])); a .cube file is text")
            }
            while start < end && isBlank(b[start]) { start += 1 }
            while end > start && isBlank(b[end - 1]) { end -= 1 }
            guard start < end, b[start] != UInt8(ascii: "#") else { continue }
            if isLetter(b[start]) {
                let line = Array(UnsafeBufferPointer(start: b + start, count: end - start))[...]
                if !startsWithNonFinite(line) {
                    guard values.isEmpty else {
                        throw fail("keyword \(text(line.prefix { !isBlank($0) }).quotedForMessage) after the table; keywords come first")
                    }
                    if try keyword(line, into: &header, expected: &expected, fail: fail) { header.domainLine = lineNumber }
                    continue
                }
            }
            guard expected > 0 else {
                throw fail("table data before a LUT_3D_SIZE or LUT_1D_SIZE line: the size line is missing")
            }
            if values.isEmpty {
                try checkDomain(header, file: file)
                values.reserveCapacity(3 * expected)
            }
            guard values.count < 3 * expected else {
                throw fail("more entries than the \(expected) that \(sizeLine(header.shape!)) needs")
            }
            var i = start
            for channel in 0..<3 {
                while i < end && isBlank(b[i]) { i += 1 }
                let first = i
                while i < end && !isBlank(b[i]) { i += 1 }
                guard first < i else { throw fail("expected three numbers (R G B), found \(text(b, start, end).quotedForMessage)") }
                guard let v = number(b, first, i) else {
                    throw fail("\(text(b, first, i).quotedForMessage) is not a number")
                }
                // Outputs are 0…1, or the domain's range where it is wider (an HDR look).
                let low = min(0, header.domainMin[channel]), high = max(1, header.domainMax[channel])
                let slack = (high - low) * outputSlack
                guard v >= low - slack && v <= high + slack else {
                    throw fail("value \(text(b, first, i)) is far outside the outputs' range \(format(low))…\(format(high)) "
                               + "(values within \(format(slack)) of it are taken as they are; the result is clamped); is it a LUT for another range, log or HDR?")
                }
                values.append(Float(v))
            }
            while i < end && isBlank(b[i]) { i += 1 }
            guard i == end else { throw fail("expected three numbers (R G B), found \(text(b, start, end).quotedForMessage)") }
        }
        guard let shape = header.shape else {
            throw LookError(file: file, line: lineNumber, "ends without a LUT_3D_SIZE or LUT_1D_SIZE line: the size line is missing")
        }
        guard values.count == 3 * expected else {
            throw LookError(file: file, line: lineNumber, "ends after \(values.count / 3) entries; \(sizeLine(shape)) needs \(expected)")
        }
        return ColorLookup(shape: shape, values: values, domainMin: header.domainMin, domainMax: header.domainMax,
                           title: header.title, file: file)
    }

    @inline(__always) private static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 }

    /// Reads a keyword line into `header`; whether it set the domain.
    private static func keyword(_ line: ArraySlice<UInt8>, into header: inout Header, expected: inout Int,
                                fail: (String) -> LookError) throws(LookError) -> Bool {
        let fields = line.split(whereSeparator: { $0 == 32 || $0 == 9 })
        let name = text(fields[0]).uppercased(), arguments = Array(fields.dropFirst())
        func numbers(_ count: Int) throws(LookError) -> [Double] {
            let parsed = arguments.compactMap(Self.number)
            guard arguments.count == count, parsed.count == count else {
                throw fail("\(name) takes \(count) numbers, found \(text(line.dropFirst(fields[0].count)).trimmingSpaces.quotedForMessage)")
            }
            return parsed
        }
        switch name {
        case "TITLE":
            var title = text(line.dropFirst(5)).trimmingSpaces
            if title.count >= 2, title.hasPrefix("\""), title.hasSuffix("\"") { title = String(title.dropFirst().dropLast()) }
            header.title = title
        case "LUT_3D_SIZE", "LUT_1D_SIZE":
            let is3D = name == "LUT_3D_SIZE", range = is3D ? sizes3D : sizes1D
            guard arguments.count == 1, let size = Int(text(arguments[0])) else {
                throw fail("\(name) takes one whole number, \(range.lowerBound)…\(range.upperBound)")
            }
            guard range.contains(size) else {
                throw fail("\(name) \(size) is out of range; sizes are \(range.lowerBound)…\(range.upperBound)")
            }
            guard header.shape == nil else {
                throw fail("a second size line (\(name)); a file holds one table, 1D or 3D")
            }
            header.shape = is3D ? .cube(size: size) : .curves(size: size)
            expected = is3D ? size * size * size : size
        case "DOMAIN_MIN": header.domainMin = try numbers(3); return true
        case "DOMAIN_MAX": header.domainMax = try numbers(3); return true
        case "LUT_3D_INPUT_RANGE", "LUT_1D_INPUT_RANGE":
            let range = try numbers(2)
            header.domainMin = Array(repeating: range[0], count: 3)
            header.domainMax = Array(repeating: range[1], count: 3)
            return true
        default:
            break   // another writer's keyword
        }
        return false
    }

    /// The domain, once the keywords are read: each channel's minimum below its maximum.
    private static func checkDomain(_ header: Header, file: String) throws(LookError) {
        for c in 0..<3 where !(header.domainMin[c] < header.domainMax[c]) {
            throw LookError(file: file, line: header.domainLine,
                            "the domain of \(["red", "green", "blue"][c]) is \(format(header.domainMin[c]))…\(format(header.domainMax[c])); DOMAIN_MIN must be below DOMAIN_MAX")
        }
        // A span past what a Double holds (±1.7e308 at both ends) would map every value to
        // the lattice's first cell: refused rather than a black picture.
        for c in 0..<3 where !(header.domainMax[c] - header.domainMin[c]).isFinite {
            throw LookError(file: file, line: header.domainLine,
                            "the domain of \(["red", "green", "blue"][c]) is \(format(header.domainMin[c]))…\(format(header.domainMax[c])), wider than a number can span; give a finite range such as 0…1")
        }
    }

    private static func sizeLine(_ shape: ColorLookup.Shape) -> String {
        switch shape {
        case .cube(let n): "LUT_3D_SIZE \(n) (\(n)³)"
        case .curves(let n): "LUT_1D_SIZE \(n)"
        }
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }

    /// A table line whose first value is NaN or infinity as C writes them ("nan", "inf"):
    /// refused as a number, not skipped as an unknown keyword.
    private static func startsWithNonFinite(_ line: ArraySlice<UInt8>) -> Bool {
        let word = text(line.prefix { $0 != 32 && $0 != 9 }).lowercased()
        return word == "nan" || word == "inf" || word == "infinity"
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
    private static func text(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: b + start, count: end - start), as: UTF8.self)
    }

    /// A decimal number (`-0.5`, `1`, `.25`, `1e-3`); nil for anything else, NaN and
    /// infinity included. Read by hand: `strtod` would follow the C locale, which a host
    /// may have set to one with a decimal comma.
    static func number(_ s: ArraySlice<UInt8>) -> Double? {
        s.withUnsafeBufferPointer { $0.baseAddress.flatMap { number($0, 0, s.count) } }
    }

    static func number(_ s: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        var negative = false
        if i < end, s[i] == 45 || s[i] == 43 { negative = s[i] == 45; i += 1 }
        var mantissa: UInt64 = 0, exponent = 0, digits = 0
        while i < end, s[i] >= 48 && s[i] <= 57 {
            if mantissa < 100_000_000_000_000_000 { mantissa = mantissa &* 10 &+ UInt64(s[i] &- 48) } else { exponent += 1 }
            digits += 1; i += 1
        }
        if i < end, s[i] == 46 {
            i += 1
            while i < end, s[i] >= 48 && s[i] <= 57 {
                if mantissa < 100_000_000_000_000_000 { mantissa = mantissa &* 10 &+ UInt64(s[i] &- 48); exponent -= 1 }
                digits += 1; i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < end, s[i] == 101 || s[i] == 69 {
            i += 1
            var sign = 1, power = 0, powerDigits = 0
            if i < end, s[i] == 45 || s[i] == 43 { sign = s[i] == 45 ? -1 : 1; i += 1 }
            while i < end, s[i] >= 48 && s[i] <= 57 {
                power = min(power * 10 + Int(s[i] - 48), 10_000); powerDigits += 1; i += 1
            }
            guard powerDigits > 0 else { return nil }
            exponent += sign * power
        }
        guard i == end else { return nil }
        if mantissa == 0 { return 0 }
        let magnitude = exponent < 0 ? Double(mantissa) / power10(-exponent) : Double(mantissa) * power10(exponent)
        guard magnitude.isFinite else { return nil }
        return negative ? -magnitude : magnitude
    }

    private static func power10(_ n: Int) -> Double {
        var result = 1.0, base = 10.0, e = min(n, 400)
        while e > 0 {
            if e & 1 == 1 { result *= base }
            base *= base; e >>= 1
        }
        return result
    }
}
