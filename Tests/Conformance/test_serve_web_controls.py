"""The control page's picture controls as a user drives them with a real pointer in
headless Chromium: a drag moves the lens, the wheel zooms, Rotate and Mirror turn the
served picture, Record starts and stops a recording on the server. Each is checked by
what the browser's picture shows (read through a canvas), by the property value the
element took (the line the server prints), and for Record by the file itself.

The source is GStreamer's SMPTE bars (320x240): left to right white (192, 192, 192),
yellow, cyan, green, magenta, red, blue (0, 0, 192) over the top two thirds, each bar a
seventh of the width; so where a bar lands after a turn or a zoom is computed by hand."""
import os
import re
import subprocess
import time
import unittest

import browser
from support import image_pixel
from test_serve import viewer
from test_serve_web import ServerAndBrowser, WebServe, colourful, grey, skip_without_filtercam_or_browser

BARS = ("videotestsrc is-live=true pattern=smpte ! video/x-raw,width=320,height=240,framerate=30/1 ! "
        "videoconvert ! filtercam filter=none")

# Viewport point of a picture fraction, through the letterboxing.
VIEWPORT_POINT = """
const v = document.getElementById("live"), r = v.getBoundingClientRect();
const s = Math.min(r.width / v.videoWidth, r.height / v.videoHeight);
const w = v.videoWidth * s, h = v.videoHeight * s;
return [r.left + (r.width - w) / 2 + arguments[0] * w, r.top + (r.height - h) / 2 + arguments[1] * h];
"""
FRAMES = "return document.getElementById('live').getVideoPlaybackQuality().totalVideoFrames"
SIZE = "const v = document.getElementById('live'); return [v.videoWidth, v.videoHeight]"


def wait_until(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)   # polling the server's answer
    return False


def white(rgb):
    return grey(rgb, 30) and min(rgb) >= 150


def blue(rgb):
    return rgb[2] - max(rgb[0], rgb[1]) >= 100


def yellow(rgb):
    return min(rgb[0], rgb[1]) - rgb[2] >= 100


