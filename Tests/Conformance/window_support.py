"""What the window tests share: a virtual X display (Xvfb) per test, real input
(xdotool), screenshots, and the pipelines and helpers the tests of `test_window.py` (the
window itself: rate, clicks, keys, turns) and `test_window_display.py` (what is drawn on
the picture: the on-screen display, the help card, the gallery; stills and recordings
started from the window) drive."""
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

from support import Counter, Gst, GstVideo, image_pixel, sink_pad

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, ".build", "release", "filtercam")
FIRST_EXAMPLE = "videotestsrc ! filtercam filter=sepia ! videoconvert ! autovideosink"


class VirtualDisplay:
    """Xvfb on a free display number, for the duration of a test class."""

    def __init__(self, size="1024x768"):
        self.process = None
        self.display = None
        self.size = size

    def start(self):
        if shutil.which("Xvfb") is None:
            raise unittest.SkipTest("Xvfb is not installed (make test installs xvfb)")
        # Display numbers 90-119, or the range run.py gives this process (two run at once).
        first, last = (int(n) for n in os.environ.get("FILTERCAM_TEST_DISPLAYS", "90-119").split("-"))
        for number in range(first, last + 1):
            if os.path.exists(f"/tmp/.X{number}-lock"):
                continue
            # -noreset: by default the server resets when its last client leaves, and the
            # readiness check below is a client; a program connecting during that reset was
            # refused ("Could not open display", 1 run in 3 with another suite beside it).
            self.process = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{self.size}x24", "-nolisten", "tcp",
                                             "-noreset"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # Ready when a client can connect: the socket file appears at bind(), before the
            # server listens, and a program started then fails "Could not open display" (seen
            # in CI; 1 start of the first 5 here).
            for _ in range(100):
                if self.process.poll() is None and accepts_clients(f":{number}"):
                    self.display = f":{number}"
                    return self.display
                time.sleep(0.05)
            self.process.kill()
            self.process.wait()
        raise RuntimeError("no Xvfb display could be started")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(5)


def accepts_clients(display):
    """Whether an X client can open `display` now. Asked by a program of its own
    (xdpyinfo): a connection opened and closed through libX11 in this process, before an
    in-process ximagesink opened its own, left some of those windows deaf to clicks and
    keys, and one showing no frame (seen in 2 of 3 CI runs)."""
    return subprocess.run(["xdpyinfo", "-display", display], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def close_window(display, window):
    """Sends `window` the WM_DELETE_WINDOW client message a window manager's close button
    sends (xdotool has none; through libX11 with ctypes, no Python X library needed)."""
    import ctypes
    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]
    connection = x11.XOpenDisplay(display.encode())
    assert connection, f"cannot open display {display}"
    try:
        event = ClientMessage(type=33, send_event=1, display=connection, window=window, format=32,   # 33: ClientMessage
                              message_type=x11.XInternAtom(connection, b"WM_PROTOCOLS", 0))
        event.data[0] = x11.XInternAtom(connection, b"WM_DELETE_WINDOW", 0)
        x11.XSendEvent(connection, window, 0, 0, ctypes.byref(event))
        x11.XFlush(connection)
    finally:
        x11.XCloseDisplay(connection)


def screenshot_pixel(display, x, y):
    """The (r, g, b) of one screen pixel, read from an ImageMagick screenshot."""
    folder = tempfile.mkdtemp(prefix="fc-shot-")
    shot = os.path.join(folder, "shot.png")
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["import", "-window", "root", shot], env=env, check=True, timeout=30)
    return image_pixel(shot, x, y)


def screenshot_pixels(display, spots):
    """The (r, g, b) of several screen pixels, from one screenshot (a screenshot per pixel
    took over a second for four pixels on a busy machine, longer than a banner stays)."""
    folder = tempfile.mkdtemp(prefix="fc-shot-")
    shot = os.path.join(folder, "shot.png")
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["import", "-window", "root", shot], env=env, check=True, timeout=30)
    channels = ",".join(f"%[fx:int(255*p{{{x},{y}}}.{c})]" for x, y in spots for c in "rgb")
    out = subprocess.run(["convert", shot, "-format", channels, "info:"], capture_output=True, text=True,
                         check=True).stdout
    values = [int(v) for v in out.strip().split(",")]
    return [tuple(values[i:i + 3]) for i in range(0, len(values), 3)]


