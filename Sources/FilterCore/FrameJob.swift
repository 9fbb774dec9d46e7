/// What to do with one frame, decided once per frame from a consistent snapshot of the
/// settings, so that the output size and the pixels always agree.
public struct FrameJob {
    public enum Work {
        /// The frame goes on untouched (no map, no copy).
        case passthrough
        /// The frame is changed in place (same size) when its memory is writable; when it
        /// is shared (e.g. after `imagefreeze`), `copying` writes the result into new
        /// memory in one pass instead of copying first.
        case inPlace(_ inPlace: (FrameView) -> Void, copying: (_ source: FrameView, _ destination: FrameView) -> Void)
        /// A new frame of the output size is written from the input.
        case render((_ source: FrameView, _ destination: FrameView) -> Void)
        /// YUV frames: changed in place (the host makes the memory writable, copying
        /// when it is shared), or rendered into a new frame of the output size.
        case yuvInPlace((YUVFrame) -> Void)
        /// YUV frames only read (a still, a recording's copy): mapped for reading as they
        /// are, never copied, even when their memory is shared.
        case yuvRead((YUVFrame) -> Void)
        case yuvRender((_ source: YUVFrame, _ destination: YUVFrame) -> Void)

        /// Whether the frame goes on untouched.
        public var isPassthrough: Bool {
            if case .passthrough = self { return true }
            return false
        }
    }

    public let outputWidth: Int
    public let outputHeight: Int
    public let work: Work
    /// The geometry the output is made with, when it is not the input's (a turn, zoom or
    /// lens crop): the host turns the pixel aspect ratio and the metas with it.
    public let geometry: GeometryPlan?

    public init(outputWidth: Int, outputHeight: Int, work: Work, geometry: GeometryPlan? = nil) {
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.work = work
        self.geometry = geometry
    }

    /// Whether the output is the input turned by 90° (width and height swapped).
    public var swapsAxes: Bool { geometry?.method.swapsAxes ?? false }

    public static func passthrough(width: Int, height: Int) -> FrameJob {
        FrameJob(outputWidth: width, outputHeight: height, work: .passthrough)
    }
}

/// The shape of an input frame, as the host negotiated it.
public struct FrameShape: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let format: FrameFormat
    public init(width: Int, height: Int, format: FrameFormat) {
        self.width = width
        self.height = height
        self.format = format
    }
}
