import XCTest
import FilterCore

/// Every filter, in every pixel format, odd sizes and padded rows.
final class FilterLayoutTests: XCTestCase {
    /// Every filter with settings that change pixels.
    static let chains = [
        "sepia", "mono", "mono intensity=0.4", "noir", "invert", "invert intensity=0.3", "posterize levels=3",
        "vignette radius=0.5", "exposure ev=1.3", "color-controls brightness=0.1 contrast=1.4 saturation=1.7",
        "white-balance temperature=3200 tint=-20", "channel-mix matrix=<0,0.7,0.3,0.1, 0,1,0,0, 1,0,0,-0.1>",
        "sharpen amount=1.5", "blur radius=2", "edges", "focus-peaking threshold=40 color=0xFF00FFFF",
        "lut file=\(repositoryRoot)/looks/cross-process.cube intensity=0.8",
    ]

    func testEveryCatalogFilterIsCovered() {
        let covered = Set(Self.chains.map { String($0.split(separator: " ")[0]) })
        // A fresh registry: the built-in catalog only (other tests register example filters).
        XCTAssertEqual(covered.union(["none"]), Set(FilterRegistry(registeringBuiltIns: true).ids))
    }

    func testAllFormatsGiveTheSameChannelsAndKeepAlpha() throws {
        let input = Picture.colourSample
        for chain in Self.chains {
            let reference = try apply(chain, to: input, format: .bgra)
            XCTAssertNotEqual(reference, input, "\(chain) should change this picture")
            XCTAssertEqual(reference.pixels.map(\.a), input.pixels.map(\.a), "\(chain) keeps alpha")
            for format in PixelFormat.allCases {
                XCTAssertEqual(try apply(chain, to: input, format: format), reference, "\(chain) in \(format)")
            }
        }
    }

    func testPaddedRowsLeavePaddingUntouched() throws {
        let input = Picture.noise(width: 17, height: 9, seed: 11)
        for chain in Self.chains {
            let packed = try apply(chain, to: input)
            for padding in [4, 12, 60] {
                XCTAssertEqual(try apply(chain, to: input, format: .rgbx, padding: padding).pixels,
                               try apply(chain, to: input, format: .rgbx).pixels, "\(chain), padding \(padding)")
            }
            XCTAssertEqual(try apply(chain, to: input, format: .bgra, padding: 8), packed, chain)
        }
    }

    func testOnePixelFrames() throws {
        let one = Picture.filled(width: 1, height: 1, RGBA(r: 200, g: 100, b: 50, a: 77))
        for chain in Self.chains {
            for format in PixelFormat.allCases {
                let got = try apply(chain, to: one, format: format, padding: 4)
                XCTAssertEqual(got.pixels[0].a, 77, "\(chain) in \(format)")
            }
        }
        // Neighbourhood filters see only the pixel itself, repeated.
        XCTAssertEqual(try apply("blur radius=32", to: one), one)
        XCTAssertEqual(try apply("sharpen amount=4", to: one), one)
        XCTAssertEqual(try apply("edges", to: one).pixels[0], RGBA(r: 0, g: 0, b: 0, a: 77))
        XCTAssertEqual(try apply("focus-peaking threshold=0", to: one), one)
        // A 1×1 frame's only pixel is its centre: no vignette.
        XCTAssertEqual(try apply("vignette intensity=1", to: one), one)
    }

    func testThinFrames() throws {
        for (w, h) in [(1, 9), (17, 1), (2, 2)] {
            let input = Picture.noise(width: w, height: h, seed: 12)
            for chain in Self.chains {
                let got = try apply(chain, to: input, format: .rgba, padding: 4)
                XCTAssertEqual(got.pixels.map(\.a), input.pixels.map(\.a), "\(chain) at \(w)x\(h)")
                XCTAssertEqual(try apply(chain, to: input, format: .bgrx), got, "\(chain) at \(w)x\(h)")
            }
        }
    }

