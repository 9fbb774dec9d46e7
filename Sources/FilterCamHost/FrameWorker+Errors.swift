import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// Errors worded for the user: inner errors re-posted by the element, and formats or
/// caps the element cannot process.
extension FrameWorker {
    /// The accepted formats, for messages.
    private var formatNames: String { formats.joined(separator: ", ") }

    /// The inner appsink's EOS is ours, not the pipeline's.
    /// An ERROR or WARNING from the inner appsink/appsrc is re-posted by the element itself,
    /// so the user reads "filtercam0", not "filtercam0-out". (Other inner messages are
    /// dropped by the shell.)
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let source = UnsafeMutableRawPointer(message.pointee.src)
        let inner = source == UnsafeMutableRawPointer(appsink) || source == UnsafeMutableRawPointer(appsrc)
        guard inner else { return false }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            return source == UnsafeMutableRawPointer(appsink)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            guard let problem = BusProblem(message) else { return false }
            let isError = problem.isError, text = problem.text(or: "internal error"), detail = problem.detail
            let name = GStreamer.name(of: element)
            // From the appsrc, not-negotiated means downstream takes none of what we give:
            // compressed video only, or a fixed format or size.
            let hint = text.contains("not-negotiated") || (detail ?? "").contains("not-negotiated")
                ? " (\((FormatProblem.downstreamProblem(srcPad) ?? refusedDownstream).hint(for: name)))" : ""
            let report = "\(name): \(text)\(hint)"
            if isError { fc_post_error(element, report, detail) } else { fc_post_warning(element, report, detail) }
            return true
        default:
            return false
        }
    }

    /// Frames downstream refused: the caps the appsrc gives and what follows takes, named.
    private var refusedDownstream: FormatProblem {
        let given = GstOwned(gst_app_src_get_caps(appsrc.asAppSrc))
        let taken = GstOwned(gst_pad_peer_query_caps(srcPad, nil))
        let gives = given.flatMap { FormatProblem.frameShape($0.pointer) }
        let takes = taken.flatMap { FormatProblem.frameShape($0.pointer) }
        var fitsNext = false
        if let given, let taken { fitsNext = gst_caps_can_intersect(given.pointer, taken.pointer) != 0 }
        let next = GstOwned(gst_element_get_static_pad(element, "src")).flatMap { GstOwned(gst_pad_get_peer($0.pointer)) }
            .flatMap { GstOwned(gst_pad_get_parent_element($0.pointer)) }
        let scaler = next.flatMap { next in
            ["videoscale", "videoconvertscale"].contains(GStreamer.factoryName(of: next.pointer) ?? "") ? GStreamer.name(of: next.pointer) : nil
        }
        return .refusedDownstream(gives: gives, takes: takes, scaler: scaler, fitsNext: fitsNext)
    }

    /// Reads the input format when the caps change; reports caps we cannot use.
    func adopt(caps: UnsafeMutablePointer<GstCaps>, stream: inout StreamState) -> Bool {
        let (usable, changed) = stream.adopt(caps)
        if !usable && changed {
            let name = GStreamer.name(of: element)
            let accepted = acceptedCaps
            let hint = FormatProblem(offered: caps, accepted: accepted.pointer)?.hint(for: name)
                ?? "it takes progressive raw video in \(formatNames)"
            fc_post_error(element, "\(name) cannot process frames in caps \(GStreamer.describe(caps)): \(hint)", nil)
        }
        return usable
    }

    /// Whether upstream could send something of `accepted`: then a format refused now is
    /// only the one it had (the element linked into a running pipeline: its sticky caps come
    /// first), and upstream picks again; an ERROR there stopped a stream that was fine.
    func upstreamCanOffer(_ accepted: UnsafeMutablePointer<GstCaps>) -> Bool {
        guard let possible = GstOwned(gst_pad_peer_query_caps(sinkPad, accepted)) else { return false }
        return gst_caps_is_empty(possible.pointer) == 0
    }

    /// Whether the pad upstream of the element is a bin's (a ghost pad, or the proxy pad
    /// inside one): its queries go through the bin, which may hold a lock of its own while
    /// it negotiates.
    var upstreamIsABin: Bool {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "sink")),
              let peer = GstOwned(gst_pad_get_peer(pad.pointer)) else { return false }
        return g_type_check_instance_is_a(UnsafeMutableRawPointer(peer.pointer).assumingMemoryBound(to: GTypeInstance.self),
                                          gst_proxy_pad_get_type()) != 0
    }

    /// The caps the element takes (its pad templates'), for `FormatProblem`.
    var acceptedCaps: GstOwned<GstCaps> { GstOwned(gst_caps_from_string(Self.caps(formats: formats))!) }

    /// Posts (once per stream) the error that names the cause and the remedy.
    func refuse(_ problem: FormatProblem) {
        guard !refusedFormat.exchange(true, ordering: .relaxed) else { return }
        let text = "\(problem.hint(for: GStreamer.name(of: element))) (accepted formats: \(formatNames))"
        log.error(element, text)
        fc_post_error(element, text, nil)
    }
}
