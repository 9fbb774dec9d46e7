import CGStreamer
import CFilterCamShim
import Synchronization

/// `num-buffers`, counted where frames leave the bin, as a `GstBaseSrc` counts it: after
/// the 30 fps `videorate`, which adds frames of its own (it fills from the segment's
/// start when a live camera's first frame comes late, and repeats the last one at EOS),
/// and across camera switches. Counted at the camera instead, `FRAMES=60` made 61 or 62
/// frames in a file, more on a loaded machine.
extension CameraSourceElement {
    /// Counts the frames leaving the preset's caps filter; the one after the last
    /// answers EOS, so the camera's source stops and sends EOS down (as it does at its
    /// own num-buffers) and `videorate`'s frame at EOS goes the same way.
    func countFramesOut() {
        let pad = GstOwned(gst_element_get_static_pad(capsFilter, "src")!)
        gst_pad_add_probe(pad.pointer, GST_PAD_PROBE_TYPE_BUFFER, { _, info, data in
            let me = Unmanaged<CameraSourceElement>.fromOpaque(data!).takeUnretainedValue()
            if me.frameAllowed() { return GST_PAD_PROBE_OK }
            // HANDLED: the buffer is the probe's to release, and the flow it sets goes back.
            if let info, let buffer = fc_probe_info_buffer(info) {
                gst_mini_object_unref(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self))
                info.pointee.ABI.abi.flow_ret = GST_FLOW_EOS
            }
            return GST_PAD_PROBE_HANDLED
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// True while fewer than `num-buffers` frames have left (always, for -1).
    private func frameAllowed() -> Bool {
        let limit = settings.withLock { $0.numBuffers }
        guard limit >= 0 else { return true }
        return framesOut.add(1, ordering: .relaxed).newValue <= limit
    }
}