    func testNoneAndIdentitySettingsChangeNothing() throws {
        let input = Picture.colourSample
        for chain in ["none", "sepia intensity=0", "mono intensity=0", "noir intensity=0", "invert intensity=0",
                      "posterize levels=64", "vignette intensity=0", "exposure", "color-controls",
                      "white-balance", "channel-mix", "sharpen amount=0", "blur radius=0", "focus-peaking threshold=255"] {
            let got = try apply(chain, to: input, format: .rgbx, padding: 4)
            if chain.hasPrefix("posterize") {
                // 64 levels: steps of 255/63, so values move by at most half a step.
                XCTAssertLessThanOrEqual(maxDifference(got, input), 2, chain)
            } else {
                XCTAssertEqual(got, input, chain)
            }
        }
    }

    /// The host's one-pass form, `apply(from:to:)`: same result as in place, source untouched,
    /// including settings that change nothing (the destination must still get the picture).
    func testApplyFromSourceToDestinationMatchesInPlace() throws {
        let input = Picture.colourSample
        let chains = Self.chains + ["none", "sepia intensity=0", "blur radius=0", "sharpen amount=0",
                                    "focus-peaking threshold=255", "exposure", "channel-mix", "vignette intensity=0"]
        for chain in chains {
            for format in [PixelFormat.bgra, .rgbx] {
                let expected = try apply(chain, to: input, format: format)
                let filters = try FilterChain.parse(chain).makeFilters()
                let source = PixelBuffer(width: input.width, height: input.height, format: format, stride: input.width * 4 + 8)
                let destination = PixelBuffer(width: input.width, height: input.height, format: format,
                                              stride: input.width * 4 + 4)
                let sv = source.view, dv = destination.view
                for y in 0..<input.height {
                    for x in 0..<input.width {
                        sv.setPixel(x: x, y: y, input[x, y])
                        dv.setPixel(x: x, y: y, RGBA(r: 1, g: 2, b: 3, a: 4))   // stale content to overwrite
                    }
                    (dv.base + y * dv.stride + input.width * 4).storeBytes(of: 0xA5A5_A5A5, as: UInt32.self)
                }
                for f in filters.isEmpty ? [] : [filters[0]] { f.apply(from: sv, to: dv) }
                for f in filters.dropFirst() { f.apply(to: dv) }
                if filters.isEmpty { dv.copyPixels(from: sv) }
                var got = input, untouched = input
                for y in 0..<input.height {
                    for x in 0..<input.width {
                        got[x, y] = dv.pixel(x: x, y: y)
                        untouched[x, y] = sv.pixel(x: x, y: y)
                    }
                    XCTAssertEqual((dv.base + y * dv.stride + input.width * 4).load(as: UInt32.self), 0xA5A5_A5A5,
                                   "\(chain): destination padding of row \(y)")
                }
                XCTAssertEqual(got, expected, "\(chain) in \(format) from source to destination")
                XCTAssertEqual(untouched, input, "\(chain) must not write its source")
            }
        }
    }

    func testApplyFromSourceToDestinationOnLargeFrames() throws {
        // Large enough to be split between both cores.
        let input = Picture.noise(width: 200, height: 121, seed: 13)
        for chain in ["sepia", "vignette", "blur radius=4", "sharpen", "edges", "focus-peaking threshold=50"] {
            let expected = try apply(chain, to: input)
            let filter = try FilterChain.parse(chain).makeFilters()[0]
            let source = PixelBuffer(width: 200, height: 121), destination = PixelBuffer(width: 200, height: 121)
            source.load(packed: {
                let b = PixelBuffer(width: 200, height: 121)
                for y in 0..<121 { for x in 0..<200 { b.view.setPixel(x: x, y: y, input[x, y]) } }
                return b.packedBytes
            }())
            filter.apply(from: source.view, to: destination.view)
            var got = input
            for y in 0..<121 { for x in 0..<200 { got[x, y] = destination.view.pixel(x: x, y: y) } }
            XCTAssertEqual(got, expected, chain)
        }
    }
}
