"""The serving numbers docs/serving.md reports, measured in one run on loopback (release build):
    cd Tests/Conformance && /usr/bin/python3 serve_numbers.py
- CPU of the server process with 1 and with 8 viewers (the media is shared, so it should
  stay near flat), for `filtercam serve` and for gst-rtsp-server's own test-launch-style
  server (Python, GstRtspServer) serving the same stock pipeline without FilterCam;
- latency from a change at the source (its colour) to the viewer's decoded frame, for both."""
import os
import socket
import subprocess
import sys
import threading
import time

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

from test_serve import CLI, GREY, Server, free_port  # noqa: E402

Gst.init(None)
STOCK = ("( videotestsrc is-live=true pattern=solid-color foreground-color=0xff808080 ! video/x-raw,width=320,height=240,framerate=30/1 "
         "! videoconvert ! video/x-raw,format=I420 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 bframes=0 "
         "! rtph264pay name=pay0 pt=96 config-interval=1 )")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_with_viewers(pid, url, count, seconds=8):
    viewers = [subprocess.Popen(["gst-launch-1.0", "-q", "rtspsrc", f"location={url}", "!", "fakesink"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(count)]
    time.sleep(3)   # connected and playing
    start, before = time.monotonic(), cpu_seconds(pid)
    time.sleep(seconds)
    used = (cpu_seconds(pid) - before) / (time.monotonic() - start)
    for v in viewers:
        v.terminate()
        v.wait(10)
    time.sleep(2)
    return used * 100


class StockServer:
    """gst-rtsp-server's test-launch in a child process, ready when its port answers."""

    def __init__(self):
        self.port = free_port()
        self.url = f"rtsp://127.0.0.1:{self.port}/test"
        code = f"""
import gi
gi.require_version('Gst', '1.0'); gi.require_version('GstRtspServer', '1.0')
from gi.repository import Gst, GstRtspServer, GLib
Gst.init(None)
server = GstRtspServer.RTSPServer(address='127.0.0.1', service='{self.port}')
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch({STOCK!r})
factory.set_shared(True)
server.get_mount_points().add_factory('/test', factory)
server.attach(None)
GLib.MainLoop().run()
"""
        self.process = subprocess.Popen([sys.executable, "-c", code])
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the stock server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Viewer:
    """Decodes a stream and notes when the centre of the picture turns green or grey."""

    def __init__(self, url):
        self.pipeline = Gst.parse_launch(
            f"rtspsrc location={url} latency=0 ! rtph264depay ! h264parse ! avdec_h264 ! videoconvert "
            "! video/x-raw,format=RGB ! appsink name=out sync=false emit-signals=true max-buffers=1 drop=true")
        self.want, self.since, self.latency = None, 0.0, None
        self.seen = threading.Event()
        self.pipeline.get_by_name("out").connect("new-sample", self.on_sample)
        self.pipeline.set_state(Gst.State.PLAYING)
        time.sleep(3)

    def on_sample(self, sink):
        sample = sink.emit("pull-sample")
        caps = sample.get_caps().get_structure(0)
        w, h = caps.get_value("width"), caps.get_value("height")
        r, g, b = sample.get_buffer().extract_dup(((h // 2) * w + w // 2) * 3, 3)
        green = g > r + 60 and g > b + 60
        if self.want is not None and green == self.want and not self.seen.is_set():
            self.latency = time.monotonic() - self.since
            self.seen.set()
        return Gst.FlowReturn.OK

    def measure(self, change, runs=6):
        """Seconds from change(green?) to the first decoded frame that shows it."""
        results = []
        for i in range(runs):
            want = i % 2 == 0
            self.seen.clear()
            self.want, self.since = want, time.monotonic()
            change(want)
            if self.seen.wait(5):
                results.append(self.latency)
            time.sleep(0.7)
        self.pipeline.set_state(Gst.State.NULL)
        return sorted(results)


COLOURS = {True: "0xff00c000", False: "0xff808080"}


def stock_in_process():
    """gst-rtsp-server's test-launch in this process, with a handle on its source."""
    port = free_port()
    server = GstRtspServer.RTSPServer(address="127.0.0.1", service=str(port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(STOCK.replace("videotestsrc ", "videotestsrc name=src ", 1))
    factory.set_shared(True)
    sources = []
    factory.connect("media-configure", lambda f, media: sources.append(media.get_element().get_by_name("src")))
    server.get_mount_points().add_factory("/test", factory)
    server.attach(None)
    loop = GLib.MainLoop()
    threading.Thread(target=loop.run, daemon=True).start()
    return loop, sources, f"rtsp://127.0.0.1:{port}/test"
if __name__ == "__main__":
    ours = Server(description=GREY.replace("videotestsrc ", "videotestsrc name=src ", 1).replace("filter=sepia", "filter=none"))
    one, eight = cpu_with_viewers(ours.process.pid, ours.url, 1), cpu_with_viewers(ours.process.pid, ours.url, 8)

    def change_ours(green):
        ours.process.stdin.write(f"set src.foreground-color={COLOURS[green]}\n")
        ours.process.stdin.flush()
    ours_latency = Viewer(ours.url).measure(change_ours)
    ours.stop()
    stock = StockServer()
    stock_one, stock_eight = cpu_with_viewers(stock.process.pid, stock.url, 1), cpu_with_viewers(stock.process.pid, stock.url, 8)
    stock.stop()
    loop, sources, url = stock_in_process()
    viewer = Viewer(url)
    stock_latency = viewer.measure(lambda green: Gst.util_set_object_arg(sources[0], "foreground-color", COLOURS[green]))
    loop.quit()
    median = lambda xs: xs[len(xs) // 2] * 1000 if xs else float("nan")
    print("| server (320x240 live 30 fps, H.264) | CPU, 1 viewer | CPU, 8 viewers | 8 / 1 | change → viewer's decoded frame (median, max) |")
    print("|---|---|---|---|---|")
    print(f"| `filtercam serve` (… ! filtercam) | {one:.0f} % | {eight:.0f} % | {eight / max(one, 0.1):.2f} | "
          f"{median(ours_latency):.0f} ms, {ours_latency[-1] * 1000 if ours_latency else float('nan'):.0f} ms |")
    print(f"| gst-rtsp-server test-launch (same source, no FilterCam) | {stock_one:.0f} % | {stock_eight:.0f} % | "
          f"{stock_eight / max(stock_one, 0.1):.2f} | {median(stock_latency):.0f} ms, {stock_latency[-1] * 1000 if stock_latency else float('nan'):.0f} ms |")
    print(f"| ratio filtercam / stock | {one / max(stock_one, 0.1):.2f} | {eight / max(stock_eight, 0.1):.2f} | | "
          f"{median(ours_latency) / median(stock_latency):.2f} |")
    print("\n(the change: the source's colour, set through a live command on filtercam serve's stdin — "
          "read every 20 ms — and directly on the stock server's source)")
