import CGStreamer
import CFilterCamShim
import FilterCore

/// Why frames cannot enter or leave a FilterCam element, and what a user puts where: the
/// one place these hints are worded. The elements' errors and `filtercam launch`'s hints
/// name the cause they found, and each cause has its own remedy.
package enum FormatProblem: Equatable, Sendable {
    /// Compressed frames (`image/jpeg`, `video/x-h264`, …): a decoder goes in front.
    case encoded(media: String)
    /// Raw video in a format the element does not take: `videoconvert` goes in front.
    case unsupportedFormat(String)
    /// A filter of the chain has no path for the frames' format: RGB frames go in.
    case rgbOnly(format: String)
    /// Interlaced frames: `deinterlace` goes in front.
    case interlaced
    /// What the element gives fits nothing downstream takes (a fixed format or size after
    /// it, e.g. caps that do not follow a turn or a crop): convert and scale after it.
    /// `gives` and `takes` say both sides where they are known ("160x120 BGRx");
    /// `scaler`: the element right after it already scales (videoscale0), so the size is
    /// fixed further down (an encoder into a file keeps the size it started with).
    /// `fitsNext`: what follows the element takes what it gives, so an element further
    /// down refused (behind a `queue`, which passes on the refusal it got).
    case refusedDownstream(gives: String? = nil, takes: String? = nil, scaler: String? = nil, fitsNext: Bool = false)
    /// What follows the element takes compressed frames only (`image/jpeg`, …): an encoder
    /// goes after it.
    case encodedDownstream(media: String)

    /// The remedy for `element` (its name), in words for a user.
    package func hint(for element: String) -> String {
        switch self {
        case .encoded(let media):
            return "\(element) takes raw video, not \(media): put a decoder in front of it (\(Self.decoder(for: media)))"
        case .unsupportedFormat(let format):
            return "\(element) cannot take \(format) frames: put videoconvert in front of it"
        case .rgbOnly(let format):
            return "put videoconvert ! video/x-raw,format=BGRx in front of \(element) (a filter of its chain cannot work on \(format) planes)"
        case .interlaced:
            return "\(element) takes progressive frames: put deinterlace in front of it"
        case .refusedDownstream(let gives, _, _, true):
            return "what follows \(element) takes its frames\(gives.map { " (\($0))" } ?? ""), so an element further downstream "
                + "refused them: a format or size fixed there, or changed there while playing (GST_DEBUG=*:3 names the element)"
        case .refusedDownstream(let gives, let takes, let scaler, false):
            let sides = gives.map { gives in
                " (\(element) gives \(gives)" + (takes.map { ", what follows it takes \($0)" } ?? "") + ")"
            } ?? ""
            if let scaler {
                // "put videoconvert ! videoscale after it" where one was already.
                return "the size is fixed past \(scaler), further down, and \(element)'s frames do not fit\(sides): an element there "
                    + "keeps the size it started with (an encoder into a file does); change the size before the start, "
                    + "or record with the element's own recording (record=true), which letterboxes"
            }
            return "the format or size after \(element) is fixed and its frames do not fit\(sides): put videoconvert ! videoscale after it, or ask for the size it gives"
        case .encodedDownstream(let media) where !media.hasPrefix("video/") && !media.hasPrefix("image/"):
            // No encoder turns video into audio (it said "put an encoder after it").
            return "what follows \(element) takes \(media), not video: \(element) gives raw video, for a video element or a video encoder"
        case .encodedDownstream(let media):
            return "what follows \(element) takes \(media), not raw video: put an encoder after it (\(Self.encoder(for: media)))"
        }
    }

    /// The hint when a description's link failed before anything ran (the caps are not
    /// known yet, so every cause is named).
    package static let linkHint = "FilterCam elements take raw video in \(FrameFormat.allNames.joined(separator: ", ")) "
        + "(filters added without a YUV path: RGB only): put a decoder in front of compressed video, 'videoconvert !' in front "
        + "of other raw formats, and 'videoconvert ! videoscale' after them where a format or size is fixed"


    /// The encoder to name for `media`.
    static func encoder(for media: String) -> String {
        switch media {
        case "image/jpeg": "jpegenc"
        case "image/png": "pngenc"
        case "video/x-h264": "videoconvert ! x264enc"
        default: "an encoder for it"
        }
    }

    /// What downstream of `pad` takes, when it is compressed video only (nil: raw video
    /// fits, or nothing can be said).
    package static func downstreamProblem(_ pad: UnsafeMutablePointer<GstPad>) -> FormatProblem? {
        GstOwned(gst_pad_peer_query_caps(pad, nil)).flatMap { encodedOnly(taken: $0.pointer) }
    }

    /// `.encodedDownstream` when `taken` (what an element after a FilterCam element takes)
    /// holds compressed video only.
    static func encodedOnly(taken: UnsafeMutablePointer<GstCaps>) -> FormatProblem? {
        guard gst_caps_is_any(taken) == 0, gst_caps_get_size(taken) > 0 else { return nil }
        let media = (0..<gst_caps_get_size(taken)).map { String(cString: gst_structure_get_name(gst_caps_get_structure(taken, $0))) }
        guard !media.contains("video/x-raw"), let first = media.first else { return nil }
        return .encodedDownstream(media: first)
    }

    /// A frame size and format for messages ("160x120 BGRx", "320x240", "3 wide", "I420"):
    /// the first structure's fixed fields of `caps` (of a list of sizes, the first, which is
    /// the one preferred); nil when it fixes none of them.
    package static func frameShape(_ caps: UnsafeMutablePointer<GstCaps>) -> String? {
        guard gst_caps_is_any(caps) == 0, gst_caps_get_size(caps) > 0, let s = gst_caps_get_structure(caps, 0) else { return nil }
        func first(_ field: String) -> Int? {
            guard var value = gst_structure_get_value(s, field) else { return nil }
            if value.pointee.g_type == gst_value_list_get_type() {
                guard gst_value_list_get_size(value) > 0, let head = gst_value_list_get_value(value, 0) else { return nil }
                value = head
            }
            return value.pointee.g_type == fc_type_int() ? Int(g_value_get_int(value)) : nil
        }
        let width = first("width"), height = first("height")
        let size = width.flatMap { w in height.map { "\(w)x\($0)" } } ?? width.map { "\($0) wide" } ?? height.map { "\($0) high" }
        let format = gst_structure_get_string(s, "format").map { String(cString: $0) }
        let parts = [size, format].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The decoder to name for `media`.
    static func decoder(for media: String) -> String {
        switch media {
        case "image/jpeg": "jpegdec, or decodebin"
        case "image/png": "pngdec, or decodebin"
        default: "decodebin"
        }
    }

    /// What is wrong with every structure of `offered` for an element that takes
    /// `accepted`; nil when one of them fits (or nothing can be said: ANY, empty, caps in
    /// memory other than system memory, a raw format still open).
    package init?(offered: UnsafeMutablePointer<GstCaps>, accepted: UnsafeMutablePointer<GstCaps>) {
        let n = gst_caps_get_size(offered)
        guard n > 0, gst_caps_is_any(offered) == 0 else { return nil }
        var found: [FormatProblem] = []
        for i in 0..<n {
            guard let structure = gst_caps_get_structure(offered, i) else { return nil }
            let one = GstOwned(gst_caps_copy_nth(offered, i)!)
            if gst_caps_can_intersect(one.pointer, accepted) != 0 {
                // Raw video we take: fine unless interlaced (the caps allow any interlace mode).
                guard let mode = gst_structure_get_string(structure, "interlace-mode").map({ String(cString: $0) }),
                      mode != "progressive" else { return nil }
                found.append(.interlaced)
                continue
            }
            let media = String(cString: gst_structure_get_name(structure))
            guard media == "video/x-raw" else {
                found.append(.encoded(media: media))
                continue
            }
            if let features = gst_caps_get_features(offered, i), gst_caps_features_is_any(features) != 0 ||
                (gst_caps_features_get_size(features) > 0 && gst_caps_features_contains(features, "memory:SystemMemory") == 0) {
                return nil
            }
            guard let format = gst_structure_get_string(structure, "format").map({ String(cString: $0) }) else { return nil }
            found.append(.unsupportedFormat(format))
        }
        // videoconvert is enough when any raw video comes; a decoder only when none does.
        guard let problem = found.first(where: { if case .unsupportedFormat = $0 { true } else { false } })
                ?? found.first(where: { $0 == .interlaced }) ?? found.first else { return nil }
        self = problem
    }

    /// What to put in front of element `name` when none of what upstream offers is in
    /// system memory (GL textures after `glupload`, DMABuf); nil otherwise. The generic
    /// hint named a decoder and videoconvert, which do not help there.
    package static func memoryHint(for name: String, offered: UnsafeMutablePointer<GstCaps>) -> String? {
        var memory: String?
        for i in 0..<gst_caps_get_size(offered) {
            guard let features = gst_caps_get_features(offered, i), gst_caps_features_is_any(features) == 0,
                  gst_caps_features_get_size(features) > 0,
                  gst_caps_features_contains(features, "memory:SystemMemory") == 0 else { return nil }
            memory = memory ?? gst_caps_features_get_nth(features, 0).map { String(cString: $0) }
        }
        guard let memory else { return nil }
        let fix = memory == "memory:GLMemory" ? "gldownload" : "an element that gives system memory"
        return "\(name) takes video in system memory, and upstream gives only \(memory): put \(fix) in front of it"
    }

    /// For a FilterCam element that got no input caps, what to put in front of it: the
    /// cause found in what its upstream offers, or every cause when nothing can be said.
    package static func inputHint(_ name: String, _ element: UnsafeMutablePointer<GstElement>) -> String? {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "sink")),
              GstOwned(gst_pad_get_current_caps(pad.pointer)) == nil else { return nil }
        let accepted = GstOwned(gst_pad_get_pad_template_caps(pad.pointer))
        if let accepted, let offered = GstOwned(gst_pad_peer_query_caps(pad.pointer, nil)) {
            if let problem = FormatProblem(offered: offered.pointer, accepted: accepted.pointer) {
                return problem.hint(for: name)
            }
            if let hint = memoryHint(for: name, offered: offered.pointer) { return hint }
            // Upstream offers what the element takes, but what the element would make of
            // it (its CAPS query asks downstream) fits nothing after it.
            if let through = GstOwned(gst_pad_query_caps(pad.pointer, offered.pointer)), gst_caps_is_empty(through.pointer) != 0,
               let src = GstOwned(gst_element_get_static_pad(element, "src")) {
                return (downstreamProblem(src.pointer) ?? .refusedDownstream()).hint(for: name)
            }
        }
        return FormatProblem.linkHint
    }
}
