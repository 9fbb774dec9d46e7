import CFilterCamShim

/// How a filter element's output caps follow its input caps, as videoflip's and
/// videocrop's `transform_caps` say it: the shell answers CAPS queries on the element's
/// pads with the far side's caps carried across this (`fc_caps_across_geometry`).
struct CapsGeometry: OptionSet, Sendable {
    let rawValue: Int32
    /// A 90° turn: width and height (and the pixel aspect ratio) swap.
    static let swapsAxes = CapsGeometry(rawValue: FC_CAPS_SWAPS_AXES)
    /// A lens crop: each side the lens's share of the (turned) input's
    /// (`SwiftElement.lensCropLength`, `lensCropRange`).
    static let lensCrop = CapsGeometry(rawValue: FC_CAPS_LENS_CROP)
}