def eventually(check, timeout=5.0):
    """Polls `check` until it returns something true or `timeout` s pass; returns its last
    value (so the caller asserts on it, with what it was when time ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def close_to(a, b, tolerance=2):
    """Whether two lists of (r, g, b) agree within `tolerance` per channel."""
    return all(abs(p - q) <= tolerance for x, y in zip(a, b) for p, q in zip(x, y))


def rendered_pixel(element, x, y, size=(320, 240), source_format=None):
    """One pixel of videotestsrc's first frame of SIZE through ELEMENT, written as PNG.
    With SOURCE_FORMAT the frames go into ELEMENT in that format (no converter before it)."""
    folder = tempfile.mkdtemp(prefix="fc-frame-")
    png = os.path.join(folder, "frame.png")
    caps = f"video/x-raw,width={size[0]},height={size[1]}" + (f",format={source_format}" if source_format else "")
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1", "!", caps, "!"]
                   + ([] if source_format else ["videoconvert", "!"])
                   + element.split() + ["!", "videoconvert", "!", "pngenc", "!", "filesink", f"location={png}"],
                   check=True, timeout=30)
    return image_pixel(png, x, y)


# The on-screen display is drawn into the frames filtercam is given: RGB, and YUV (I420,
# straight from the source) as cameras give and encoders take.
OSD_FORMATS = ("BGRx", "I420")


def probe_frames_and_duration(path):
    """The video frames ffprobe decodes from a file, and its duration in seconds."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                          "stream=nb_read_frames:format=duration", "-of", "default=noprint_wrappers=1", path],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    values = dict(line.split("=", 1) for line in out.split())
    return int(values["nb_read_frames"]), float(values["duration"])


