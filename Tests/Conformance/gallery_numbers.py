"""The effects gallery's frame rate, for the README: a live 1280x720 30 fps picture into a
syncing glimagesink window under Xvfb (the window pipelines' sink), with the gallery open,
beside the same window without it and with `identity` in filtercam's place, one after
another in one run (release plugin on GST_PLUGIN_PATH):
    cd Tests/Conformance && GST_PLUGIN_PATH=../../.build/release /usr/bin/python3 gallery_numbers.py [ROUNDS]"""
import os
import sys
import time

from support import Counter, Gst, sink_pad
from test_window import VirtualDisplay

CASES = [("identity", "identity"),
         ("filtercam filter=sepia osd=true", "filtercam name=fc filter=sepia osd=true"),
         ("filtercam filter=sepia osd=true gallery=true", "filtercam name=fc filter=sepia osd=true gallery=true")]


def window_fps(element, source_format, seconds=6):
    """Frames per second shown by a syncing glimagesink, after the window is up; and
    filtercam's frames-dropped over the same interval."""
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true pattern=ball ! "
        f"video/x-raw,format={source_format},width=1280,height=720,framerate=30/1 ! "
        f"{element} ! glimagesink name=window sync=true")
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
    try:
        for r in range(rounds):
            for source_format in ("BGRx", "I420"):
                for name, element in CASES:
                    fps, dropped = window_fps(element, source_format)
                    print(f"round {r + 1} {source_format} {name:48s} {fps:5.1f} fps  dropped {dropped}", flush=True)
    finally:
        display.stop()


if __name__ == "__main__":
    main()
