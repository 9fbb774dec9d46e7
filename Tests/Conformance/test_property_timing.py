"""When a property change shows in the frames: from the frame that arrives as it is set,
as in a stock filter, also when earlier frames still wait for FilterCam's worker, and
controlled properties (GstController) at each frame's own time.

A stock filter transforms a frame on the thread that brought it, so a property set from a
probe on its sink pad as frame N arrives applies from N on. FilterCam hands frames to a
worker: the settings are copied as each frame arrives and kept with it.
"""
import tempfile
import threading
import unittest

from support import Gst, GstController, element_messages_until_eos, require_plugin, run_to_eos, sink_pad

require_plugin()

FRAMES = 10
CHANGED_AT = 4


def first_byte(buffer):
    ok, info = buffer.map(Gst.MapFlags.READ)
    try:
        return info.data[0]
    finally:
        buffer.unmap(info)


def play_changing_at_frame(description, change, caps="video/x-raw,format=I420"):
    """Plays FRAMES white frames through DESCRIPTION (its FilterCam element named fc)
    into a fakesink; CHANGE(fc) runs from a probe on fc's sink pad as frame CHANGED_AT
    arrives. fc's first output frame is held downstream until then, so frames before
    CHANGED_AT wait inside the element at the change (the worker blocked on its one-frame
    output queue, the frame before CHANGED_AT in its mailbox). Returns the first byte of
    each output frame and the structures of the element messages, in order."""
    pipeline = Gst.parse_launch(
        f"videotestsrc pattern=white num-buffers={FRAMES} ! {caps},width=32,height=24,framerate=30/1 ! "
        f"{description} ! fakesink name=sink")
    fc = pipeline.get_by_name("fc")
    arrived = 0
    changed = threading.Event()

    def on_arrival(pad, info):
        nonlocal arrived
        if arrived == CHANGED_AT:
            change(fc)
            changed.set()
        arrived += 1
        return Gst.PadProbeReturn.OK

    out = []

    def on_output(pad, info):
        if not out:
            changed.wait(20)
        out.append(first_byte(info.get_buffer()))
        return Gst.PadProbeReturn.OK
    fc.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_arrival)
    fc.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_output)
    try:
        said = element_messages_until_eos(pipeline)
    finally:
        pipeline.set_state(Gst.State.NULL)
    assert changed.is_set(), "the change was never made"
    return out, said


def jpeg_size(path):
    """(width, height) from a JPEG's start-of-frame marker."""
    data = open(path, "rb").read()
    i = 2
    while i < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xC3:
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    raise AssertionError(f"{path}: no start of frame")


class PropertySetAsAFrameArrives(unittest.TestCase):
    def test_applies_from_the_frame_that_arrived_as_it_was_set(self):
        for element, prop, value in [("filtercam", "filter", "invert"), ("fcinvert intensity=0", "intensity", 1.0)]:
            for caps in ["video/x-raw,format=BGRx", "video/x-raw,format=I420"]:
                with self.subTest(element=element, caps=caps):
                    out, _ = play_changing_at_frame(f"{element} name=fc", lambda fc: fc.set_property(prop, value), caps)
                    self.assertEqual(len(out), FRAMES)
                    # White is 255 in BGRx, luma 235 in I420; inverted 0 and 16.
                    inverted = [b < 128 for b in out]
                    self.assertEqual(inverted, [False] * CHANGED_AT + [True] * (FRAMES - CHANGED_AT), out)

    def test_a_still_asked_for_after_a_turn_is_taken_from_a_frame_that_came_after_both(self):
        """A turn, then a still, as frame 4 arrives (the frames before it still inside):
        the still is frame 4, turned; not frame 3, which waited with the settings of before."""
        folder = tempfile.mkdtemp(prefix="fc-timing-")

        def turn_and_snap(fc):
            fc.set_property("orientation", "90r")
            fc.emit("snapshot")
        _, said = play_changing_at_frame(
            f"filtercam name=fc flash=false snapshot-location={folder}/s-%d.jpg", turn_and_snap)
        started = [m for m in said if m.get_name() == "snapshot-started"]
        saved = [m for m in said if m.get_name() == "snapshot-saved"]
        self.assertEqual(len(started), 1, said)
        self.assertEqual(len(saved), 1, said)
        self.assertEqual(started[0].get_value("timestamp"), Gst.util_uint64_scale(CHANGED_AT, Gst.SECOND, 30))
        self.assertEqual(jpeg_size(saved[0].get_value("path")), (24, 32))


class ControlledProperty(unittest.TestCase):
    def test_intensity_follows_each_frames_time(self):
        """Invert's intensity goes 0 → 1 over one second; each frame of grey 64 comes out
        as 64 + 127·intensity at its own timestamp (by hand), whatever waits in the worker."""
        for element in ["fcinvert", "filtercam filter=invert"]:
            with self.subTest(element=element):
                pipeline = Gst.parse_launch(
                    "videotestsrc pattern=solid-color foreground-color=0xff404040 num-buffers=31 ! "
                    f"video/x-raw,format=BGRx,width=32,height=24,framerate=30/1 ! {element} name=fc ! fakesink name=sink")
                fc = pipeline.get_by_name("fc")
                source = GstController.InterpolationControlSource()
                source.set_property("mode", GstController.InterpolationMode.LINEAR)
                source.set(0, 0.0)
                source.set(Gst.SECOND, 1.0)
                fc.add_control_binding(GstController.DirectControlBinding.new_absolute(fc, "intensity", source))
                seen = {}

                def on_buffer(pad, info):
                    buffer = info.get_buffer()
                    seen[buffer.pts] = first_byte(buffer)
                    return Gst.PadProbeReturn.OK
                sink_pad(pipeline, "sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
                run_to_eos(pipeline)
                pipeline.set_state(Gst.State.NULL)
                self.assertEqual(len(seen), 31)
                for pts, value in sorted(seen.items()):
                    expected = 64 + 127 * min(pts / Gst.SECOND, 1.0)
                    self.assertLessEqual(abs(value - expected), 1.5, f"frame at {pts / Gst.SECOND:.3f} s")


if __name__ == "__main__":
    unittest.main()
