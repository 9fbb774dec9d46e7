import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost

/// Live commands that would change the picture's size while a file is being written.
/// An MP4 (or Matroska, AVI) file has one picture size: `rotate` during
/// `record.pipeline` left frames of 640x480 then 480x640 in one track, played squashed
/// and with decode errors, the command answered as if all was well. Such a change is
/// refused with the reason; turns that keep the shape, mirrors, filters, zoom and moving
/// a cropped lens still work. (The element's own recording, `record` or `v`, letterboxes
/// a turned picture into its file.)
extension PipelineSession {
    /// Muxers that write one picture size per file (splitmuxsink holds one of them).
    static let oneSizeMuxers = ["mp4mux", "qtmux", "3gppmux", "mj2mux", "ismlmux", "isofmp4mux", "cmafmux",
                                "matroskamux", "webmmux", "avimux", "splitmuxsink"]

    /// Throws when setting `property` of `element` to `value` would change the size of the
    /// pictures it sends to such a muxer.
    func refuseSizeChangeIntoAFile(_ element: UnsafeMutablePointer<GstElement>, _ property: String, _ value: String) throws {
        if property == "preset" && Pipeline.factoryName(of: element) == CameraSourceElement.factoryName {
            // The camera's size (`set filtercamsrc0.preset=1280x720` during record.pipeline
            // left 640x480 then 1280x720 frames in one track); a camera switch keeps it.
            guard let now = Pipeline.property(element, "preset"), now != value,
                  let muxer = Self.oneSizeMuxer(downstreamOf: element) else { return }
            throw ControlError("preset \(value) would change the camera's picture size (preset \(now) now) in the middle of the file "
                               + "\(muxer) writes (one picture size a file): refused. A camera switch keeps the size")
        }
        guard PictureShape.properties.contains(property) else { return }
        let now = PictureShape(of: element)
        let next = PictureShape(of: element, setting: property, to: value)
        guard next != now, !(next.differsOnlyByTurn(from: now) && Self.givesSquarePictures(element)),
              let muxer = Self.oneSizeMuxer(downstreamOf: element) else { return }
        let what = PictureShape.turnProperties.contains(property)
            ? "\(property) \(value) would turn the picture's width into its height"
            : "this lens would crop the picture to another size"
        throw ControlError("\(what) in the middle of the file \(muxer) writes (one picture size a file): refused. "
                           + "Mirrors and 180° turns, filters, zoom and moving the lens work; to record turned pictures, "
                           + "the element's own recording (record=true, v in the window) letterboxes them")
    }

    /// Whether the element's pictures are square now: a quarter turn keeps their size (it
    /// was refused for a 240x240 picture, said to turn its width into its height).
    private static func givesSquarePictures(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "src")), let caps = GstOwned(gst_pad_get_current_caps(pad.pointer)),
              gst_caps_get_size(caps.pointer) > 0 else { return false }
        let structure = gst_caps_get_structure(caps.pointer, 0)
        var width: gint = 0, height: gint = 0
        return gst_structure_get_int(structure, "width", &width) != 0 && gst_structure_get_int(structure, "height", &height) != 0
            && width == height
    }

    private static func oneSizeMuxer(downstreamOf element: UnsafeMutablePointer<GstElement>) -> String? {
        var names = oneSizeMuxers.map { UnsafePointer<CChar>(strdup($0)) }
        defer { names.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        names.append(nil)
        return String(takingGLib: fc_downstream_element_of_factory(element, names))
    }
}

/// What decides the size of the pictures a FilterCam element sends: whether the transform
/// it applies swaps width and height, and the size of its lens when it crops to it.
struct PictureShape: Equatable {
    /// The settings that decide the turn: with `orientation=auto` the device's orientation
    /// does too (`set device-orientation=portrait` turned the picture mid-file, past this check).
    static let turnProperties: Set<String> = ["orientation", "video-direction", "device-orientation", "camera-facing"]
    static let properties = turnProperties.union(["lens", "lens-crop"])

    private var swapsAxes: Bool
    private var crops: Bool
    private var lens: String

    /// The shape now, or were `property` set to `value` (a value the element would refuse
    /// changes nothing here: the element's own refusal is the answer then).
    init(of element: UnsafeMutablePointer<GstElement>, setting property: String? = nil, to value: String? = nil) {
        let control = ElementControl(element)
        let now = control.appliedOrientation ?? "identity"
        var applied = now
        if let property, let value, Self.turnProperties.contains(property) {
            applied = control.appliedOrientation(setting: property, to: value) ?? now
        }
        swapsAxes = OrientationMethod(nick: applied)?.swapsAxes ?? false
        crops = Pipeline.property(element, "lens-crop") == "true"
        lens = Pipeline.property(element, "lens") ?? ""
        switch (property, value) {
        case ("lens-crop", let value?): crops = ["true", "1", "yes"].contains(value.lowercased())
        case ("lens", let value?): lens = value
        default: break
        }
    }

    /// The lens's width and height when it crops (its place does not change the size).
    private var cropSize: [Double]? {
        guard crops else { return nil }
        guard let rect = try? LensRect(parsing: lens) else { return [] }
        if rect == .full { return nil }   // the whole picture: no crop
        return [rect.w, rect.h].map { ($0 * 1e6).rounded() }
    }

    static func == (a: PictureShape, b: PictureShape) -> Bool { a.swapsAxes == b.swapsAxes && a.cropSize == b.cropSize }

    /// Whether only the turn differs (the crop is the same).
    func differsOnlyByTurn(from other: PictureShape) -> Bool { cropSize == other.cropSize && swapsAxes != other.swapsAxes }
}
