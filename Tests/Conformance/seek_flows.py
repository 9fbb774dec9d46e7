"""Seeks after EOS, segment seeks and frame steps through filtercam, in a process of
their own so the suite can check that GStreamer printed no CRITICAL. A 2 s clip: the sink
syncs, so the clip plays in real time."""
import sys
from support import Counter, Gst, clip, run_to_eos, sink_pad, wait_for

pipeline = Gst.parse_launch(
    f"filesrc location={clip(2)} ! matroskademux ! videoconvert ! video/x-raw,format=BGRx ! "
    "filtercam filter=sepia orientation=90r ! fakesink name=sink sync=true")
run_to_eos(pipeline, timeout=30)
pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE, 3 * Gst.SECOND // 2)
wait_for(pipeline, Gst.MessageType.EOS)
pipeline.set_state(Gst.State.PAUSED)
pipeline.get_state(5 * Gst.SECOND)
pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, Gst.SECOND)
pipeline.get_state(5 * Gst.SECOND)
for _ in range(3):
    pipeline.send_event(Gst.Event.new_step(Gst.Format.BUFFERS, 1, 1.0, True, False))
    wait_for(pipeline, Gst.MessageType.STEP_DONE, 5)
pipeline.seek(1.0, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.SEGMENT, Gst.SeekType.SET, 0,
              Gst.SeekType.SET, Gst.SECOND // 2)
pipeline.set_state(Gst.State.PLAYING)
if wait_for(pipeline, Gst.MessageType.SEGMENT_DONE, 10) is None:
    sys.exit("no segment-done")
pipeline.set_state(Gst.State.NULL)
