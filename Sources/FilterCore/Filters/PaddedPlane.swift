/// A copy of a frame (or a per-pixel function of it) with a one-pixel border on every
/// side repeating the edge pixels, so 3×3 neighbourhood loops clamp to the edge without
/// a single test. Lives in scratch memory the filter keeps between frames.
///
/// Neighbourhood filters copy first and then write the frame from the copy: the copy
/// is complete before any row is overwritten, so both cores can work on any rows.
struct PaddedPlane<Element> {
    let base: UnsafeMutablePointer<Element>
    let width: Int
    let height: Int
    /// Elements from one row to the next: `width + 2`.
    let stride: Int

    /// Row `y` (−1…height), indexable from −1 to `width`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Element> { base + ((y &+ 1) &* stride &+ 1) }
}

/// Converts one pixel into a plane element.
protocol PlaneKernel {
    associatedtype Element
    func map(_ pixel: UInt32) -> Element
}

/// The pixels as they are.
struct CopyKernel: PlaneKernel {
    @inline(__always) func map(_ p: UInt32) -> UInt32 { p }
}

/// Rec.601 luma, as `mono`.
struct LumaKernel<Order: ChannelOrder>: PlaneKernel {
    @inline(__always) func map(_ p: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: luma(p, Order.self)) }
}

extension PlaneKernel {
    /// Fills `scratch` with the padded plane of `frame` through this kernel.
    func plane(of frame: FrameView, in scratch: Scratch<Element>) -> PaddedPlane<Element> {
        let width = frame.width, height = frame.height
        let plane = PaddedPlane(base: scratch.reserve((width + 2) * (height + 2)),
                                width: width, height: height, stride: width + 2)
        RowSplitter.shared.run(rows: height, columns: width) { rows in
            for y in rows {
                let source = frame.row(y)
                let target = plane.row(y)
                for x in 0..<width {
                    target[x] = map(source[x])
                }
                target[-1] = target[0]
                target[width] = target[width - 1]
            }
        }
        (plane.row(-1) - 1).update(from: plane.row(0) - 1, count: width + 2)
        (plane.row(height) - 1).update(from: plane.row(height - 1) - 1, count: width + 2)
        return plane
    }
}

/// Sobel gradient magnitude `|gx| + |gy|` (0…1530) at column x of a grey plane, from the
/// rows above, at and below (each indexable from x − 1 to x + 1):
///
///     gx = (c + 2f + i) − (a + 2d + g)        a b c
///     gy = (g + 2h + i) − (a + 2b + c)        d e f
///                                             g h i
@inline(__always)
func sobelMagnitude(_ above: UnsafeMutablePointer<UInt8>, _ at: UnsafeMutablePointer<UInt8>,
                    _ below: UnsafeMutablePointer<UInt8>, _ x: Int) -> Int32 {
    let a = Int32(above[x &- 1]), b = Int32(above[x]), c = Int32(above[x &+ 1])
    let d = Int32(at[x &- 1]), f = Int32(at[x &+ 1])
    let g = Int32(below[x &- 1]), h = Int32(below[x]), i = Int32(below[x &+ 1])
    let gx = (c &+ 2 &* f &+ i) &- (a &+ 2 &* d &+ g)
    let gy = (g &+ 2 &* h &+ i) &- (a &+ 2 &* b &+ c)
    return abs(gx) &+ abs(gy)
}
