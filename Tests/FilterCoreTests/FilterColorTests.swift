import Foundation
import XCTest
import FilterCore

/// Each colour filter against its documented formula, computed here in `Double` (an
/// independent, obvious implementation). Tolerance ±1 covers the kernels' fixed-point
/// rounding unless a test says otherwise; alpha must come back exactly.
final class FilterColorTests: XCTestCase {
    let input = Picture.colourSample

    func testSepiaMatchesClassicMatrixMixedByIntensity() throws {
        for k in [0.0, 0.3, 0.8, 1.0] {
            let got = try apply("sepia intensity=\(k)", to: input)
            assertChannels(got, input, tolerance: 1, "sepia \(k)") { c, _, _ in
                let r = Double(c.r), g = Double(c.g), b = Double(c.b)
                let sr = min(255, 0.393 * r + 0.769 * g + 0.189 * b)
                let sg = min(255, 0.349 * r + 0.686 * g + 0.168 * b)
                let sb = min(255, 0.272 * r + 0.534 * g + 0.131 * b)
                return Expected(r + k * (sr - r), g + k * (sg - g), b + k * (sb - b))
            }
        }
    }

    func testSepiaDefaultIntensityAndHandValues() throws {
        // rgb(200,100,50) at full sepia: 0.393·200 + 0.769·100 + 0.189·50 = 164.95 → 165,
        // 0.349·200 + 0.686·100 + 0.168·50 = 146.8 → 147, 0.272·200 + 0.534·100 + 0.131·50 = 114.35 → 114.
        let one = Picture.filled(width: 1, height: 1, RGBA(r: 200, g: 100, b: 50, a: 77))
        XCTAssertEqual(try apply("sepia intensity=1", to: one).pixels[0], RGBA(r: 165, g: 147, b: 114, a: 77))
        // White clamps to 255 in every channel except blue: 0.937·255 = 238.9 → 239.
        let white = Picture.filled(width: 1, height: 1, RGBA(r: 255, g: 255, b: 255))
        XCTAssertEqual(try apply("sepia intensity=1", to: white).pixels[0], RGBA(r: 255, g: 255, b: 239))
        // Default intensity 0.8 (red: 200 + 0.8·(164.95 − 200) = 171.96 → 172).
        let d = try apply("sepia", to: one).pixels[0]
        XCTAssertEqual(Int(d.r), 172, accuracy: 1)
    }

    func testMonoIsRec601LumaMixedByIntensity() throws {
        for k in [1.0, 0.5, 0.0] {
            let got = try apply("mono intensity=\(k)", to: input)
            assertChannels(got, input, tolerance: 1, "mono \(k)") { c, _, _ in
                let y = luma601(c)
                return Expected(Double(c.r) + k * (y - Double(c.r)), Double(c.g) + k * (y - Double(c.g)),
                                Double(c.b) + k * (y - Double(c.b)))
            }
        }
        // Grey stays exactly grey.
        let grey = Picture.filled(width: 3, height: 1, RGBA(r: 77, g: 77, b: 77))
        XCTAssertEqual(try apply("mono", to: grey), grey)
    }

    func testMonoAgreesWithImageMagickRec601Luma() throws {
        let reference = try imageMagick(input, ["-grayscale", "Rec601Luma"])
        let got = try apply("mono", to: input)
        // ImageMagick rounds from 16-bit quanta: ±1.
        XCTAssertLessThanOrEqual(maxDifference(got, reference), 1)
    }

    func testNoirIsLumaThroughSmoothstep() throws {
        for k in [1.0, 0.6] {
            let got = try apply("noir intensity=\(k)", to: input)
            // ±1.5: the kernel starts from the integer luma (±0.57 from the real one) and
            // the curve's slope is at most 1.5, then rounds.
            assertChannels(got, input, tolerance: 1.5, "noir \(k)") { c, _, _ in
                let t = luma601(c) / 255
                let y = 255 * t * t * (3 - 2 * t)
                return Expected(Double(c.r) + k * (y - Double(c.r)), Double(c.g) + k * (y - Double(c.g)),
                                Double(c.b) + k * (y - Double(c.b)))
            }
        }
        // Contrast: a dark grey gets darker, a light one lighter, mid-grey stays.
        let greys = Picture(width: 3, height: 1, pixels: [RGBA(r: 64, g: 64, b: 64), RGBA(r: 128, g: 128, b: 128),
                                                          RGBA(r: 192, g: 192, b: 192)])
        let out = try apply("noir", to: greys)
        XCTAssertLessThan(out.pixels[0].r, 64)
        XCTAssertEqual(Int(out.pixels[1].r), 128, accuracy: 1)
        XCTAssertGreaterThan(out.pixels[2].r, 192)
    }

