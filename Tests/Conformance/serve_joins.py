"""Joining numbers docs/serving.md reports, for `filtercam serve` and, side by side on the same
machine, gst-rtsp-server's own test-launch-style server serving the same stock pipeline:
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 serve_joins.py
- 40 clients connecting at the same moment: the slowest answer to OPTIONS;
- 50 viewers joining at the same moment (TCP), 3 rounds with the server idle before each:
  seconds from connecting to the first key frame received (median, max);
- 50 rounds of 8 viewers joining together, over UDP and over TCP: viewers with no picture,
  and viewers whose first key frame came more than 1 s after their PLAY (a lost second);
- 10 rounds of 8 real players (gst-launch rtspsrc, 3 s each) joining together, over UDP
  and over TCP: players that recorded no frame."""
import os
import statistics
import tempfile
import threading
import time

from rtsp_client import Rtsp, join_at_once
from serve_numbers import StockServer
from test_serve import GREY, Server, frames_and_duration, viewer


def slowest_of_forty(port, url):
    gate, took = threading.Barrier(40), []

    def connect():
        gate.wait()
        start = time.monotonic()
        c = Rtsp(port)
        c.request("OPTIONS", url)
        took.append(time.monotonic() - start)
        c.close()
    threads = [threading.Thread(target=connect) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return max(took)


def players_without_a_frame(url, rounds=10):
    """For UDP and TCP: of ROUNDS × 8 gst-launch players started together, those that
    recorded no frame."""
    folder = tempfile.mkdtemp(prefix="fc-joins-")
    missing = {}
    for transport in ("udp", "tcp"):
        missing[transport] = 0
        for r in range(rounds):
            outs = [os.path.join(folder, f"{transport}-{r}-{i}.ts") for i in range(8)]
            players = [viewer(url, 3, out, [f"protocols={transport}"]) for out in outs]
            for p in players:
                p.wait(30)
            missing[transport] += sum(frames_and_duration(out)[0] == 0 for out in outs)
    return missing


def measure(port, url):
    result = {"connect40": slowest_of_forty(port, url)}
    firsts = []
    for _ in range(3):
        time.sleep(4)   # idle: the camera paused (ours), the media gone (stock)
        firsts += join_at_once(port, url, 50, "tcp", timeout=5, since_connect=True)
    got = sorted(w for w in firsts if w is not None)
    result["first50"] = (statistics.median(got), max(got), len(firsts) - len(got))
    for transport in ("udp", "tcp"):
        none = lost = 0
        for _ in range(50):
            waits = join_at_once(port, url, 8, transport)
            none += sum(w is None for w in waits)
            lost += sum(w is not None and w > 1.0 for w in waits)
        result[transport] = (none, lost)
    result["players"] = players_without_a_frame(url)
    return result


if __name__ == "__main__":
    ours = Server(description=GREY)
    try:
        mine = measure(ours.port, ours.url)
    finally:
        ours.stop()
    stock = StockServer()
    try:
        theirs = measure(stock.port, stock.url)
    finally:
        stock.stop()
    print("| server | 40 connects: slowest answer | 50 joining at once: first key frame, median / max (no picture) "
          "| 50 × 8 joining, UDP: no picture / key frame > 1 s after PLAY | same, TCP |")
    print("|---|---|---|---|---|")
    for name, r in (("`filtercam serve`", mine), ("gst-rtsp-server test-launch", theirs)):
        print(f"| {name} | {r['connect40']:.3f} s | {r['first50'][0]:.2f} s / {r['first50'][1]:.2f} s ({r['first50'][2]}) "
              f"| {r['udp'][0]} / {r['udp'][1]} of 400 | {r['tcp'][0]} / {r['tcp'][1]} of 400 |")
    print("\n| server | 10 × 8 gst-launch players joining together: no frame recorded, UDP | same, TCP |")
    print("|---|---|---|")
    for name, r in (("`filtercam serve`", mine), ("gst-rtsp-server test-launch", theirs)):
        print(f"| {name} | {r['players']['udp']} of 80 | {r['players']['tcp']} of 80 |")
