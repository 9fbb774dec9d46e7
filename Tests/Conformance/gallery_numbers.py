"""The effects gallery's frame rate, for the README: a live 1280x720 30 fps picture into a
syncing window under Xvfb (glimagesink, the window pipelines' sink, and videoconvert !
ximagesink), with the gallery open, beside the same window without it and with `identity`
in filtercam's place, one after another in one run (release plugin on GST_PLUGIN_PATH):
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 gallery_numbers.py [ROUNDS]
Each case's frame rate per round, then the median over the rounds."""
import os
import sys
import time

from support import Counter, Gst, sink_pad
from window_support import VirtualDisplay

CASES = [("identity", "identity"),
         ("filtercam filter=sepia osd=true", "filtercam name=fc filter=sepia osd=true"),
         ("filtercam filter=sepia osd=true gallery=true", "filtercam name=fc filter=sepia osd=true gallery=true")]


SINKS = ["glimagesink", "videoconvert ! ximagesink"]


def window_fps(element, source_format, sink, seconds=6):
    """Frames per second shown by a syncing window sink, after the window is up; and
    filtercam's frames-dropped over the same interval."""
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true pattern=smpte ! "
        f"video/x-raw,format={source_format},width=1280,height=720,framerate=30/1 ! "
        f"{element} ! {sink} name=window sync=true")
    shown = Counter(sink_pad(pipeline, "window"))
    pipeline.set_state(Gst.State.PLAYING)
    deadline = time.monotonic() + 20
    while shown.count < 30 and time.monotonic() < deadline:
        time.sleep(0.1)
    fc = pipeline.get_by_name("fc")
    dropped0 = fc.get_property("frames-dropped") if fc else 0
    c0, t0 = shown.count, time.monotonic()
    time.sleep(seconds)
    c1, t1 = shown.count, time.monotonic()
    dropped = (fc.get_property("frames-dropped") if fc else 0) - dropped0
    pipeline.set_state(Gst.State.NULL)
    return (c1 - c0) / (t1 - t0), dropped


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    display = VirtualDisplay()
    os.environ["DISPLAY"] = display.start()
    results = {}
    try:
        for r in range(rounds):
            for sink in SINKS:
                for source_format in ("BGRx", "I420"):
                    for name, element in CASES:
                        fps, dropped = window_fps(element, source_format, sink)
                        results.setdefault((sink, source_format, name), []).append(fps)
                        print(f"round {r + 1} {sink:26s} {source_format} {name:46s} {fps:5.1f} fps  dropped {dropped}",
                              flush=True)
    finally:
        display.stop()
    # On a shared machine one round can fall on a busy moment: the median of the rounds.
    print(f"median of {rounds} rounds (load average {os.getloadavg()[0]:.1f} at the end):")
    for (sink, source_format, name), values in results.items():
        print(f"  {sink:26s} {source_format} {name:46s} {sorted(values)[len(values) // 2]:5.1f} fps")


if __name__ == "__main__":
    main()
