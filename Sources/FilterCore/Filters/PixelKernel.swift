/// The shared machinery of the per-pixel filters: a kernel maps one 32-bit pixel to its
/// new value and `run(on:)` walks the frame, rows split across both cores.
///
/// Why it looks like this (see SWIFT-PIXEL-LOOPS.md): one `UInt32` load and store per
/// pixel, a single pointer for in-place work, `for x in 0..<w`, wrapping 32-bit
/// arithmetic, and kernels that are structs specialized at compile time (generics inside
/// this module are specialized; a closure or an existential per pixel is 10× slower).
///
/// Every format keeps R, G and B in bytes 0…2 of the pixel and alpha (or padding) in
/// byte 3, so a little-endian pixel has alpha in bits 24…31 whatever the order, and
/// a kernel keeps it with `pixel & alphaMask`.

/// Where red and blue sit in a little-endian 32-bit pixel, as compile-time constants, so
/// a kernel generic over the order is compiled once per order with literal shifts.
protocol ChannelOrder {
    static var redShift: UInt32 { get }
    static var blueShift: UInt32 { get }
}

/// RGBA and RGBx: red in byte 0.
enum RedFirst: ChannelOrder {
    @inline(__always) static var redShift: UInt32 { 0 }
    @inline(__always) static var blueShift: UInt32 { 16 }
}

/// BGRA and BGRx: blue in byte 0.
enum BlueFirst: ChannelOrder {
    @inline(__always) static var redShift: UInt32 { 16 }
    @inline(__always) static var blueShift: UInt32 { 0 }
}

/// The alpha (or padding) byte of a little-endian pixel in every supported format.
let alphaMask: UInt32 = 0xFF00_0000

/// Bytes 0 and 2 of a pixel, each in its own 16-bit lane: sums of up to 257 such
/// values stay inside their lane, so two channels are added with one instruction.
/// Bytes 0 and 2 are blue and red or red and blue; neighbourhood filters that treat
/// both alike need not know which.
let outerLanesMask: UInt32 = 0x00FF_00FF

extension ChannelOrder {
    @inline(__always) static func red(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> redShift) & 0xFF) }
    @inline(__always) static func green(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> 8) & 0xFF) }
    @inline(__always) static func blue(_ p: UInt32) -> Int32 { Int32(bitPattern: (p &>> blueShift) & 0xFF) }

    /// Packs three channels already within 0…255 with the alpha byte of `keep`.
    @inline(__always) static func pack(_ r: Int32, _ g: Int32, _ b: Int32, keeping keep: UInt32) -> UInt32 {
        (keep & alphaMask) | UInt32(bitPattern: r) &<< redShift | UInt32(bitPattern: g) &<< 8
            | UInt32(bitPattern: b) &<< blueShift
    }
}

/// `x` rounded to the nearest integer (ties to even), for 0 ≤ x < 2²²: adding 1.5·2²³
/// leaves the integer in the low mantissa bits. Unlike `Int32(x)`, which must trap on
/// overflow, this vectorizes.
@inline(__always) func roundedToInteger(_ x: Float) -> UInt32 {
    (x + 12_582_912).bitPattern &- 0x4B40_0000
}

/// Clamps to a channel's range. Written with masks: as `min(max(v, 0), 255)` LLVM turned
/// the matrix kernel's three clamps and the packing into a tangle of compares and blends
/// (5× slower).
@inline(__always) func clampChannel(_ v: Int32) -> Int32 {
    let nonNegative = v & ~(v &>> 31)
    return (nonNegative | ((255 &- nonNegative) &>> 31)) & 255
}

/// A per-pixel transform. `map` must return the alpha byte unchanged.
protocol PixelKernel {
    func map(_ pixel: UInt32) -> UInt32
}

extension PixelKernel {
    /// Applies the kernel to every pixel of the pass.
    func run(_ pass: FramePass) {
        if pass.inPlace {
            run(on: pass.destination)
        } else {
            run(from: pass.source, to: pass.destination)
        }
    }

    /// From one frame into another: one read and one write per pixel, no copy first.
    /// (Only for distinct memory: called with the same rows, the vectorizer's overlap
    /// check fails and the scalar loop runs, 10× slower; in place has its own loop.)
    func run(from source: FrameView, to destination: FrameView) {
        let width = source.width
        RowSplitter.shared.run(rows: source.height, columns: width) { rows in
            for y in rows {
                let input = source.row(y)
                let output = destination.row(y)
                for x in 0..<width {
                    output[x] = map(input[x])
                }
            }
        }
    }

    /// Applies the kernel to every pixel of `frame`, in place.
    func run(on frame: FrameView) {
        let width = frame.width
        RowSplitter.shared.run(rows: frame.height, columns: width) { rows in
            for y in rows {
                let row = frame.row(y)
                for x in 0..<width {
                    row[x] = map(row[x])
                }
            }
        }
    }
}

/// Where a filter reads and writes: a frame in place, or a source frame into a destination
/// of the same size and format in other memory (the host's one-pass copy, see
/// `FrameFilter.apply(from:to:)`). Filters are written once, for a pass.
struct FramePass {
    let source: FrameView
    let destination: FrameView

    init(from source: FrameView, to destination: FrameView) {
        precondition(source.width == destination.width && source.height == destination.height,
                     "filtering between frames of different sizes")
        precondition(source.format == destination.format, "filtering between different pixel formats")
        self.source = source
        self.destination = destination
    }

    var inPlace: Bool { source.base == destination.base }
    var width: Int { source.width }
    var height: Int { source.height }
    var format: PixelFormat { source.format }

    /// For settings that change nothing: the destination must still get the picture.
    func leaveUnchanged() {
        if !inPlace { destination.copyPixels(from: source) }
    }
}

/// A catalog filter: one `run(_:)` serves both ways the host applies filters.
protocol PassFilter: FrameFilter {
    func run(_ pass: FramePass)
}

extension PassFilter {
    func apply(to frame: FrameView) {
        run(FramePass(from: frame, to: frame))
    }

    func apply(from source: FrameView, to destination: FrameView) {
        run(FramePass(from: source, to: destination))
    }
}

extension FrameView {
    /// Runs `body` over bands of rows on both cores. Unlike `RowSplitter.run` directly,
    /// the split point is chosen here (`bands[1].lowerBound`), so a filter can prepare
    /// what each band needs from its neighbour before either starts writing.
    /// The band index passed to `body` picks the band's own scratch space.
    func splitIntoBands(_ body: (_ band: Int, _ rows: Range<Int>) -> Void) {
        guard height >= 2 else { return body(0, 0..<height) }
        let middle = height / 2
        let bands = [0..<middle, middle..<height]
        // Two "rows" of half a frame each: RowSplitter gives each thread one of them,
        // or both to the caller when the frame is small or the helper is busy.
        RowSplitter.shared.run(rows: 2, columns: (width * height + 1) / 2) { range in
            for band in range where !bands[band].isEmpty {
                body(band, bands[band])
            }
        }
    }
}

/// Scratch memory a filter keeps between frames; it grows when the frame does.
/// (A raw pointer, not an `[T]` in a class: indexing that per pixel costs 10×.)
final class Scratch<Element> {
    private(set) var pointer: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 0
        pointer = .allocate(capacity: 1)
    }

    deinit { pointer.deallocate() }

    /// Room for at least `count` elements; the contents are not kept on growth.
    func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            pointer = .allocate(capacity: count)
            capacity = count
        }
        return pointer
    }
}
