/// A filter that also works on YUV planes natively, in place (the host copies first when
/// the frame's memory is shared). Filters without it take RGB frames only: their
/// `fc<id>` elements offer RGB caps only, and `filtercam` refuses a YUV stream for a chain
/// that contains one. Every catalog filter conforms; filters added through the public API
/// (`FilterCamPlugin.register(filter:)`, e.g. the pixelate example) may not.
public protocol YUVFilter: FrameFilter {
    func apply(to frame: YUVFrame)
    /// How close the YUV result is to the RGB result taken through videoconvert (shown by
    /// `filtercam filters ID`, checked by the element tests).
    var yuvTolerance: String { get }
}

extension Array where Element == any FrameFilter {
    /// The chain on a YUV frame, in place; every filter must be a `YUVFilter`.
    public func apply(to frame: YUVFrame) {
        for f in self { (f as! any YUVFilter).apply(to: frame) }
    }

    /// Whether every filter of the chain works on YUV frames.
    public var workOnYUV: Bool { allSatisfy { $0 is any YUVFilter } }
}

extension FilterDescriptor {
    /// Whether the filter works on YUV frames (I420, NV12, YUY2, UYVY) natively.
    public var worksOnYUV: Bool { make(defaultValues) is any YUVFilter }

    /// The YUV path's stated tolerance; nil for filters that work on RGB only.
    public var yuvTolerance: String? { (make(defaultValues) as? any YUVFilter)?.yuvTolerance }
}