    func testInvertIsNegative() throws {
        let got = try apply("invert", to: input)
        assertChannels(got, input, tolerance: 0, "invert") { c, _, _ in
            Expected(255 - Double(c.r), 255 - Double(c.g), 255 - Double(c.b))
        }
        let half = try apply("invert intensity=0.25", to: input)
        assertChannels(half, input, tolerance: 1, "invert 0.25") { c, _, _ in
            let f = { (v: UInt8) in Double(v) + 0.25 * (255 - 2 * Double(v)) }
            return Expected(f(c.r), f(c.g), f(c.b))
        }
    }

    func testInvertAgreesWithImageMagickNegate() throws {
        let reference = try imageMagick(input, ["-negate"])
        XCTAssertEqual(maxDifference(try apply("invert", to: input), reference), 0)
    }

    func testPosterizeFormula() throws {
        for levels in [2, 3, 6, 64] {
            let got = try apply("posterize levels=\(levels)", to: input)
            let s = Double(levels - 1)
            assertChannels(got, input, tolerance: 0, "posterize \(levels)") { c, _, _ in
                let f = { (v: UInt8) in ((Double(v) * s / 255).rounded() * 255 / s) }
                return Expected(f(c.r), f(c.g), f(c.b))
            }
            // Exactly `levels` distinct values can appear, and 0 and 255 are among them.
            let ramp = Picture(width: 256, height: 1, pixels: (0..<256).map { RGBA(r: UInt8($0), g: 0, b: 255) })
            let values = Set(try apply("posterize levels=\(levels)", to: ramp).pixels.map(\.r))
            XCTAssertEqual(values.count, levels)
            XCTAssertTrue(values.contains(0) && values.contains(255))
        }
    }

    func testPosterizeAgreesWithImageMagick() throws {
        for levels in [2, 3, 6, 17] {
            let reference = try imageMagick(input, ["+dither", "-posterize", "\(levels)"])
            // ±1: ImageMagick rounds the level values through 16-bit quanta (127.5 → 127 or 128).
            XCTAssertLessThanOrEqual(maxDifference(try apply("posterize levels=\(levels)", to: input), reference), 1,
                                     "levels \(levels)")
        }
    }

    func testExposureIsLinearLightGain() throws {
        func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        for ev in [-10.0, -1.5, 0, 0.5, 1, 10] {
            let got = try apply("exposure ev=\(ev)", to: input)
            assertChannels(got, input, tolerance: 0.5, "exposure \(ev)") { c, _, _ in
                let f = { (v: UInt8) in 255 * encode(min(decode(Double(v) / 255) * pow(2, ev), 1)) }
                return Expected(f(c.r), f(c.g), f(c.b))
            }
        }
        XCTAssertEqual(try apply("exposure ev=0", to: input), input)
    }

    func testExposureAgreesWithImageMagickLinearMultiply() throws {
        let reference = try imageMagick(input, ["-colorspace", "RGB", "-evaluate", "multiply", "2", "-colorspace", "sRGB"])
        // ±1: ImageMagick works on 16-bit quanta.
        XCTAssertLessThanOrEqual(maxDifference(try apply("exposure ev=1", to: input), reference), 1)
    }

    func testColorControlsSaturationBrightnessContrast() throws {
        for (b, c, s) in [(0.0, 1.0, 1.0), (0.1, 1.0, 1.0), (0.0, 1.5, 1.0), (0.0, 1.0, 0.0),
                          (-0.2, 0.7, 2.5), (0.3, 4.0, 4.0), (-1.0, 0.0, 0.0)] {
            let got = try apply("color-controls brightness=\(b) contrast=\(c) saturation=\(s)", to: input)
            assertChannels(got, input, tolerance: 1, "color-controls \(b) \(c) \(s)") { p, _, _ in
                let y = luma601(p) / 255
                let f = { (v: UInt8) -> Double in
                    let c1 = y + s * (Double(v) / 255 - y)
                    let c2 = c1 + b
                    return 255 * ((c2 - 0.5) * c + 0.5)
                }
                return Expected(f(p.r), f(p.g), f(p.b))
            }
        }
        XCTAssertEqual(try apply("color-controls", to: input), input, "defaults are the identity")
    }

    func testChannelMixMatrixWithOffsets() throws {
        let matrices: [[Double]] = [
            [0, 0.7, 0.3, 0, 0, 1, 0, 0, 0, 0, 1, 0],              // ffmpeg's anaglyph-style red
            [0.5, -0.25, 0.1, 0.2, 1.5, 0, 0, -0.1, -4, 4, 1, 0.05],
            [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0],                  // swap red and blue
        ]
        for m in matrices {
            let text = "<" + m.map { String($0) }.joined(separator: ", ") + ">"
            let got = try apply("channel-mix matrix=\(text)", to: input)
            assertChannels(got, input, tolerance: 1, "channel-mix \(text)") { p, _, _ in
                let r = Double(p.r), g = Double(p.g), b = Double(p.b)
                return Expected(m[0] * r + m[1] * g + m[2] * b + m[3] * 255,
                                m[4] * r + m[5] * g + m[6] * b + m[7] * 255,
                                m[8] * r + m[9] * g + m[10] * b + m[11] * 255)
            }
        }
        // Swapping red and blue is exact.
        let swapped = try apply("channel-mix matrix=<0,0,1,0, 0,1,0,0, 1,0,0,0>", to: input)
        XCTAssertEqual(swapped.pixels.map { RGBA(r: $0.b, g: $0.g, b: $0.r, a: $0.a) }, input.pixels)
        XCTAssertEqual(try apply("channel-mix", to: input), input, "the default matrix is the identity")
    }

