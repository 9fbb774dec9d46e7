"""The live numbers docs/testing.md reports, measured side by side in one run (release
plugin on GST_PLUGIN_PATH):
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 live_numbers.py
- frames at a syncing sink from a live source at 30 and 60 fps, FilterCam vs identity;
- latency the element adds (its latency query minus upstream's);
- a 3x overload: a chain that takes about three frame intervals per frame, its drops and
  the delay from capture to the sink over time (it must stay flat)."""
import time

from support import Gst, drain_bus, latency_of, sink_pad
from test_live_rate import live_branches, live_source


def added_latency(element, size="640x480", fps=30, seconds=2.5):
    w, h = size.split("x")
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true ! video/x-raw,format=BGRx,width={w},height={h},framerate={fps}/1 ! "
        f"identity name=before ! {element} name=fc ! fakesink sync=true")
    pipeline.set_state(Gst.State.PLAYING)
    time.sleep(seconds)
    values = []
    for _ in range(10):
        values.append(latency_of(pipeline.get_by_name("fc").get_static_pad("src"))[1]
                      - latency_of(pipeline.get_by_name("before").get_static_pad("src"))[1])
        time.sleep(0.1)
    pipeline.set_state(Gst.State.NULL)
    return sorted(values)[len(values) // 2] / 1e6


def overload(chain, fps=30, seconds=8):
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true ! video/x-raw,format=BGRx,width=1920,height=1080,framerate={fps}/1 ! "
        f"filtercam name=fc filter=\"{chain}\" ! fakesink name=sink sync=true")
    delays = []
    clock_holder = {}

    def on_buffer(pad, info):
        clock = pipeline.get_clock()
        if clock is not None:
            now = clock.get_time() - pipeline.get_base_time()
            delays.append((time.monotonic(), (now - info.get_buffer().pts) / 1e6))
        return Gst.PadProbeReturn.OK
    sink_pad(pipeline, "sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    start = time.monotonic()
    pipeline.set_state(Gst.State.PLAYING)
    while time.monotonic() - start < seconds:
        for _ in drain_bus(pipeline, Gst.MessageType.LATENCY):
            pipeline.recalculate_latency()
        time.sleep(0.05)
    fc = pipeline.get_by_name("fc")
    processed, dropped = fc.get_property("frames-processed"), fc.get_property("frames-dropped")
    ours = latency_of(fc.get_static_pad("src"))[1] / 1e6
    pipeline.set_state(Gst.State.NULL)
    second = [d for t, d in delays if 1 <= t - start < 2]
    last = [d for t, d in delays if t - start >= seconds - 1]
    avg = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    return processed, dropped, ours, avg(second), avg(last)


if __name__ == "__main__":
    print("| case | identity | FilterCam |")
    print("|---|---|---|")
    for fps in (30, 60):
        elements = ("filtercam filter=sepia", "fcsepia")
        counts = live_branches(live_source(fps), elements, seconds=5)
        for element in elements:
            print(f"| live {fps} fps 640x480 into a syncing sink, `{element}` | {counts['identity']} frames in 5 s | {counts[element]} frames |")
    for element in ("filtercam filter=none", "filtercam filter=sepia", "filtercam filter=sepia orientation=90r"):
        print(f"| latency added at 30 fps 640x480, `{element}` | 0 ms | {added_latency(element):.1f} ms |")
    # ~100 ms a 1080p frame: 7 blurs before the blur's rows vectorized, 14 since.
    chain = ", ".join(["blur radius=32"] * 14)
    processed, dropped, latency, early, late = overload(chain)
    print(f"\n3x overload (1920x1080 live 30 fps through `{chain}`, 8 s): processed {processed}, dropped {dropped}, "
          f"latency answered {latency:.0f} ms; capture-to-sink delay {early:.0f} ms in second 2, {late:.0f} ms in the last second")
