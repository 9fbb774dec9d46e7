"""Shared helpers of the conformance suite: real pipelines, run by a second client
(PyGObject), with the FilterCam plugin loaded from GST_PLUGIN_PATH like any other."""
import os
import subprocess
import tempfile
import threading
import time

import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstVideo', '1.0')
gi.require_version('GstController', '1.0')
from gi.repository import Gst, GstVideo, GstController, GLib  # noqa: E402

Gst.init(None)

FILTERCAM_ELEMENTS = ["filtercam filter=sepia", "fcsepia"]


def require_plugin():
    if Gst.ElementFactory.find("filtercam") is None:
        raise RuntimeError("the filtercam plugin is not on GST_PLUGIN_PATH (build it first: swift build -c release)")


def clip(path_holder={}):
    """A 10 s, 30 fps raw test clip that seeks (made once per run)."""
    if "path" not in path_holder:
        folder = tempfile.mkdtemp(prefix="fc-conformance-")
        path = os.path.join(folder, "clip.mkv")
        subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=300", "pattern=ball", "!",
                        "video/x-raw,format=I420,width=160,height=120,framerate=30/1", "!",
                        "matroskamux", "!", "filesink", f"location={path}"], check=True)
        path_holder["path"] = path
    return path_holder["path"]


class Counter:
    """Counts buffers (and remembers their PTS) on a pad."""

    def __init__(self, pad):
        self.pts = []
        self.lock = threading.Lock()
        pad.add_probe(Gst.PadProbeType.BUFFER, self._on_buffer)

    def _on_buffer(self, pad, info):
        with self.lock:
            self.pts.append(info.get_buffer().pts)
        return Gst.PadProbeReturn.OK

    @property
    def count(self):
        with self.lock:
            return len(self.pts)

    def clear(self):
        with self.lock:
            self.pts.clear()


def sink_pad(pipeline, name):
    return pipeline.get_by_name(name).get_static_pad("sink")


def wait_for(pipeline, types, timeout=10):
    """The first message of `types`, or of ERROR (which fails the caller)."""
    message = pipeline.get_bus().timed_pop_filtered(int(timeout * Gst.SECOND), types | Gst.MessageType.ERROR)
    if message is not None and message.type == Gst.MessageType.ERROR:
        error, debug = message.parse_error()
        raise AssertionError(f"ERROR from {message.src.get_name()}: {error.message} ({debug})")
    return message


def run_to_eos(pipeline, timeout=20):
    pipeline.set_state(Gst.State.PLAYING)
    message = wait_for(pipeline, Gst.MessageType.EOS, timeout)
    assert message is not None, "no EOS within %s s" % timeout
    return message


def latency_of(pad):
    query = Gst.Query.new_latency()
    if not pad.query(query):
        return None
    return query.parse_latency()


def drain_bus(pipeline, types):
    bus = pipeline.get_bus()
    found = []
    while True:
        message = bus.pop_filtered(types)
        if message is None:
            return found
        found.append(message)


def image_pixel(path, x, y):
    """The (r, g, b) of one pixel of an image file, read by ImageMagick."""
    out = subprocess.run(["convert", path, "-format",
                          f"%[fx:int(255*p{{{x},{y}}}.r)],%[fx:int(255*p{{{x},{y}}}.g)],%[fx:int(255*p{{{x},{y}}}.b)]", "info:"],
                         capture_output=True, text=True, check=True).stdout
    return tuple(int(v) for v in out.strip().split(","))