def probe_stream(path):
    """The first video stream's codec, pixel format and profile."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=codec_name,pix_fmt,profile", "-of", "csv=p=0", path],
                         capture_output=True, text=True, check=True, timeout=30).stdout.strip()
    codec, profile, pixel_format = out.split(",")
    return codec, pixel_format, profile


class WindowTestCase(unittest.TestCase):
    """A display of its own for every test, and the helpers that drive a window on it."""

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CLI):
            raise unittest.SkipTest("no release build of filtercam (make test builds it)")

    # A display of its own for every test (and every orientation of the click test): on a
    # busy machine a window closed by one test could keep the X server from giving the next
    # one its input and frames for the rest of the run (seen in 3 of 5 loaded runs).
    def setUp(self):
        self.fresh_display()

    def tearDown(self):
        self.xvfb.stop()
        os.environ.pop("DISPLAY", None)

    def fresh_display(self, size="1024x768"):
        if getattr(self, "xvfb", None):
            self.xvfb.stop()
        self.xvfb = VirtualDisplay(size)
        self.display = self.xvfb.start()

    def window_pipeline(self, properties, source_format="BGRx"):
        # ximagesink takes only the screen's RGB: a converter after filtercam for YUV frames.
        os.environ["DISPLAY"] = self.display
        pipeline = Gst.parse_launch(
            f"videotestsrc is-live=true ! video/x-raw,format={source_format},width=320,height=240,framerate=30/1 ! "
            f"filtercam name=fc filter=sepia {properties} ! videoconvert ! ximagesink name=window")
        shown = Counter(sink_pad(pipeline, "window"))
        fc = pipeline.get_by_name("fc")
        self.watch_presses(fc)
        pipeline.set_state(Gst.State.PLAYING)
        # The window is mapped and shows frames (on a loaded machine this takes longer than
        # the 1.5 s it takes alone; a click before it lands on the root window).
        deadline = time.time() + 15
        while time.time() < deadline and not (shown.count >= 30 and self.window_count() > 0):
            time.sleep(0.1)
        if not (shown.count >= 30 and self.window_count() > 0):
            # A click now would land on the root window: say which part is missing.
            message = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR | Gst.MessageType.WARNING)
            said = message.parse_error()[1] if message and message.type == Gst.MessageType.ERROR else \
                message.parse_warning()[1] if message else "nothing"
            pipeline.set_state(Gst.State.NULL)
            self.fail(f"the window was not up 15 s after PLAYING: {shown.count} frames shown, "
                      f"{self.window_count()} windows on {self.display}, the bus said {said}")
        return pipeline, fc

    def watch_presses(self, element):
        """Counts the mouse presses that reach ELEMENT from the window (navigation events)."""
        self.presses = []

        def on_event(pad, info):
            event = info.get_event()
            if event.type == Gst.EventType.NAVIGATION and \
                    GstVideo.Navigation.event_get_type(event) == GstVideo.NavigationEventType.MOUSE_BUTTON_PRESS:
                self.presses.append(event)
            return Gst.PadProbeReturn.OK
        element.get_static_pad("src").add_probe(Gst.PadProbeType.EVENT_UPSTREAM, on_event)

    def click(self, x, y):
        """A click at (x, y) that reaches the element. Under load the X server or the sink
        sometimes loses a click before it becomes a navigation event (seen: 1 run in 3 on
        a busy machine, never with the element's own handling at fault); a user clicks
        again, and so does this, at most 3 times. What the element does with the click is
        the test's to check."""
        for _ in range(3):
            before = len(self.presses)
            self.xdotool("mousemove", str(x), str(y), "click", "1")
            if eventually(lambda: len(self.presses) > before, 2):
                return
        self.fail(f"no click at ({x}, {y}) reached the element in 3 tries")

    def window_count(self):
        tree = subprocess.run(["xwininfo", "-root", "-children"], env=dict(os.environ, DISPLAY=self.display),
                              capture_output=True, text=True).stdout
        match = re.search(r"^\s*(\d+) child", tree, re.M)
        return int(match.group(1)) if match else 0

    def window_names(self):
        """The names (titles) of the display's top-level windows."""
        tree = subprocess.run(["xwininfo", "-root", "-children"], env=dict(os.environ, DISPLAY=self.display),
                              capture_output=True, text=True).stdout
        return re.findall(r'^\s*0x[0-9a-f]+ "(.*)":', tree, re.M)

    def top_window_ids(self):
        """The ids of the display's named top-level windows."""
        tree = subprocess.run(["xwininfo", "-root", "-children"], env=dict(os.environ, DISPLAY=self.display),
                              capture_output=True, text=True).stdout
        return [int(i, 16) for i in re.findall(r'^\s*(0x[0-9a-f]+) ".*":', tree, re.M)]

    def close_window(self, window):
        """What a window manager's close button does: WM_DELETE_WINDOW to the window."""
        close_window(self.display, window)

    def xdotool(self, *arguments):
        """Real input; what it changes is waited for by the caller (`eventually`)."""
        subprocess.run(["xdotool"] + list(arguments), env=dict(os.environ, DISPLAY=self.display), check=True, timeout=10)

    def lens_after_change(self, element, old):
        """The lens once it differs from `old` (within 5 s), as four numbers."""
        eventually(lambda: element.get_property("lens") != old)
        return [float(v) for v in element.get_property("lens").split(",")]

    def close(self, pipeline):
        pipeline.set_state(Gst.State.NULL)
        del os.environ["DISPLAY"]
        self.wait_for_no_window()

    def wait_for_no_window(self, timeout=5):
        """Until the display has no window left: a closing window (the GL sink's goes away
        a little later) must not catch the next test's clicks."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.window_count() == 0:
                return
            time.sleep(0.1)

    def region_differs(self, a, b):
        return any(abs(x - y) > 30 for x, y in zip(a, b))

    def shown(self, spots):
        return screenshot_pixels(self.display, spots)

    def wait_until_shown(self, spots, expected, what):
        """The screen at `spots` comes to show `expected` (±2) within 5 s."""
        self.assertTrue(eventually(lambda: close_to(self.shown(spots), expected)),
                        f"{what}: {self.shown(spots)} vs {expected}")

    def wait_until_covered(self, spots, picture, what):
        """Something (a banner, the card) comes over `picture` at `spots` within 1.2 s (it
        stays 1.5 s)."""
        self.assertTrue(eventually(lambda: any(self.region_differs(a, b) for a, b in zip(picture, self.shown(spots))), 1.2),
                        f"no {what}: {picture} -> {self.shown(spots)}")

    def each_osd_format(self):
        """The source formats of the OSD tests, each on a display of its own."""
        for i, source_format in enumerate(OSD_FORMATS):
            if i > 0:
                self.fresh_display()
            yield source_format

    def turned_in_glimagesink(self, source_format):
        """A live 640x480 picture through filtercam (sepia) into glimagesink, turned with r
        in the window: the 480x640 picture letterboxed at x 140..500 (scale 0.75)."""
        os.environ["DISPLAY"] = self.display
        pipeline = Gst.parse_launch(
            f"videotestsrc is-live=true ! video/x-raw,format={source_format},width=640,height=480,framerate=30/1 ! "
            "filtercam name=fc filter=sepia ! glimagesink name=window")
        window = Counter(sink_pad(pipeline, "window"))
        pipeline.set_state(Gst.State.PLAYING)
        eventually(lambda: window.count >= 30 and self.window_count() > 0, 15)
        fc = pipeline.get_by_name("fc")
        try:
            self.xdotool("mousemove", "320", "240", "key", "r")
            eventually(lambda: fc.get_property("orientation").value_nick == "90r")
            window.clear()
            eventually(lambda: window.count >= 3)   # the turned picture is what the window shows
        except BaseException:
            self.close(pipeline)
            raise
        return pipeline, fc

    def press_until(self, keys, read, expected):
        """xdotool KEYS, then `read()` comes to be `expected` (within 5 s)."""
        self.xdotool(*keys)
        self.assertEqual(eventually(lambda: read() == expected) and read(), expected, f"after {keys}")
