import Foundation
import XCTest
import FilterCore

/// A picture as channel values, independent of memory layout: what tests compare.
struct Picture: Equatable {
    let width: Int
    let height: Int
    var pixels: [RGBA]

    subscript(x: Int, y: Int) -> RGBA {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Deterministic noise with every channel (alpha too) spread over 0…255.
    static func noise(width: Int, height: Int, seed: UInt32 = 1) -> Picture {
        var state = seed &* 2_654_435_761 &+ 12345
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let pixels = (0..<(width * height)).map { _ in RGBA(r: next(), g: next(), b: next(), a: next()) }
        return Picture(width: width, height: height, pixels: pixels)
    }

    static func filled(width: Int, height: Int, _ c: RGBA) -> Picture {
        Picture(width: width, height: height, pixels: Array(repeating: c, count: width * height))
    }

    /// Noise plus the corner cases every colour filter must survive.
    static var colourSample: Picture {
        var p = Picture.noise(width: 17, height: 9, seed: 7)
        let specials = [RGBA(r: 0, g: 0, b: 0, a: 0), RGBA(r: 255, g: 255, b: 255, a: 255),
                        RGBA(r: 255, g: 0, b: 0, a: 1), RGBA(r: 0, g: 255, b: 0, a: 128),
                        RGBA(r: 0, g: 0, b: 255, a: 254), RGBA(r: 200, g: 100, b: 50, a: 77),
                        RGBA(r: 150, g: 255, b: 150, a: 9), RGBA(r: 128, g: 128, b: 128, a: 200)]
        for (i, c) in specials.enumerated() { p.pixels[i] = c }
        return p
    }
}

/// Runs `chain` on `picture` in a frame of `format`, rows padded by `padding` bytes that
/// are filled with a marker; checks the padding survived and returns the result.
func apply(_ chain: String, to picture: Picture, format: PixelFormat = .bgra, padding: Int = 0,
           file: StaticString = #filePath, line: UInt = #line) throws -> Picture {
    let filters = try FilterChain.parse(chain).makeFilters()
    return applyFilters(filters, on: picture, format: format, padding: padding, file: file, line: line)
}

func applyFilters(_ filters: [any FrameFilter], on picture: Picture, format: PixelFormat = .bgra, padding: Int = 0,
         file: StaticString = #filePath, line: UInt = #line) -> Picture {
    let buffer = PixelBuffer(width: picture.width, height: picture.height, format: format,
                             stride: picture.width * 4 + padding)
    let view = buffer.view
    for y in 0..<picture.height {
        for x in 0..<picture.width { view.setPixel(x: x, y: y, picture[x, y]) }
        for i in 0..<padding { (view.base + y * view.stride + picture.width * 4 + i).storeBytes(of: 0xA5, as: UInt8.self) }
    }
    for filter in filters { filter.apply(to: view) }
    var out = picture
    for y in 0..<picture.height {
        for x in 0..<picture.width { out[x, y] = view.pixel(x: x, y: y) }
        for i in 0..<padding {
            let byte = (view.base + y * view.stride + picture.width * 4 + i).load(as: UInt8.self)
            if byte != 0xA5 {
                XCTFail("padding byte \(i) of row \(y) changed to \(byte)", file: file, line: line)
                return out
            }
        }
    }
    return out
}

/// Expected channel values in real arithmetic.
struct Expected {
    var r: Double, g: Double, b: Double
    init(_ r: Double, _ g: Double, _ b: Double) { self.r = r; self.g = g; self.b = b }
}

/// Checks every pixel's channels against `expected` (real values, compared after rounding
/// to nearest) within `tolerance`, and that alpha is exactly the input's.
func assertChannels(_ got: Picture, _ input: Picture, tolerance: Double, _ what: String,
                    file: StaticString = #filePath, line: UInt = #line,
                    expected: (RGBA, Int, Int) -> Expected) {
    var failures = 0
    for y in 0..<got.height {
        for x in 0..<got.width {
            let e = expected(input[x, y], x, y)
            let g = got[x, y]
            let clamp = { (v: Double) in min(max(v, 0), 255) }
            let bad = [(Double(g.r), clamp(e.r)), (Double(g.g), clamp(e.g)), (Double(g.b), clamp(e.b))]
                .contains { abs($0.0 - $0.1.rounded()) > tolerance }
            if bad || g.a != input[x, y].a {
                failures += 1
                if failures <= 5 {
                    XCTFail("\(what): pixel (\(x),\(y)) \(input[x, y]) became \(g), expected "
                            + String(format: "(%.2f, %.2f, %.2f) ±%g, alpha %d", e.r, e.g, e.b, tolerance,
                                     input[x, y].a), file: file, line: line)
                }
            }
        }
    }
}

func luma601(_ c: RGBA) -> Double { 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b) }

/// The real ImageMagick (`/usr/bin/convert`, not a wrapper on PATH), or a skip.
func imageMagick(_ picture: Picture, _ arguments: [String]) throws -> Picture {
    let tool = "/usr/bin/convert"
    guard FileManager.default.isExecutableFile(atPath: tool) else {
        throw XCTSkip("ImageMagick's convert is not installed at \(tool); this cross-check needs it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-size", "\(picture.width)x\(picture.height)", "-depth", "8", "rgb:-"]
        + arguments + ["-depth", "8", "rgb:-"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(picture.pixels.flatMap { [$0.r, $0.g, $0.b] }))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, data.count == picture.width * picture.height * 3 else {
        throw XCTSkip("convert \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus), \(data.count) bytes)")
    }
    let bytes = [UInt8](data)
    var out = picture
    for i in 0..<out.pixels.count {
        out.pixels[i] = RGBA(r: bytes[3 * i], g: bytes[3 * i + 1], b: bytes[3 * i + 2], a: picture.pixels[i].a)
    }
    return out
}

/// Largest channel difference between two pictures (R, G, B only).
func maxDifference(_ a: Picture, _ b: Picture) -> Int {
    zip(a.pixels, b.pixels).map { p, q in
        max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
    }.max() ?? 0
}
