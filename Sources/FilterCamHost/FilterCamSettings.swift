import FilterCore

/// What the user set on a `filtercam` element: read once per frame by the worker
/// (copied out under the lock, so a frame always sees one consistent setting), apart
/// from what was negotiated or learnt from the stream (`StreamState`).
struct FilterCamSettings: Sendable {
    static let defaultFilter = "none"
    static let defaultIntensity = 0.8
    static let defaultMaxZoom = 8.0
    /// `orientation=auto`: GstVideoOrientationMethod's GST_VIDEO_ORIENTATION_AUTO.
    static let autoOrientation = 8

    var filterText = defaultFilter
    var chain = FilterChain.none
    /// Counts each time `filter` or `looks` is set: the filters are made afresh then, even
    /// for the same text, so a look file saved again (or a `look:NAME` another folder gave)
    /// is what the next frame shows.
    var filterSets = 0
    var intensity = defaultIntensity
    /// `intensity` overrides a filter's own default only once it has been set: so
    /// `filter=sepia` is CISepiaTone's 0.8 and `filter=invert` a full inversion.
    var intensityIsSet = false

    var lens = LensRect.full
    var lensCrop = false
    /// GstVideoOrientationMethod value: 0…7 a fixed transform, 8 = auto.
    var orientation = 0
    var device = DeviceOrientationTracker()
    var cameraFacing = CameraFacing.back
    var zoom = 1.0
    /// The zoom last set, before clamping: a `max-zoom` set after it in a description
    /// clamps this one again.
    var zoomAsked = 1.0
    var maxZoom = defaultMaxZoom
    /// Whether the preview window's mouse and keys drive the element.
    var navigation = true
    /// On-screen display for a preview window, and whether the lens is always outlined.
    var osd = false
    var lensOutline = false
    /// The folder of looks the `looks` property added to the catalog.
    var looksFolder: String?
    /// The effects gallery is shown instead of the picture.
    var gallery = false

    /// The chain as applied: the `intensity` shortcut folded in.
    var effectiveChain: FilterChain { intensityIsSet ? chain.withStrength(intensity) : chain }

    /// The transform in use: the fixed one, or for `auto` the stream's tag (`StreamState`),
    /// else the device's.
    func effectiveOrientation(tag: OrientationMethod?) -> OrientationMethod {
        if orientation != Self.autoOrientation {
            return OrientationMethod(rawValue: orientation) ?? .identity
        }
        if let tag { return tag }
        return device.method(facing: cameraFacing)
    }

    /// The transform that shows the input upright for how the device is held, nil while
    /// the device has not said (`face-orientations=auto` then searches every roll).
    var deviceUpright: OrientationMethod? {
        device.lastKnown == nil ? nil : device.method(facing: cameraFacing)
    }
}