class WebControls(ServerAndBrowser):
    DESCRIPTION = BARS

    def setUp(self):
        if self.browser.run("return location.href") != self.server.url:
            self.browser.open(self.server.url)   # a viewer: the camera runs and takes commands
        self.assertTrue(self.browser.wait_for("const v = document.getElementById('live'); return v && v.videoWidth > 0", 60))
        self.server.command("set orientation=identity", "orientation = identity")
        self.server.command("set zoom=1", "zoom = 1")
        self.server.command("set filter=none", "filter = none")
        self.server.command("set lens=0,0,1,1", "lens =")
        self.server.command("set gallery=false", "gallery = false")
        size = self.browser.wait_for(f"{SIZE.replace('return [', 'return v.videoWidth === 320 && [')}", 60)
        self.assertEqual(size, [320, 240], "the page does not show the upright picture")

    def said_since(self, start, pattern):
        """The server's stderr lines since line `start` that match `pattern`."""
        return [line for line in self.server.said[start:] if re.search(pattern, line)]

    def test_a_drag_moves_the_lens_along(self):
        self.server.command("set filter=mono", "filter = mono")
        self.server.command("set lens=0,0,0.25,0.25", "lens =")
        cyan_bar, magenta_bar = (0.35, 0.3), (0.65, 0.3)
        before = self.picture_at([cyan_bar, magenta_bar], lambda p: colourful(p[0]) and colourful(p[1]))
        self.assertTrue(colourful(before[0]) and colourful(before[1]), f"the bars are not coloured first: {before}")
        start = len(self.server.said)
        self.browser.drag(self.browser.run(VIEWPORT_POINT, *cyan_bar), self.browser.run(VIEWPORT_POINT, *magenta_bar))
        after = self.picture_at([cyan_bar, magenta_bar], lambda p: colourful(p[0]) and grey(p[1]))
        self.assertTrue(colourful(after[0]) and grey(after[1]), f"after the drag the grey lens is not on the magenta bar: {after}")
        # The element's lens followed the pointer, and stopped where it was let go.
        self.server.wait_for_line("lens: ")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            lenses = [tuple(map(float, m.split(","))) for line in self.said_since(start, r"^lens: [\d.]+,")
                      for m in re.findall(r"lens: ([\d.,]+)", line)]
            if lenses and abs(lenses[-1][0] + lenses[-1][2] / 2 - magenta_bar[0]) < 0.01:
                break
            time.sleep(0.1)
        self.assertGreaterEqual(len(lenses), 3, f"the lens did not follow the drag: {lenses}")
        x, y, w, h = lenses[-1]
        self.assertAlmostEqual(x + w / 2, magenta_bar[0], delta=0.01, msg=lenses)
        self.assertAlmostEqual(y + h / 2, magenta_bar[1], delta=0.01, msg=lenses)
        self.assertLess(lenses[0][0] + lenses[0][2] / 2, 0.45, f"the drag did not start on the cyan bar: {lenses}")

    def test_a_filter_at_its_defaults_is_set_as_its_picture_shows_it(self):
        # Exposure at 0 EV changes nothing: its button sets the chain its thumbnail shows.
        self.browser.click('[data-filter="exposure"]')
        self.server.wait_for_line("filter: exposure ev=1")
        self.assertTrue(self.browser.wait_for(
            "return document.querySelector('[data-filter=\"exposure\"]').getAttribute('aria-pressed') === 'true'", 10))

    def test_the_pressed_button_follows_a_change_made_elsewhere(self):
        # The terminal (as another page would) sets mono: this page's Mono button shows it
        # pressed, so a click on it turns the filter off rather than leaving mono on.
        self.server.command("filter mono", "filter: mono")
        self.assertTrue(self.browser.wait_for(
            "return document.querySelector('[data-filter=\"mono\"]').getAttribute('aria-pressed') === 'true'", 10),
            "the page did not follow the change made elsewhere")
        self.browser.click('[data-filter="mono"]')
        self.server.wait_for_line("filter: none")

    def test_a_click_in_the_gallery_picks_the_thumbnail(self):
        self.server.command("gallery", "gallery")
        start = len(self.server.said)
        self.browser.click_at(*self.browser.run(VIEWPORT_POINT, 0.83, 0.83))
        self.server.wait_for_line("gallery closed")
        self.assertEqual(self.said_since(start, r"^lens: "), [], "the click moved the hidden lens instead")

    def test_with_lens_crop_a_click_lands_where_it_was_on_the_cropped_picture(self):
        self.server.command("set lens=0.5,0,0.5,0.5", "lens =")
        self.server.command("set lens-crop=true", "lens-crop = true")
        try:
            self.assertTrue(self.browser.wait_for("const v = document.getElementById('live'); return v.videoWidth === 160", 30))
            start = len(self.server.said)
            # (0.2, 0.5) of the crop is (0.5 + 0.2 x 0.5, 0 + 0.5 x 0.5) = (0.6, 0.25) of the picture.
            self.browser.click_at(*self.browser.run(VIEWPORT_POINT, 0.2, 0.5))
            self.server.wait_for_line("lens: ")
            x, y, w, h = map(float, re.search(r"lens: ([\d.,]+)", self.said_since(start, r"^lens: ")[-1]).group(1).split(","))
            self.assertAlmostEqual(x + w / 2, 0.6, delta=0.02)
            self.assertAlmostEqual(y + h / 2, 0.25, delta=0.02)
        finally:
            self.server.command("set lens-crop=false", "lens-crop = false")

    def test_the_window_keys_work_on_the_page(self):
        # The gallery's hint named keys the page did not take: a page could not turn its
        # pages or close it without choosing, nor move the lens or zoom from the keyboard.
        state = lambda: self.server.request("GET", "/state")[1]
        self.browser.run("document.activeElement && document.activeElement.blur()")
        self.browser.key("+")
        self.server.wait_for_line("zoom: 1.25")
        self.browser.key("-")
        self.server.wait_for_line("zoom: 1\n")
        self.browser.key("g")
        self.assertTrue(wait_until(lambda: "gallery: true" in state()), state())
        first = state().split("\n")[0]
        self.browser.key("\ue00f")   # Page Down: the next page, whose nearest thumbnail is chosen
        self.assertTrue(wait_until(lambda: state().split("\n")[0] != first), f"{first}, then {state()}")
        self.browser.key("\ue00c")   # Escape
        self.assertTrue(wait_until(lambda: "gallery: false" in state()), state())
        self.assertEqual(self.browser.run("return window.scrollY"), 0, "Page Down scrolled the page")

    def test_the_wheel_zooms_in_and_out(self):
        # Zoom 1.25 about the centre shows picture x 0.08 from source x 0.5 - 0.42 / 1.25 = 0.164: yellow, not white.
        edge = [(0.08, 0.3)]
        before = self.picture_at(edge, lambda p: white(p[0]))
        self.assertTrue(white(before[0]), f"the left edge is not the white bar first: {before}")
        centre = self.browser.run(VIEWPORT_POINT, 0.5, 0.5)
        self.browser.wheel(*centre, -120)
        self.server.wait_for_line("zoom: 1.25")
        zoomed = self.picture_at(edge, lambda p: yellow(p[0]))
        self.assertTrue(yellow(zoomed[0]), f"after a wheel turn up the left edge is {zoomed[0]}, not the yellow bar")
        self.browser.wheel(*centre, 120)
        self.server.wait_for_line("zoom: 1\n")   # exactly 1, not 1.25
        back = self.picture_at(edge, lambda p: white(p[0]))
        self.assertTrue(white(back[0]), f"after a wheel turn down the left edge is {back[0]}, not white again")

    def test_the_rotate_button_turns_the_served_picture(self):
        self.browser.click('[data-action="rotate"]')
        self.server.wait_for_line("rotate: 90° clockwise (orientation 90r)")
        size = self.browser.wait_for(f"{SIZE.replace('return [', 'return v.videoWidth === 240 && [')}", 60)
        self.assertEqual(size, [240, 320], "the browser's picture did not turn upright")
        # A quarter turn clockwise: picture (x, y) shows source (y, 1 - x); the bars'
        # left end (white) is now at the top, their right end (blue) at the bottom.
        top, bottom = (0.9, 0.04), (0.9, 0.96)
        turned = self.picture_at([top, bottom], lambda p: white(p[0]) and blue(p[1]))
        self.assertTrue(white(turned[0]) and blue(turned[1]), f"the turned picture is not the bars turned clockwise: {turned}")
        self.assertEqual(self.browser.run("return document.getElementById('status').textContent").strip(), "rotate: 90° clockwise (orientation 90r)")

    def test_the_mirror_button_mirrors_the_served_picture(self):
        left, right = (0.04, 0.3), (0.96, 0.3)
        before = self.picture_at([left, right], lambda p: white(p[0]) and blue(p[1]))
        self.assertTrue(white(before[0]) and blue(before[1]), f"the bars are not white to blue first: {before}")
        self.browser.click('[data-action="mirror"]')
        self.server.wait_for_line("mirror: on (orientation horiz)")
        after = self.picture_at([left, right], lambda p: blue(p[0]) and white(p[1]))
        self.assertTrue(blue(after[0]) and white(after[1]), f"the mirrored picture is not blue to white: {after}")
        self.assertEqual(self.browser.run(SIZE), [320, 240])
        # Mirror is shown pressed while the picture is a mirror image, however it got there
        # (a turned mirror set from the terminal too), and not once it is not.
        mirror = "document.querySelector('[data-action=\"mirror\"]').getAttribute('aria-pressed')"
        self.assertTrue(self.browser.wait_for(f"return {mirror} === 'true'", 10), "Mirror not shown pressed while mirrored")
        self.server.command("set orientation=90r", "orientation = 90r")
        self.assertTrue(self.browser.wait_for(f"return {mirror} === 'false'", 10), "Mirror shown pressed on a turned picture")
        self.server.command("set orientation=ul-lr", "orientation = ul-lr")
        self.assertTrue(self.browser.wait_for(f"return {mirror} === 'true'", 10), "Mirror not shown pressed for ul-lr")

    def test_the_record_button_records_a_playable_file(self):
        self.server.command("set filter=mono", "filter = mono")
        self.browser.click('[data-action="record"]')
        self.server.wait_for_line("recording ")
        started = [line for line in self.server.said if line.startswith("recording ")][-1]
        name = re.search(r"recording (\S+\.mp4)", started).group(1)
        # The button shows a recording runs (whoever started it: a page that had not
        # started it offered Record, and its click stopped it).
        record = "document.querySelector('[data-action=\"record\"]')"
        self.assertTrue(self.browser.wait_for(f"return {record}.getAttribute('aria-pressed') === 'true' && {record}.textContent", 10),
                        "Record not shown pressed while recording")
        self.assertIn("recording: true", self.server.request("GET", "/state")[1])
        # Two seconds of the picture, counted by the browser's own frames.
        frames = self.browser.run(FRAMES)
        self.assertTrue(self.browser.wait_for(f"return ({FRAMES.replace('return ', '')}) - arguments[0] >= 60", 60, frames))
        self.browser.click('[data-action="record"]')
        self.server.wait_for_line(f"recorded {name}")
        self.assertTrue(self.browser.wait_for(f"return {record}.getAttribute('aria-pressed') === 'false'", 10))
        path = os.path.join(self.server.folder, name)
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                                "stream=codec_name,width,height,nb_read_packets", "-of", "default=nw=1", path],
                               capture_output=True, text=True)
        self.assertEqual(probe.returncode, 0, probe.stderr)
        self.assertIn("codec_name=h264", probe.stdout)
        self.assertIn("width=320", probe.stdout)
        self.assertIn("height=240", probe.stdout)
        self.assertGreaterEqual(int(re.search(r"nb_read_packets=(\d+)", probe.stdout).group(1)), 45, probe.stdout)
        # The file holds the filtered picture: the blue bar recorded grey.
        still = path + ".png"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-ss", "1", "-i", path, "-frames:v", "1", still], check=True)
        pixel = image_pixel(still, int(0.93 * 320), int(0.3 * 240))
        self.assertTrue(grey(pixel), f"the recording's blue bar is {pixel}, not grey (mono)")