    func testWhiteBalanceNeutralIsExactIdentity() throws {
        XCTAssertEqual(try apply("white-balance", to: input), input)
        XCTAssertEqual(try apply("white-balance temperature=6500 tint=0", to: input), input)
    }

    func testWhiteBalanceDirections() throws {
        let grey = Picture.filled(width: 2, height: 1, RGBA(r: 128, g: 128, b: 128, a: 33))
        func out(_ chain: String) throws -> RGBA { try apply(chain, to: grey).pixels[0] }

        let warm = try out("white-balance temperature=3000")
        XCTAssertGreaterThan(warm.r, warm.g, "lower kelvin is warmer: red above green")
        XCTAssertGreaterThan(warm.g, warm.b, "lower kelvin is warmer: blue lowest")
        XCTAssertEqual(warm.a, 33)
        let warmer = try out("white-balance temperature=2000")
        XCTAssertGreaterThan(Int(warmer.r) - Int(warmer.b), Int(warm.r) - Int(warm.b), "2000 K warmer than 3000 K")

        let cool = try out("white-balance temperature=12000")
        XCTAssertGreaterThan(cool.b, cool.r, "higher kelvin is cooler: blue above red")

        let slight = try out("white-balance temperature=6000")
        XCTAssertGreaterThanOrEqual(slight.r, slight.b)
        XCTAssertLessThan(Int(slight.r) - Int(slight.b), Int(warm.r) - Int(warm.b))

        let magenta = try out("white-balance tint=100")
        XCTAssertLessThan(magenta.g, magenta.r, "positive tint is magenta")
        XCTAssertLessThan(magenta.g, magenta.b)
        let green = try out("white-balance tint=-100")
        XCTAssertGreaterThan(green.g, green.r, "negative tint is green")

        // Grey keeps roughly its brightness (luminance-normalised gains): Rec.709 luma within 10 %.
        for c in [warm, cool, magenta, green] {
            let y = 0.2126 * Double(c.r) + 0.7152 * Double(c.g) + 0.0722 * Double(c.b)
            XCTAssertEqual(y, 128, accuracy: 13, "\(c)")
        }
    }

    func testWhiteBalanceIsPerChannelScaling() throws {
        // A von Kries scaling: every pixel's channel is its own gain times the value, so a
        // channel's output depends on that channel alone (±1 for rounding).
        let got = try apply("white-balance temperature=4000 tint=20", to: input)
        let ramp = Picture(width: 256, height: 1, pixels: (0..<256).map { RGBA(r: UInt8($0), g: UInt8($0), b: UInt8($0)) })
        let gains = try apply("white-balance temperature=4000 tint=20", to: ramp)
        let gr = Double(gains.pixels[200].r) / 200, gg = Double(gains.pixels[200].g) / 200, gb = Double(gains.pixels[200].b) / 200
        assertChannels(got, input, tolerance: 2, "white-balance scaling") { c, _, _ in
            Expected(Double(c.r) * gr, Double(c.g) * gg, Double(c.b) * gb)
        }
    }

    func testVignetteFormula() throws {
        let flat = Picture.filled(width: 21, height: 13, RGBA(r: 200, g: 100, b: 50, a: 9))
        for (radius, intensity) in [(1.0, 0.8), (0.5, 1.0), (2.0, 0.3), (0.0, 0.5)] {
            let got = try apply("vignette radius=\(radius) intensity=\(intensity)", to: flat)
            let half = (21.0 * 21 + 13 * 13).squareRoot() / 2
            assertChannels(got, flat, tolerance: 1, "vignette \(radius) \(intensity)") { c, x, y in
                let dx = Double(x) + 0.5 - 10.5, dy = Double(y) + 0.5 - 6.5
                let d = (dx * dx + dy * dy).squareRoot() / half
                let t = radius == 0 ? (d > 0 ? 1 : 0) : min(d / radius, 1)
                let gain = 1 - intensity * t * t * (3 - 2 * t)
                return Expected(Double(c.r) * gain, Double(c.g) * gain, Double(c.b) * gain)
            }
        }
        // The centre pixel of an odd-sized frame is untouched; a corner is darkened.
        let got = try apply("vignette", to: flat)
        XCTAssertEqual(got[10, 6], flat[10, 6])
        XCTAssertLessThan(got[0, 0].r, 100)
    }
}
