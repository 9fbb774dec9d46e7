"""Creates, plays, stops and drops one pipeline many times in this process and prints
what that did to resident memory and the thread count, as a JSON line:
    pipeline_cycles.py 'ELEMENT' CYCLES
Run in a process of its own, so the allocator starts as a host program's does."""
import json
import os
import sys
import time

from support import GLib, Gst


def resident_kb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])


def threads():
    return len(os.listdir("/proc/self/task"))


def thread_names():
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as comm:
                names.append(comm.read().strip())
        except FileNotFoundError:
            pass   # exited while we looked
    return names


def settled_threads():
    """The thread count once GStreamer's idle streaming threads have gone. They wait in
    GLib's thread pool for a next task, half a second in their own pool and then (up to
    2 of them, for 15 s) in the shared one; with no room in the shared one (set below)
    they end after the half second. So the count is read once it has held for 1.5 s
    (three times that wait), within a 20 s deadline."""
    last, since = threads(), time.monotonic()
    deadline = since + 20
    while time.monotonic() < deadline:
        time.sleep(0.02)
        now = threads()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= 1.5:
            break
    return last


def cycle(element):
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers=5 ! video/x-raw,format=BGRx,width=640,height=480 ! {element} ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None or message.type != Gst.MessageType.EOS:
        sys.exit(f"cycle did not end with EOS: {message and message.parse_error()}")


element, cycles = sys.argv[1], int(sys.argv[2])
# Idle streaming threads end after GLib's half-second wait instead of lingering (up to 2,
# for 15 s) in the shared pool, so how many stay does not depend on timing.
GLib.ThreadPool.set_max_unused_threads(0)
for _ in range(20):   # warm-up: plugin loading, first allocations, the row helper thread
    cycle(element)
threads_before = settled_threads()
# Freed frames go back to the allocator at its pace, so the least memory over the first
# and over the last 20 cycles is compared. Right after each stop, no FilterCam worker
# thread may be alive (they are joined, not left to end on their own).
memory, workers_left = [], 0
for _ in range(cycles):
    cycle(element)
    memory.append(resident_kb())
    workers_left = max(workers_left, sum(1 for name in thread_names() if name.endswith(":work")))
print(json.dumps({"element": element, "cycles": cycles, "grown_kb": min(memory[-20:]) - min(memory[:20]),
                  "threads_before": threads_before, "threads_after": settled_threads(),
                  "workers_left": workers_left}))
