"""Latency from a change at the source to the browser's decoded frame, next to the RTSP
path from the same server in the same run (release build, loopback; not part of `make test`):
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 serve_web_latency.py [RUNS]
The method is the RTSP row's (serve_numbers.py): the source's colour is changed by a live
command on the server's stdin, and the time runs until a viewer's decoded frame shows it.
The browser notes the wall-clock time of the first frame it presents with the new colour
(requestVideoFrameCallback, the centre pixel read through a canvas); this process notes
the time it wrote the command; both clocks are this machine's."""
import sys
import time

import browser
from serve_numbers import COLOURS, Viewer
from test_serve_web import WebServe

SOURCE = ("videotestsrc name=src is-live=true pattern=solid-color foreground-color=0xff808080 ! "
          "video/x-raw,width=320,height=240,framerate=30/1 ! videoconvert ! filtercam filter=none")

# Watches every presented frame; `window.fcWatch.want` is the colour awaited (true: green).
WATCH = """
const video = document.getElementById("live");
const canvas = document.createElement("canvas");
canvas.width = canvas.height = 1;
const g = canvas.getContext("2d", {willReadFrequently: true});
window.fcWatch = {want: null, seen: null};
const look = (now, frame) => {
  g.drawImage(video, video.videoWidth / 2, video.videoHeight / 2, 1, 1, 0, 0, 1, 1);
  const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
  const green = gr > r + 60 && gr > b + 60;
  const w = window.fcWatch;
  if (w.want !== null && w.seen === null && green === w.want) w.seen = performance.timeOrigin + frame.presentationTime;
  video.requestVideoFrameCallback(look);
};
video.requestVideoFrameCallback(look);
"""


def browser_latencies(page, change, runs):
    results = []
    for i in range(runs):
        want = i % 2 == 0
        page.run("window.fcWatch.want = arguments[0]; window.fcWatch.seen = null;", want)
        since = time.time()
        change(want)
        seen = page.wait_for("return window.fcWatch.seen", 5, interval=0.02)
        if seen:
            results.append(seen / 1000 - since)
        time.sleep(0.7)
    return sorted(results)


def main(runs):
    server = WebServe(description=SOURCE)

    def change(green):
        server.process.stdin.write(f"set src.foreground-color={COLOURS[green]}\n")
        server.process.stdin.flush()
    page = browser.Browser()
    try:
        page.open(server.url)
        if not page.wait_for("const v = document.getElementById('live'); return v && v.videoWidth > 0", 20):
            raise AssertionError("the page shows no picture")
        page.run(WATCH)
        time.sleep(2)   # settled
        web = browser_latencies(page, change, runs)
        rtsp = Viewer(server.rtsp_url).measure(change, runs)
    finally:
        page.quit()
        server.stop()
    for name, xs in (("browser (WebRTC)", web), ("RTSP (rtspsrc latency=0, avdec_h264)", rtsp)):
        if xs:
            print(f"{name}: median {xs[len(xs) // 2] * 1000:.0f} ms, max {xs[-1] * 1000:.0f} ms ({len(xs)} of {runs})")
        else:
            print(f"{name}: no change seen")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
