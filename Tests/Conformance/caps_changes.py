"""Pushes frames whose caps change every frame (the frame rate taking turns between two
values) through one element, then asks GStreamer's leaks tracer, while the pipeline still
stands, which events are alive, and prints how many as a JSON line:
    GST_TRACERS=leaks GST_DEBUG=GST_TRACER:7 caps_changes.py 'ELEMENT' FRAMES
(the tracer's list goes to stderr; the count is read from it)."""
import json
import sys

from support import Gst


def main(element, frames):
    pipeline = Gst.parse_launch(f"appsrc name=a format=time block=true max-bytes=100000 ! {element} ! fakesink sync=false")
    source = pipeline.get_by_name("a")
    caps = [Gst.Caps.from_string(f"video/x-raw,format=I420,width=96,height=64,framerate={rate}/1") for rate in (30, 25)]
    data = bytes(96 * 64 * 3 // 2)
    pipeline.set_state(Gst.State.PLAYING)
    for i in range(frames):
        source.set_property("caps", caps[i % 2])
        buffer = Gst.Buffer.new_wrapped(data)
        buffer.pts, buffer.duration = i * Gst.SECOND // 30, Gst.SECOND // 30
        source.emit("push-buffer", buffer)
    source.emit("end-of-stream")
    message = pipeline.get_bus().timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    tracer = next(t for t in Gst.tracing_get_active_tracers() if type(t).__name__ == "GstLeaksTracer")
    tracer.emit("log-live-objects")
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"eos": bool(message and message.type == Gst.MessageType.EOS)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