class WebRecordingCount(unittest.TestCase):
    """The element's own count of finished recordings (its `recordings-written`), in the
    summary line at the end, after `record` twice from the web."""

    @classmethod
    def setUpClass(cls):
        skip_without_filtercam_or_browser()

    def test_a_recording_from_the_web_counts_as_written(self):
        server = WebServe("--always-on", description=BARS)
        try:
            # Each answer says what became of the recording: its file, then its length.
            status, text = server.request("POST", "/control", b"record")
            self.assertEqual(status, 200, text)
            self.assertRegex(text, r"^recording \S+\.mp4 \(\d+x\d+")
            status, text = server.request("POST", "/control", b"record")
            self.assertEqual(status, 200, text)
            self.assertRegex(text, r"^recorded \S+\.mp4")
        finally:
            server.stop()
        self.assertTrue(any(re.search(r"\brecordings=1\b", line) for line in server.said),
                        "the summary does not count the recording: " + "\n".join(server.said[-5:]))



class WebWithNobodyWatching(unittest.TestCase):
    """Before anyone watches the camera is paused: a property change from the page is
    made at once, and what needs a frame is refused at once rather than left hanging
    (and run later, unasked, when a viewer comes)."""

    @classmethod
    def setUpClass(cls):
        skip_without_filtercam_or_browser()

    def test_changes_are_made_and_stills_refused_at_once(self):
        server = WebServe(description=BARS)
        try:
            server.wait_for_line("camera paused until a viewer comes")
            status, text = server.request("POST", "/control", b"filter mono")
            self.assertEqual((status, text.strip()), (200, "filter: mono"))
            for command in (b"snapshot", b"record", b"countdown"):
                status, text = server.request("POST", "/control", command)
                self.assertEqual(status, 503, text)
                self.assertIn("the camera is paused until someone watches", text)
        finally:
            server.stop()
        self.assertFalse(any("recording " in line or "snapshot-" in line for line in server.said), "\n".join(server.said))
        self.assertEqual([f for f in os.listdir(server.folder) if f.endswith((".jpg", ".mp4"))], [])

    def test_the_page_says_when_the_server_is_gone(self):
        # It said "live" over a frozen picture for ~16 s, then "Failed to fetch". Killed,
        # the server says nothing: the page finds it gone.
        server = WebServe(description=BARS)
        page = browser.Browser()
        try:
            page.open(server.url)
            self.assertTrue(page.wait_for("const v = document.getElementById('live'); return v && v.videoWidth > 0", 60))
            server.process.kill()
            server.stop()
            said = page.wait_for("const t = document.getElementById('status').textContent; "
                                 "return t.includes('does not answer') && t", 10)
            self.assertTrue(said, page.run("return document.getElementById('status').textContent"))
        finally:
            page.quit()
            if server.process.poll() is None:
                server.stop()

    def test_the_page_says_the_source_ended(self):
        """At the source's end the page says so and leaves (it said "the server does not
        answer (stopped, or the network is down)"), and the server waits for it no longer."""
        server = WebServe(description=BARS.replace("is-live=true", "is-live=true num-buffers=120"))
        page = browser.Browser()
        try:
            page.open(server.url)
            self.assertTrue(page.wait_for("const v = document.getElementById('live'); return v && v.videoWidth > 0", 60))
            said = page.wait_for("const t = document.getElementById('status').textContent; "
                                 "return t.includes('the source ended') && t", 60)
            self.assertEqual(said, "the source ended (end of stream): the server stopped serving",
                             page.run("return document.getElementById('status').textContent"))
            self.assertEqual(server.process.wait(30), 0, "\n".join(server.said))
            # Gone now, the server is still said to have ended, not to be unreachable.
            page.wait_for("return document.getElementById('status').textContent.includes('does not answer')", 4)
            self.assertEqual(page.run("return document.getElementById('status').textContent"), said)
        finally:
            page.quit()
            server.stop()

    def test_a_recording_running_when_the_last_viewer_leaves_can_be_stopped(self):
        """The camera runs on for the recording (it paused, and the file lost that time), and
        `record` again stops it and saves the file; then the camera pauses (`record` was once
        refused as needing the live picture, the file unfinished until a viewer came back)."""
        server = WebServe(description=BARS)
        try:
            server.wait_for_line("camera paused until a viewer comes")
            out = os.path.join(server.folder, "viewer.ts")
            watching = viewer(server.rtsp_url, 60, out, frames=20)
            server.wait_for_line("camera running for a viewer")
            status, text = server.request("POST", "/control", b"record")
            self.assertEqual(status, 200, text)
            name = re.search(r"^recording (\S+\.mp4)", text).group(1)
            # The page's answer names its own button, not the window's v key (it has none).
            self.assertTrue(text.rstrip().endswith("Record again stops it"), text)
            watching.wait(60)
            server.wait_for_line("the camera runs on for the recording")
            status, text = server.request("POST", "/control", b"record")
            self.assertEqual(status, 200, text)
            self.assertRegex(text, rf"^recorded {re.escape(name)}")
            server.wait_for_line("camera paused: nobody has watched")
            probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "default=nw=1",
                                    os.path.join(server.folder, name)], capture_output=True, text=True)
            self.assertIn("codec_name=h264", probe.stdout, probe.stderr)
            # The same from the terminal.
            watching = viewer(server.rtsp_url, 60, out + "2", frames=20)
            server.wait_for_line("camera running for a viewer")
            server.command("record", "recording ")
            watching.wait(60)
            server.wait_for_line("the camera runs on for the recording")
            server.command("record", "recorded ")
            server.wait_for_line("camera paused: nobody has watched")
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
