import CGStreamer
import FilterCamHost
import Synchronization

/// Counts the buffers that reach the pipeline's sinks once EOS has been sent. While they
/// still come (a slow encoder draining a long queue), the wait for EOS goes on: the 10 s
/// cap alone cut such a recording off before its index (`gst-launch-1.0 -e`, which waits
/// for good, finished the same file in 15 s).
final class DrainWatch: Sendable {
    private let arrived = Atomic<Int>(0)

    /// Watches the sink pads of every sink element among `elements`.
    init(elements: [UnsafeMutablePointer<GstElement>]) {
        for element in elements where (element.pointee.object.flags & GST_ELEMENT_FLAG_SINK.rawValue) != 0 {
            for pad in GStreamer.objects(of: gst_element_iterate_sink_pads(element), as: GstPad.self) {
                let data = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
                gst_pad_add_probe(pad, data, { _, _, watch in
                    Unmanaged<DrainWatch>.fromOpaque(watch!).takeUnretainedValue().arrived.add(1, ordering: .relaxed)
                    return GST_PAD_PROBE_OK
                }, Unmanaged.passRetained(self).toOpaque(), { watch in Unmanaged<DrainWatch>.fromOpaque(watch!).release() })
            }
        }
    }

    /// Buffers (or lists) that reached a sink since the watch began.
    var buffers: Int { arrived.load(ordering: .relaxed) }
}
