import XCTest
@testable import FilterCore

/// The sizes a lens crop gives and takes (`LensCropSizes.swift`), against a search of every
/// size and against the crop of `pixelRect` itself.
final class LensCropSizesTests: XCTestCase {
    static let lenses: [LensRect] = [
        try! LensRect(x: 0.25, y: 0.25, w: 0.5, h: 0.5), try! LensRect(x: 0.3, y: 0, w: 0.3333333, h: 1),
        try! LensRect(x: 0, y: 0.9, w: 0.05, h: 0.1), try! LensRect(x: 0.123, y: 0.456, w: 0.777, h: 0.321),
    ]
    static let sizes = 1...600

    func testTheCroppedLengthIsThePixelRectsSize() throws {
        for lens in Self.lenses {
            for grid in [1, 2] {
                for size in [1, 2, 3, 7, 64, 99, 640, 1081] {
                    let rect = lens.pixelRect(width: size, height: size + 1, grid: grid)
                    XCTAssertEqual(lens.croppedLength(of: size, along: .horizontal, grid: grid), rect.width, "\(lens) \(size)")
                    XCTAssertEqual(lens.croppedLength(of: size + 1, along: .vertical, grid: grid), rect.height, "\(lens) \(size)")
                }
            }
        }
        // By hand: the centred half of 640 on either grid is 160..<480.
        XCTAssertEqual(Self.lenses[0].croppedLength(of: 640, along: .horizontal, grid: 2), 320)
    }

    func testTheSizesGivingALengthAreExactlyThoseASearchFinds() throws {
        for lens in Self.lenses {
            for axis in [LensRect.Axis.horizontal, .vertical] {
                for grid in [1, 2] {
                    let lengths = Self.sizes.map { lens.croppedLength(of: $0, along: axis, grid: grid) }
                    for wanted in [1...1, 2...2, 3...3, 20...20, 22...22, 40...60, 95...300] {
                        let found = Self.sizes.filter { wanted.contains(lengths[$0 - 1]) }
                        let answer = lens.sizes(cropping: wanted, along: axis, grid: grid, limit: Self.sizes.upperBound)
                        let context = "\(lens) \(axis) grid \(grid) lengths \(wanted)"
                        guard let first = found.first, let last = found.last else {
                            XCTAssertNil(answer, context)
                            continue
                        }
                        XCTAssertEqual(answer, first...last, context)
                    }
                }
            }
        }
    }

    func testTheLengthsOfARangeOfSizesAreTheirShortestAndLongest() throws {
        for lens in Self.lenses {
            for grid in [1, 2] {
                for range in [1...1, 5...9, 1...600, 300...600, 17...500] {
                    let lengths = range.map { lens.croppedLength(of: $0, along: .horizontal, grid: grid) }
                    XCTAssertEqual(lens.croppedLengths(of: range, along: .horizontal, grid: grid), lengths.min()!...lengths.max()!,
                                   "\(lens) grid \(grid) sizes \(range)")
                }
            }
        }
        // A range without end, as caps have: the longest is the crop of the largest size.
        let half = Self.lenses[0], any = 1...Int(Int32.max)
        XCTAssertEqual(half.croppedLengths(of: any, along: .horizontal, grid: 1), 1...half.croppedLength(of: any.upperBound, along: .horizontal, grid: 1))
        XCTAssertEqual(half.sizes(cropping: 320...320, along: .horizontal, grid: 1), 640...640)
        XCTAssertEqual(half.sizes(cropping: 1...Int(Int32.max), along: .horizontal, grid: 1), 1...Int(Int32.max))
    }

    /// A lens the rule takes however thin (`lens=0,0,1e-20,0.5`): its bounds lie beyond any
    /// Int, and once trapped converting one. Its crop is the thinnest one, a grid step.
    func testAThinnerLensThanAnyPictureHasAnswersWithoutTrapping() throws {
        for w in [1e-20, 1e-100, 5e-324] {
            let thin = try LensRect(x: 0, y: 0, w: w, h: 0.5)
            for grid in [1, 2] {
                XCTAssertEqual(thin.croppedLength(of: 64, along: .horizontal, grid: grid), grid, "\(w) grid \(grid)")
                let sizes = thin.sizes(cropping: grid...grid, along: .horizontal, grid: grid, limit: 4096)
                XCTAssertEqual(sizes?.lowerBound, grid, "\(w) grid \(grid)")   // a picture of 1 crops to 1
                XCTAssertNil(thin.sizes(cropping: 100...200, along: .horizontal, grid: grid, limit: 4096), "\(w) grid \(grid)")
            }
        }
    }
}
