"""Creates, plays, stops and drops one pipeline many times in this process and prints
what that did to resident memory and the thread count, as a JSON line:
    pipeline_cycles.py 'ELEMENT' CYCLES
Run in a process of its own, so the allocator starts as a host program's does."""
import json
import os
import sys

from support import Gst


def resident_kb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])


def threads():
    return len(os.listdir("/proc/self/task"))


def cycle(element):
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers=5 ! video/x-raw,format=BGRx,width=640,height=480 ! {element} ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None or message.type != Gst.MessageType.EOS:
        sys.exit(f"cycle did not end with EOS: {message and message.parse_error()}")


element, cycles = sys.argv[1], int(sys.argv[2])
for _ in range(20):   # warm-up: plugin loading, first allocations, thread pools
    cycle(element)
# Idle threads of GLib's thread pool (which streaming tasks reuse) come and go with timing,
# each with its stack and malloc arena, so one sample can be high by a thread's worth. What
# stays is compared: the least memory over the first and over the last 20 cycles, and the
# most threads seen in each half (growth shows as a higher second half).
memory, seen = [], []
for _ in range(cycles):
    cycle(element)
    memory.append(resident_kb())
    seen.append(threads())
half = cycles // 2
print(json.dumps({"element": element, "cycles": cycles, "grown_kb": min(memory[-20:]) - min(memory[:20]),
                  "threads_first_half": max(seen[:half]), "threads_second_half": max(seen[half:])}))
