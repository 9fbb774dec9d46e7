/// `none`: the unfiltered picture. A chain of only `none` is the identity, and the host
/// passes buffers through without touching (or copying) them.
final class NoneFilter: FrameFilter {
    static let descriptor = FilterDescriptor(
        id: "none", title: "None", summary: "The unfiltered picture",
        make: { _ in NoneFilter() })
    func apply(to frame: FrameView) {}
}
