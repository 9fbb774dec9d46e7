"""The serving numbers the README reports, measured in one run on loopback (release build):
    cd Tests/Conformance && /usr/bin/python3 serve_numbers.py
- CPU of the server process with 1 and with 8 viewers (the media is shared, so it should
  stay near flat), for `filtercam serve` and for gst-rtsp-server's own test-launch-style
  server (Python, GstRtspServer) serving the same stock pipeline without FilterCam;
- latency from a change in the picture (a live command) to the viewer's decoded frame."""
import os
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
         "! rtph264pay name=pay0 pt=96 config-interval=-1 )")


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


def stock_server():
    """gst-rtsp-server's test-launch, in a child process (its own main loop)."""
    port = free_port()
    code = f"""
import gi
gi.require_version('Gst', '1.0'); gi.require_version('GstRtspServer', '1.0')
from gi.repository import Gst, GstRtspServer, GLib
Gst.init(None)
server = GstRtspServer.RTSPServer(address='127.0.0.1', service='{port}')
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch({STOCK!r})
factory.set_shared(True)
server.get_mount_points().add_factory('/test', factory)
server.attach(None)
GLib.MainLoop().run()
"""
    process = subprocess.Popen([sys.executable, "-c", code])
    time.sleep(2)
    return process, f"rtsp://127.0.0.1:{port}/test"


def command_to_viewer_latency(server, runs=5):
    """Seconds from `set filter=…` on the server's stdin to the first decoded frame that shows it."""
    pipeline = Gst.parse_launch(f"rtspsrc location={server.url} latency=0 ! rtph264depay ! h264parse ! avdec_h264 "
                                "! videoconvert ! video/x-raw,format=RGB ! appsink name=out sync=false emit-signals=true max-buffers=1 drop=true")
    state = {"want": None, "since": 0.0, "seen": threading.Event()}

    def on_sample(sink):
        sample = sink.emit("pull-sample")
        caps = sample.get_caps().get_structure(0)
        w, h = caps.get_value("width"), caps.get_value("height")
        data = sample.get_buffer().extract_dup(((h // 2) * w + w // 2) * 3, 3)
        sepia = data[0] - data[2] > 25   # warm: red well above blue
        if state["want"] is not None and sepia == state["want"] and not state["seen"].is_set():
            state["latency"] = time.monotonic() - state["since"]
            state["seen"].set()
        return Gst.FlowReturn.OK
    pipeline.get_by_name("out").connect("new-sample", on_sample)
    pipeline.set_state(Gst.State.PLAYING)
    time.sleep(3)
    results = []
    for i in range(runs):
        want_sepia = i % 2 == 1
        state["seen"].clear()
        state["want"] = want_sepia
        state["since"] = time.monotonic()
        server.process.stdin.write(f"set filter={'sepia' if want_sepia else 'none'}\n")
        server.process.stdin.flush()
        if state["seen"].wait(5):
            results.append(state["latency"])
        time.sleep(1)
    pipeline.set_state(Gst.State.NULL)
    return results


if __name__ == "__main__":
    ours = Server()
    one, eight = cpu_with_viewers(ours.process.pid, ours.url, 1), cpu_with_viewers(ours.process.pid, ours.url, 8)
    latencies = command_to_viewer_latency(ours)
    ours.stop()
    stock, url = stock_server()
    stock_one, stock_eight = cpu_with_viewers(stock.pid, url, 1), cpu_with_viewers(stock.pid, url, 8)
    stock.terminate()
    stock.wait(10)
    print("| server (320x240 live 30 fps, H.264) | CPU, 1 viewer | CPU, 8 viewers | 8 / 1 |")
    print("|---|---|---|---|")
    print(f"| `filtercam serve` (… ! filtercam filter=sepia) | {one:.0f} % | {eight:.0f} % | {eight / max(one, 0.1):.2f} |")
    print(f"| gst-rtsp-server test-launch (same source, no FilterCam) | {stock_one:.0f} % | {stock_eight:.0f} % | {stock_eight / max(stock_one, 0.1):.2f} |")
    print(f"| ratio filtercam / stock | {one / max(stock_one, 0.1):.2f} | {eight / max(stock_eight, 0.1):.2f} | |")
    if latencies:
        latencies.sort()
        print(f"\ncommand to viewer's decoded frame (live command -> filter -> encode -> RTP on loopback -> decode), "
              f"{len(latencies)} runs: median {latencies[len(latencies) // 2] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")
