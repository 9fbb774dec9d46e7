import CGStreamer
import CFilterCamShim

/// A description whose link into or out of a FilterCam element failed before anything
/// ran: the cause is looked for in what the element on the other side offers or takes.
extension FormatProblem {
    /// The remedy for `error` (GStreamer's "could not link A to B[, B can't handle caps
    /// CAPS]") in `parsed`, the bin a description gave with its elements unlinked; every
    /// cause is named when none can be told. For a link between two other elements only a
    /// conversion is named, where one would fit (`conversionHint`); else nil: FilterCam's
    /// formats have nothing to do with it.
    package static func linkHint(in parsed: UnsafeMutablePointer<GstElement>, error: String) -> String? {
        if let failedLink = LinkError(error),
           let upstream = GstOwned(gst_bin_get_by_name(parsed.asBin, failedLink.upstream)),
           let downstream = GstOwned(gst_bin_get_by_name(parsed.asBin, failedLink.downstream)),
           fc_element_get_ctx(upstream.pointer) == nil && fc_element_get_ctx(downstream.pointer) == nil {
            return conversionHint(failedLink, upstream: upstream.pointer, downstream: downstream.pointer)
        }
        return linkProblem(in: parsed, error: error) ?? linkHint
    }

    /// Raw video in a format the next element does not take, where the size, rate and the
    /// rest would fit (a webcam's YUY2 into a pipeline file's `format=I420`, or into
    /// `x264enc`): GStreamer says only that the caps cannot be handled.
    private static func conversionHint(_ link: LinkError, upstream: UnsafeMutablePointer<GstElement>,
                                       downstream: UnsafeMutablePointer<GstElement>) -> String? {
        guard let pad = GstOwned(gst_element_get_static_pad(downstream, "sink")),
              let taken = GstOwned(gst_pad_query_caps(pad.pointer, nil)),
              let offered = link.caps.flatMap({ GstOwned(gst_caps_from_string($0)) }) ?? offers(of: upstream),
              case .unsupportedFormat(let format)? = FormatProblem(offered: offered.pointer, accepted: taken.pointer)
        else { return nil }
        let anyOffered = withoutFormats(offered.pointer), anyTaken = withoutFormats(taken.pointer)
        guard withExtendedLifetime((anyOffered, anyTaken), { gst_caps_can_intersect(anyOffered.pointer, anyTaken.pointer) != 0 })
        else { return nil }
        let takes = formats(in: taken.pointer).map { " (\(link.downstream) takes \($0.joined(separator: ", ")))" } ?? ""
        return "\(link.upstream) gives \(format), which \(link.downstream) does not take: put videoconvert between them\(takes)"
    }

    /// `caps` with the format of each structure left open.
    private static func withoutFormats(_ caps: UnsafeMutablePointer<GstCaps>) -> GstOwned<GstCaps> {
        let open = GstOwned(gst_caps_copy(caps)!)
        for i in 0..<gst_caps_get_size(open.pointer) { gst_structure_remove_field(gst_caps_get_structure(open.pointer, i), "format") }
        return open
    }

