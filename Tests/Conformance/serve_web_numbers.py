"""The numbers the README reports for `filtercam serve --web`, measured in one run on
loopback (release build; not part of `make test`: a browser per viewer is heavy):
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 serve_web_numbers.py [WIDTHxHEIGHT]
- the server's CPU with one RTSP viewer, with one browser viewer, and with 4 browser
  pages (4 windows of one headless Chromium) and 4 RTSP viewers at once;
- each of those 8 viewers' frame rate over the same span: the browsers' decoded frames
  (`getVideoPlaybackQuality().totalVideoFrames`), the RTSP viewers' recorded frames."""
import os
import subprocess
import sys
import tempfile
import time

import browser
from serve_numbers import cpu_seconds
from test_serve import frames_and_duration, viewer
from test_serve_web import WebServe

SPAN = 10   # seconds measured
BACKGROUND = ["--disable-renderer-backgrounding", "--disable-background-timer-throttling",
              "--disable-backgrounding-occluded-windows"]


def source(size):
    w, h = size.split("x")
    return (f"videotestsrc is-live=true pattern=smpte ! video/x-raw,width={w},height={h},framerate=30/1 ! "
            "videoconvert ! filtercam filter=sepia")


def server_cpu(pid, seconds):
    start, before = time.monotonic(), cpu_seconds(pid)
    time.sleep(seconds)   # the span measured
    return (cpu_seconds(pid) - before) / (time.monotonic() - start) * 100


def frames_now(page, windows):
    """Each window's decoded frames and when they were read."""
    counts = []
    for handle in windows:
        page.switch_to(handle)
        counts.append((page.run("return document.getElementById('live').getVideoPlaybackQuality().totalVideoFrames"), time.monotonic()))
    return counts


def open_pages(page, url, count, first_in_this_window=False):
    """Opens the page in `count` windows (the first in the current one if asked); returns their handles."""
    windows = []
    for n in range(count):
        windows.append(page.current_window() if first_in_this_window and n == 0 else page.new_window())
        page.switch_to(windows[-1])
        page.open(url)
    for handle in windows:
        page.switch_to(handle)
        if not page.wait_for("const v = document.getElementById('live'); return v && v.videoWidth > 0", 30):
            raise AssertionError("a page shows no picture")
    return windows


def measure(size):
    server = WebServe(description=source(size))
    folder = tempfile.mkdtemp(prefix="fc-web-numbers-")
    results = {}
    try:
        rtsp_url = server.rtsp_url
        # One RTSP viewer.
        one = viewer(rtsp_url, SPAN + 6, os.path.join(folder, "one.ts"))
        time.sleep(4)   # connected and playing
        results["cpu_one_rtsp"] = server_cpu(server.process.pid, SPAN)
        one.wait(60)
        time.sleep(5)   # the camera pauses: the next run starts from the same place
        page = browser.Browser(extra_args=BACKGROUND)
        try:
            windows = open_pages(page, server.url, 1, first_in_this_window=True)
            time.sleep(2)
            results["cpu_one_browser"] = server_cpu(server.process.pid, SPAN)
            windows += open_pages(page, server.url, 3)
            players = [viewer(rtsp_url, SPAN + 8, os.path.join(folder, f"v{i}.ts")) for i in range(4)]
            time.sleep(5)   # all playing
            before = frames_now(page, windows)
            results["cpu_eight"] = server_cpu(server.process.pid, SPAN)
            after = frames_now(page, windows)
            results["browser_fps"] = [(b - a) / (tb - ta) for (a, ta), (b, tb) in zip(before, after)]
            for p in players:
                p.wait(60)
            results["rtsp_fps"] = [n / d if d else 0 for n, d in (frames_and_duration(os.path.join(folder, f"v{i}.ts")) for i in range(4))]
        finally:
            page.quit()
    finally:
        server.stop()
    return results


if __name__ == "__main__":
    size = sys.argv[1] if len(sys.argv) > 1 else "640x480"
    r = measure(size)
    print(f"{size}: server CPU, 1 RTSP viewer {r['cpu_one_rtsp']:.1f} %, 1 browser {r['cpu_one_browser']:.1f} %, "
          f"4 browsers + 4 RTSP {r['cpu_eight']:.1f} % ({r['cpu_eight'] / r['cpu_one_rtsp']:.2f}x, {r['cpu_eight'] / r['cpu_one_browser']:.2f}x)")
    print("  browsers fps: " + ", ".join(f"{f:.1f}" for f in r["browser_fps"]))
    print("  RTSP fps: " + ", ".join(f"{f:.1f}" for f in r["rtsp_fps"]))
