/// An 8-bit grey picture owned by Swift (rows packed: stride == width), the input of the
/// face detector: a downscaled luma copy of an output frame, or that copy turned.
///
/// Grey is Rec.601 luma computed exactly as OpenCV's `cvtColor(…, COLOR_BGR2GRAY)` does
/// (fixed point, Y = (4899·R + 9617·G + 1868·B + 2¹³) >> 14), so at step 1 the detector
/// sees the same image as `cv2.imread → cvtColor → detectMultiScale` (the fixture refs).
/// Downscaling is by an integer `step`, sampling one pixel per step×step block: it reads
/// only 1/step² of the frame; on the face fixtures at step 2 it found the same faces as
/// a step×step box filter, and one false box fewer.
public struct GreyImage: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]
    /// How many frame pixels one grey pixel stands for along each axis.
    public let step: Int

    public init(width: Int, height: Int, pixels: [UInt8], step: Int = 1) {
        precondition(width > 0 && height > 0 && pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
        self.step = step
    }

    /// The largest integer step that keeps the frame's longer side at least
    /// `detectionWidth` long (0: no downscaling). Never upscales. At least, not at most: a
    /// 800-wide picture is searched whole (step 2 would lose its faces under 48 px), a
    /// 1280×720 frame at 640×360, and the same frame turned (720×1280) at 360×640, the
    /// same work: a turned camera is not searched four times slower.
    public static func step(frameWidth: Int, frameHeight: Int, detectionWidth: Int) -> Int {
        guard detectionWidth > 0 else { return 1 }
        return max(1, max(frameWidth, frameHeight) / detectionWidth)
    }

    /// A grey copy of `frame`, `step` times smaller on each axis: grey pixel (x, y) is the
    /// luma of frame pixel (x·step + step/2, y·step + step/2). The last `width % step`
    /// columns and `height % step` rows are left out.
    public init(frame: FrameView, step: Int) {
        precondition(step >= 1)
        let s = min(step, frame.width, frame.height)
        let w = frame.width / s, h = frame.height / s
        var out = [UInt8](repeating: 0, count: w * h)
        let rs = frame.format.redShift, bs = frame.format.blueShift
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                let src = frame.row(y &* s &+ s / 2) + s / 2
                let row = dst.baseAddress! + y &* w
                if s == 1 {
                    Self.lumaRow(src, count: w, redShift: rs, blueShift: bs, into: row)
                } else {
                    for x in 0..<w { row[x] = Self.luma(src[x &* s], redShift: rs, blueShift: bs) }
                }
            }
        }
        self.init(width: w, height: h, pixels: out, step: s)
    }

    @inline(__always)
    private static func luma(_ p: UInt32, redShift: UInt32, blueShift: UInt32) -> UInt8 {
        let r = (p >> redShift) & 0xFF, g = (p >> 8) & 0xFF, b = (p >> blueShift) & 0xFF
        return UInt8(truncatingIfNeeded: (r &* 4899 &+ g &* 9617 &+ b &* 1868 &+ 8192) >> 14)
    }

    @inline(__always)
    private static func lumaRow(_ src: UnsafeMutablePointer<UInt32>, count: Int, redShift: UInt32, blueShift: UInt32,
                                into dst: UnsafeMutablePointer<UInt8>) {
        for x in 0..<count { dst[x] = luma(src[x], redShift: redShift, blueShift: blueShift) }
    }

    /// This picture transformed by `method` (videoflip semantics, see `OrientationMethod`).
    public func oriented(_ method: OrientationMethod) -> GreyImage {
        if method == .identity { return self }
        let (w, h) = method.outputSize(width: width, height: height)
        let o = method.sourcePixel(x: 0, y: 0, inputWidth: width, inputHeight: height)
        let ox = method.sourcePixel(x: 1, y: 0, inputWidth: width, inputHeight: height)
        let oy = method.sourcePixel(x: 0, y: 1, inputWidth: width, inputHeight: height)
        let dx = (ox.x - o.x) + (ox.y - o.y) * width
        let dy = (oy.x - o.x) + (oy.y - o.y) * width
        let origin = o.y * width + o.x
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    var i = origin &+ y &* dy
                    let row = dst.baseAddress! + y &* w
                    for x in 0..<w {
                        row[x] = src[i]
                        i &+= dx
                    }
                }
            }
        }
        return GreyImage(width: w, height: h, pixels: out, step: step)
    }
}
