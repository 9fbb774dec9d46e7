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


def clip(seconds=10, paths={}):
    """A raw test clip of `seconds` (10 by default) at 30 fps that seeks (made once per run)."""
    if seconds not in paths:
        folder = tempfile.mkdtemp(prefix="fc-conformance-")
        path = os.path.join(folder, f"clip-{seconds}s.mkv")
        subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", f"num-buffers={30 * seconds}", "pattern=ball", "!",
                        "video/x-raw,format=I420,width=160,height=120,framerate=30/1", "!",
                        "matroskamux", "!", "filesink", f"location={path}"], check=True)
        paths[seconds] = path
    return paths[seconds]


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


def rendered(pipeline, name):
    """Frames the sink NAME has shown (its `stats`): a frame that arrives later than the
    sink's max-lateness is dropped there, so what arrived is not what a viewer saw."""
    return pipeline.get_by_name(name).get_property("stats").get_value("rendered")


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


def element_messages_until_eos(pipeline):
    """Plays PIPELINE to EOS (it stays PLAYING); returns the structures of the element
    messages posted meanwhile, in order, caught as posted (run_to_eos pops the bus)."""
    said = []
    bus = pipeline.get_bus()
    bus.enable_sync_message_emission()
    handler = bus.connect("sync-message::element", lambda _, m: said.append(m.get_structure().copy()))
    try:
        run_to_eos(pipeline)
    finally:
        bus.disconnect(handler)
        bus.disable_sync_message_emission()
    return said


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


def play_for(pipeline, seconds):
    """Lets a playing pipeline run for `seconds`, recalculating its latency whenever an
    element asks (as gst-launch and filtercam do); an ERROR fails the caller."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for message in drain_bus(pipeline, Gst.MessageType.LATENCY | Gst.MessageType.ERROR):
            if message.type == Gst.MessageType.ERROR:
                raise AssertionError(message.parse_error()[0].message)
            pipeline.recalculate_latency()
        time.sleep(0.05)


def wait_for_frames(element, count=1, timeout=10):
    """Waits until a FilterCam element has processed `count` frames (its own counter), so a
    test acts on a running stream, however slow the machine; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    while element.get_property("frames-processed") < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"{element.get_name()} processed no {count} frames within {timeout} s")
        time.sleep(0.01)


def image_pixel(path, x, y):
    """The (r, g, b) of one pixel of an image file, read by ImageMagick."""
    out = subprocess.run(["convert", path, "-format",
                          f"%[fx:int(255*p{{{x},{y}}}.r)],%[fx:int(255*p{{{x},{y}}}.g)],%[fx:int(255*p{{{x},{y}}}.b)]", "info:"],
                         capture_output=True, text=True, check=True).stdout
    return tuple(int(v) for v in out.strip().split(","))


class PairedLiveSource:
    """A live source that pushes its frames in pairs: every 66 ms two BGRx frames, the
    earlier one already a frame interval old (its capture time), the later one on time.
    It announces the 66 ms it holds a frame back as its latency, as a batching source must.
    TOGETHER frames instead of two: a jitter buffer releasing a stall's frames at once."""

    def __init__(self, width=320, height=240, together=2):
        self.width, self.height, self.together = width, height, together

    def run_side_by_side(self, element, seconds):
        frame = Gst.SECOND // 30
        pipeline = Gst.parse_launch(
            f"appsrc name=src is-live=true format=time do-timestamp=false min-latency={self.together * frame} "
            f"caps=video/x-raw,format=BGRx,width={self.width},height={self.height},framerate=30/1 ! tee name=t "
            f"t. ! queue ! identity ! fakesink name=reference sync=true max-lateness=20000000 "
            f"t. ! queue ! {element} ! fakesink name=tested sync=true max-lateness=20000000")
        src = pipeline.get_by_name("src")
        size = self.width * self.height * 4
        stop = threading.Event()

        def push():
            clock = src.get_clock()
            base = src.get_base_time()
            k = 0
            while not stop.is_set():
                first = self.together * k * frame
                # The frames of a batch are captured once the last one's time has come.
                Gst.Clock.id_wait(clock.new_single_shot_id(base + first + self.together * frame))
                for pts in range(first, first + self.together * frame, frame):
                    buffer = Gst.Buffer.new_wrapped(bytes([(pts // frame) % 256]) * size)
                    buffer.pts, buffer.duration = pts, frame
                    if src.emit("push-buffer", buffer) != Gst.FlowReturn.OK:
                        return
                k += 1

        pipeline.set_state(Gst.State.PLAYING)
        # The sinks finish going to PLAYING on the first frame; the source is PLAYING (its
        # base time set) before that: wait for its state message.
        deadline = time.monotonic() + 10
        while True:
            message = wait_for(pipeline, Gst.MessageType.STATE_CHANGED, timeout=max(0.1, deadline - time.monotonic()))
            assert message is not None, "the paired source did not reach PLAYING within 10 s"
            if message.src == src and message.parse_state_changed()[1] == Gst.State.PLAYING:
                break
        pusher = threading.Thread(target=push, daemon=True)
        pusher.start()
        play_for(pipeline, seconds)
        counts = rendered(pipeline, "reference"), rendered(pipeline, "tested")
        stop.set()
        pipeline.set_state(Gst.State.NULL)
        pusher.join(timeout=5)
        return counts