    private static func linkProblem(in parsed: UnsafeMutablePointer<GstElement>, error: String) -> String? {
        guard let failedLink = LinkError(error),
              let upstream = GstOwned(gst_bin_get_by_name(parsed.asBin, failedLink.upstream)),
              let downstream = GstOwned(gst_bin_get_by_name(parsed.asBin, failedLink.downstream)) else { return nil }
        // What filtercamsrc cannot give is its preset's to say, whichever side is ours.
        let cameraHint = GStreamer.factoryName(of: upstream.pointer) == CameraSourceElement.factoryName
            ? cameraSourceHint(failedLink.upstream, caps: failedLink.caps ?? "") : nil
        if fc_element_get_ctx(downstream.pointer) != nil {
            guard let pad = GstOwned(gst_element_get_static_pad(downstream.pointer, "sink")),
                  let accepted = GstOwned(gst_pad_get_pad_template_caps(pad.pointer)),
                  let offered = failedLink.caps.flatMap({ GstOwned(gst_caps_from_string($0)) }) ?? offers(of: upstream.pointer)
            else { return nil }
            guard let problem = FormatProblem(offered: offered.pointer, accepted: accepted.pointer) else {
                // A size or rate between filtercamsrc and the element (snapshot.pipeline's
                // 1280x720 after SOURCE=filtercamsrc) that the camera's preset does not give.
                return cameraHint ?? memoryHint(for: failedLink.downstream, offered: offered.pointer)
            }
            let hint = problem.hint(for: failedLink.downstream)
            // As the element words it when it refuses a format while running.
            guard case .unsupportedFormat = problem, let formats = formats(in: accepted.pointer) else { return hint }
            return "\(hint) (accepted formats: \(formats.joined(separator: ", ")))"
        }
        guard fc_element_get_ctx(upstream.pointer) != nil else { return nil }
        if let cameraHint { return cameraHint }
        let taken = GstOwned(gst_element_get_static_pad(downstream.pointer, "sink")).flatMap { GstOwned(gst_pad_query_caps($0.pointer, nil)) }
        // The element gives its input's format, and what follows takes none it can give
        // (`format=BGRx ! filtercam ! x264enc`): it said "the format or size is fixed".
        if let taken, let offered = offers(of: upstream.pointer),
           case .unsupportedFormat(let format)? = FormatProblem(offered: offered.pointer, accepted: taken.pointer) {
            let formats = formats(in: taken.pointer).map { " (\(failedLink.downstream) takes \($0.joined(separator: ", ")))" } ?? ""
            return "\(failedLink.upstream) gives frames in its input's format, \(format), which \(failedLink.downstream) does not take: "
                + "put videoconvert between them\(formats)"
        }
        return (taken.flatMap { encodedOnly(taken: $0.pointer) } ?? .refusedDownstream()).hint(for: failedLink.upstream)
    }

    /// What `filtercamsrc` cannot give (`caps`: what follows it takes, as the error quoted
    /// it): it gives its preset's size at 30 fps. Its hint named videoconvert ! videoscale
    /// for a frame rate too, which fails again, and never the preset.
    private static func cameraSourceHint(_ element: String, caps: String) -> String {
        var remedies: [String] = []
        if caps.contains("width") || caps.contains("height") {
            remedies.append("\(element) gives the size of its preset (preset=640x480, 1280x720, 1920x1080 or photo): "
                            + "choose the preset of that size, or put videoconvert ! videoscale after it")
        }
        if caps.contains("framerate"), !caps.contains("framerate=(fraction)30/1"), !caps.contains("framerate=30/1") {
            remedies.append("\(element) gives 30 fps: put videorate after it for another rate (… ! videorate ! video/x-raw,framerate=15/1)")
        }
        return remedies.isEmpty ? "\(element) gives raw video in its preset's size at 30 fps: put videoconvert ! videoscale after it for another format or size"
                                : remedies.joined(separator: "; ")
    }

    /// The formats the first structure of `caps` lists.
    private static func formats(in caps: UnsafeMutablePointer<GstCaps>) -> [String]? {
        guard gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0),
              let list = gst_structure_get_value(structure, "format") else { return nil }
        if list.pointee.g_type == fc_type_string() { return String(optionalCString: g_value_get_string(list)).map { [$0] } }
        return (0..<gst_value_list_get_size(list)).compactMap { String(optionalCString: g_value_get_string(gst_value_list_get_value(list, $0))) }
    }

    /// What `element`'s src pad can give.
    private static func offers(of element: UnsafeMutablePointer<GstElement>) -> GstOwned<GstCaps>? {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "src")) else { return nil }
        return GstOwned(gst_pad_query_caps(pad.pointer, nil))
    }

    /// GStreamer's words for a failed link, taken apart.
    private struct LinkError {
        let upstream: String, downstream: String
        /// The caps a caps filter between them asked for.
        let caps: String?

        init?(_ message: String) {
            guard let start = message.firstRange(of: "could not link ") else { return nil }
            var rest = Substring(message[start.upperBound...])
            var caps: String?
            if let handle = rest.firstRange(of: " can't handle caps ") {
                caps = String(rest[handle.upperBound...])
                rest = rest[..<handle.lowerBound]
                if let comma = rest.ranges(of: ", ").last { rest = rest[..<comma.lowerBound] }
            }
            guard let to = rest.firstRange(of: " to ") else { return nil }
            upstream = String(rest[..<to.lowerBound])
            downstream = String(rest[to.upperBound...])
            self.caps = caps
        }
    }
}
