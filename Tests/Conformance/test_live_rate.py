"""Live sources into syncing sinks: a FilterCam element shows as many frames as identity
in the same pipeline (≥ 99 %). Every element under test is a branch of one tee beside
identity, so they see the same frames at the same moments.

Run with the release plugin on GST_PLUGIN_PATH (the filters must be faster than a frame).
"""
import sys
import threading
import time
import unittest

from support import (FILTERCAM_ELEMENTS, Counter, Gst, play_for, rendered, require_plugin, run_to_eos, sink_pad,
                     wait_for)

require_plugin()


def live_branches(source, elements, seconds=3.0, sink_options=""):
    """SOURCE (a live description) into a tee; identity and each of ELEMENTS on a branch
    of their own, each into a syncing sink that drops frames later than 20 ms (and has
    SINK_OPTIONS). Returns the frames each sink showed: {"identity": n, ELEMENT: n, ...}."""
    names = ["identity"] + list(elements)
    pipeline = Gst.parse_launch(f"{source} ! tee name=t " + " ".join(
        f"t. ! queue ! {branch} ! fakesink name=sink{i} sync=true max-lateness=20000000 {sink_options}"
        for i, branch in enumerate(names)))
    pipeline.set_state(Gst.State.PLAYING)
    try:
        play_for(pipeline, seconds)
        return {name: rendered(pipeline, f"sink{i}") for i, name in enumerate(names)}
    finally:
        pipeline.set_state(Gst.State.NULL)


def live_source(fps, fmt="BGRx", size=(640, 480)):
    return f"videotestsrc is-live=true ! video/x-raw,format={fmt},width={size[0]},height={size[1]},framerate={fps}/1"


class LiveCase(unittest.TestCase):
    ATTEMPTS = 3

    def check_branches(self, name, source, elements, at_least, seconds=3.0, frames=None, sink_options=""):
        """Each element shows ≥ 99 % of identity's frames (and one at the end). A shortfall
        is measured again, up to ATTEMPTS runs: an element that drops frames itself falls
        short in every run (the bug this guards against lost every second frame), while
        frames made late by other processes holding both cores are late in one run, not in
        three. FRAMES: what the source makes in SECONDS; a run in which identity's own sink
        showed fewer than 98 % of them measured the machine, not the element, and when
        every run did, the case is skipped and says so."""
        waiting, runs, measured = list(elements), [], False
        for _ in range(self.ATTEMPTS):
            counts = live_branches(source, waiting, seconds, sink_options)
            runs.append(counts)
            print(f"\n  {name}: {counts}", file=sys.stderr)
            if counts["identity"] <= at_least or (frames and counts["identity"] < 0.98 * frames):
                continue   # the source or identity itself did not run in real time
            measured = True
            waiting = [e for e in waiting if counts[e] < 0.99 * counts["identity"] - 1]
            if not waiting:
                return
        if not measured and frames:
            self.skipTest(f"{name}: identity's own sink showed fewer than 98 % of the {frames} frames "
                          f"in each of {self.ATTEMPTS} runs (the machine was too busy to run live): {runs}")
        self.fail(f"{name}: {waiting} fell short of identity's frames (or identity of {at_least}) "
                  f"in each of {self.ATTEMPTS} runs: {runs}")


class LiveRate(LiveCase):
    """1. A live source into a syncing sink: as many frames as identity (≥ 99 %)."""

    def check(self, fps):
        self.check_branches(f"live {fps} fps", live_source(fps),
                            FILTERCAM_ELEMENTS + ["filtercam filter=sepia orientation=90r"], at_least=fps * 2, frames=fps * 3)

    def test_30_fps(self):
        self.check(30)

    def test_60_fps(self):
        self.check(60)

    def test_30_fps_in_camera_and_encoder_formats(self):
        # Frames in the formats cameras give and encoders take, straight into the elements
        # (no videoconvert): as many reach the syncing sink as through identity.
        for fmt in ["I420", "NV12", "YUY2"]:
            with self.subTest(format=fmt):
                self.check_branches(f"live 30 fps {fmt}", live_source(30, fmt),
                                    FILTERCAM_ELEMENTS + ["filtercam filter=sepia orientation=90r lens=0.25,0.25,0.5,0.5"],
                                    at_least=60, frames=90)


class StalledBranch(unittest.TestCase):
    def test_a_branch_nobody_pulls_does_not_stop_the_others(self):
        # Behind a second of latency, a full mailbox waits for room while its frames are on
        # time: it waited for good behind an appsink nobody pulls, and the camera and the
        # preview of the same tee stopped after 32 frames. Now it waits until they are late,
        # then drops them as before, and the preview keeps its rate.
        pipeline = Gst.parse_launch(
            "videotestsrc is-live=true ! video/x-raw,width=160,height=120,framerate=30/1 ! tee name=t "
            "t. ! queue ! fakesink name=preview sync=true "
            "t. ! queue ! filtercam filter=sepia ! appsink max-buffers=1 drop=false processing-deadline=1000000000")
        pipeline.set_state(Gst.State.PLAYING)
        try:
            play_for(pipeline, 4.0)
            shown = rendered(pipeline, "preview")
        finally:
            pipeline.set_state(Gst.State.NULL)
        # 120 frames in 4 s; it stopped at 32.
        self.assertGreater(shown, 80)


class OffsetChangedWhilePlaying(unittest.TestCase):
    def test_a_ts_offset_set_while_playing_counts(self):
        # playbin's av-offset is changed while playing, and no LATENCY event says so: frames
        # were taken for late, 24 of 120 shown, where identity showed 120.
        counts = {}
        for element in ["identity", "filtercam filter=sepia"]:
            pipeline = Gst.parse_launch("videotestsrc is-live=true ! video/x-raw,width=160,height=120,framerate=30/1 ! "
                                        f"{element} ! fakesink name=sink sync=true max-lateness=20000000")
            pipeline.set_state(Gst.State.PLAYING)
            try:
                play_for(pipeline, 1.0)
                pipeline.get_by_name("sink").set_property("ts-offset", 500000000)
                before = rendered(pipeline, "sink")
                play_for(pipeline, 3.0)
                counts[element] = rendered(pipeline, "sink") - before
            finally:
                pipeline.set_state(Gst.State.NULL)
        self.assertGreaterEqual(counts["filtercam filter=sepia"], 0.9 * counts["identity"], counts)


class OnTimeBursts(LiveCase):
    """1. Late means late: frames that arrive together but on time are all delivered,
    as through identity (≥ 99 %); only frames that cannot reach the sink in time drop."""

    def check(self, name, source, seconds=5.0, fps=None, sink_options=""):
        self.check_branches(name, source, FILTERCAM_ELEMENTS, at_least=20, seconds=seconds,
                            frames=fps and int(fps * seconds), sink_options=sink_options)

    def test_videorate_25_to_30(self):
        # videorate pushes each duplicate right behind its original.
        self.check("videorate 25->30", live_source(25, size=(320, 240)) + " ! videorate ! video/x-raw,framerate=30/1",
                   fps=30)

    def test_videorate_30_to_60(self):
        self.check("videorate 30->60", live_source(30, size=(320, 240)) + " ! videorate ! video/x-raw,framerate=60/1",
                   fps=60)

    def test_decoder_b_frame_bursts(self):
        self.check("H.264 with B-frames, decoded", "videotestsrc is-live=true ! video/x-raw,width=320,height=240,"
                   "framerate=30/1 ! x264enc speed-preset=ultrafast bframes=2 key-int-max=30 ! h264parse ! "
                   "avdec_h264 ! videoconvert ! video/x-raw,format=BGRx")


    def test_behind_the_latency_of_an_audio_branch(self):
        # A live audio branch with 250 ms buffers raises the pipeline's latency: each sink
        # holds a frame 250 ms, so ~8 frames are in flight; a bound of three waiting frames
        # dropped 42 of 90 on-time frames.
        audio = "audiotestsrc is-live=true samplesperbuffer=12000 ! audio/x-raw,rate=48000 ! fakesink sync=true "
        # (The last 250 ms of frames reach no sink within the run: identity is the measure.)
        self.check("behind 250 ms of audio latency", audio + live_source(30, "I420", (160, 120)), seconds=3.0)

    def test_behind_more_latency_than_sixteen_frames(self):
        # A second of audio buffers: ~30 frames in flight. At most 16 could wait, and the
        # rest were dropped though on time (11 fps of 60 behind 500 ms): now a full mailbox
        # waits for room while its frames are on time, as identity holds upstream.
        audio = "audiotestsrc is-live=true samplesperbuffer=48000 ! audio/x-raw,rate=48000 ! fakesink sync=true "
        self.check("behind 1 s of audio latency", audio + live_source(30, "I420", (160, 120)), seconds=3.0)

    def test_frames_without_durations_behind_a_jitter_buffer(self):
        # An RTP depayloader's frames carry only a PTS (framerate 0/1): with no duration the
        # frames that fit in the jitter buffer's latency were not counted, and 2-22 fps of
        # 30 reached the sink.
        self.check("RTP behind a 1 s jitter buffer", live_source(30, "I420", (160, 120))
                   + " ! rtpvrawpay ! rtpjitterbuffer latency=1000 ! rtpvrawdepay", seconds=3.0)

    def test_sinks_rendering_late_by_their_ts_offset(self):
        # A sink's ts-offset (playbin's av-offset) holds each frame that much longer, and the
        # latency does not say so: behind 500 ms, 31 of 150 frames reached the sink.
        self.check("sinks with ts-offset=500 ms", live_source(30, "I420", (160, 120)), seconds=3.0,
                   sink_options="ts-offset=500000000")

    def test_240_fps(self):
        # The sink's 20 ms processing deadline alone is ~5 frames at 240 fps: every fourth
        # frame was dropped.
        self.check("live 240 fps", live_source(240, "I420", (16, 16)), seconds=3.0, fps=240)

    def check_batches(self, source, name, seconds, at_least):
        """SOURCE (a PairedLiveSource) beside identity: as many frames shown (≥ 99 %)."""
        for element in FILTERCAM_ELEMENTS:
            with self.subTest(element=element):
                reference, tested = source.run_side_by_side(element, seconds=seconds)
                print(f"\n  {name}, {element}: identity {reference} frames, FilterCam {tested}", file=sys.stderr)
                self.assertGreater(reference, at_least)
                self.assertGreaterEqual(tested, 0.99 * reference - 1)

    def test_source_pushing_two_frames_at_once(self):
        # A live appsrc that pushes frames in pairs every 66 ms (both on time: the pair's
        # latency is announced), as a source batching its captures would.
        from support import PairedLiveSource
        self.check_batches(PairedLiveSource(), "two frames every 66 ms", 3.0, at_least=60)

    def test_source_pushing_six_frames_at_once(self):
        # A jitter buffer releasing what a network stall held: six frames at once every
        # 200 ms, its 200 ms announced, so all are on time (a bound of three waiting
        # frames dropped a third of them).
        from support import PairedLiveSource
        self.check_batches(PairedLiveSource(width=160, height=120, together=6), "six frames every 200 ms", 3.0,
                           at_least=60)

    def test_webrtc_call_start_up(self):
        # A sender webrtcbin and a receiver in one process: while the call starts, frames
        # bunch up; what reaches the encoder and the receiver's syncing sink in the first
        # 5 s, beside identity in the same place.
        # What the element controls is checked exactly: every frame of the burst goes on to
        # the encoder (as many as through identity) and none is dropped as late. How many
        # of them the receiver gets depends on when ICE connects, which varies from call
        # to call by more than a per cent (144–145 of 151 through identity, and through
        # FilterCam with 0 dropped), so it is shown and only checked to carry the video.
        # One FilterCam element: the single-filter ones (fcsepia) hand frames over through
        # the same worker, and each call takes 5 s.
        from webrtc_pair import frames_received
        reference = frames_received("identity")
        for element in FILTERCAM_ELEMENTS[:1]:
            with self.subTest(element=element):
                name = element.split()[0]
                encoded, received, dropped = frames_received(f"{name} name=tested {element[len(name):]}")
                print(f"\n  WebRTC call start-up, {element}: identity {reference[0]} encoded, {reference[1]} "
                      f"received; FilterCam {encoded} encoded, {received} received, {dropped} dropped",
                      file=sys.stderr)
                self.assertGreater(reference[0], 100)
                self.assertGreaterEqual(encoded, 0.99 * reference[0] - 1)
                self.assertEqual(dropped, 0, "on-time frames of the start-up burst were dropped")
                self.assertGreater(received, 0.8 * reference[1], "the call did not carry the video")

    def test_overload_still_drops_and_reports(self):
        # A chain several times slower than the frame interval: frames are dropped, counted
        # and reported as QoS, and frames still reach the sink. (24 blurs: 12 were several
        # times slower until the blur's rows vectorized, then about one interval on two cores.)
        chain = ", ".join(["blur radius=32"] * 24)
        pipeline = Gst.parse_launch(
            "videotestsrc is-live=true ! video/x-raw,format=BGRx,width=1920,height=1080,framerate=30/1 ! "
            f"filtercam name=fc filter=\"{chain}\" ! fakesink name=sink sync=true")
        counter = Counter(sink_pad(pipeline, "sink"))
        frames = []   # (pts, duration, DISCONT) of each frame the sink got
        sink_pad(pipeline, "sink").add_probe(Gst.PadProbeType.BUFFER, lambda pad, info: (
            frames.append((info.get_buffer().pts, info.get_buffer().duration, info.get_buffer().has_flags(Gst.BufferFlags.DISCONT))),
            Gst.PadProbeReturn.OK)[1])
        pipeline.set_state(Gst.State.PLAYING)
        qos = []
        deadline = time.monotonic() + 30
        # Drops are reported at once; the first processed frames take a while to arrive.
        while (len(qos) < 5 or counter.count < 2) and time.monotonic() < deadline:
            message = wait_for(pipeline, Gst.MessageType.QOS, timeout=0.1)
            if message is not None and message.src.get_name() == "fc":
                qos.append(message)
        fc = pipeline.get_by_name("fc")
        processed, dropped = fc.get_property("frames-processed"), fc.get_property("frames-dropped")
        pipeline.set_state(Gst.State.NULL)
        if not qos and dropped == 0:
            self.skipTest("this machine ran the chain within the frame interval")
        self.assertGreaterEqual(len(qos), 5, "each drop is reported as a QoS message")
        self.assertTrue(all(m.parse_qos()[0] for m in qos), "live QoS")
        self.assertGreater(dropped, 0)
        self.assertGreater(counter.count, 0)
        # As GstBaseTransform marks the frame after a QoS drop: DISCONT exactly where the
        # stream has a hole (frames dropped while the one before was processed marked that
        # one, before the hole, and not the frame after it).
        self.assertTrue(any(discont for _, _, discont in frames[1:]), "no frame after a drop was marked DISCONT")
        for (pts, duration, _), (next_pts, _, discont) in zip(frames, frames[1:]):
            hole = next_pts - pts > 1.5 * duration
            self.assertEqual(discont, hole, f"frame at {next_pts / 1e9:.3f} s after {pts / 1e9:.3f} s: DISCONT {discont}")


def branches_to_eos(source, elements, prepare=None):
    """SOURCE (a live description that ends) into a tee; identity and each of ELEMENTS on a
    branch into a syncing sink, played to EOS (PREPARE(pipeline) first). Returns the frames
    each sink showed and each element's frames-dropped."""
    names = ["identity"] + list(elements)
    pipeline = Gst.parse_launch(f"{source} ! tee name=t " + " ".join(
        f"t. ! queue ! {branch} name=e{i} ! fakesink name=sink{i} sync=true max-lateness=20000000"
        for i, branch in enumerate(names)))
    if prepare:
        prepare(pipeline)
    try:
        run_to_eos(pipeline, timeout=30)
        shown = {name: rendered(pipeline, f"sink{i}") for i, name in enumerate(names)}
        dropped = {name: pipeline.get_by_name(f"e{i}").get_property("frames-dropped") for i, name in enumerate(names) if i}
        return shown, dropped
    finally:
        pipeline.set_state(Gst.State.NULL)


class EarlyFrames(unittest.TestCase):
    """Frames a syncing sink holds because their timestamps are ahead of the clock are on
    time: the element holds upstream while they wait, as identity does, and drops none."""

    def check(self, name, shown, dropped, frames):
        print(f"\n  {name}: shown {shown}, dropped {dropped}", file=sys.stderr)
        self.assertGreaterEqual(shown["identity"], frames - 1)
        for element, count in dropped.items():
            # One frame of slack: a machine busy enough to make the first frame late makes
            # identity's sink drop it too. The bug dropped 4-11.
            self.assertLessEqual(count, 1, f"{element} dropped on-time frames: {shown}")
            self.assertGreaterEqual(shown[element], shown["identity"] - 1, element)

    def test_frames_stamped_300_ms_ahead(self):
        # A live source whose timestamps lead the clock by 300 ms (a capture clock ahead):
        # the mailbox waited only the pipeline's latency (33 ms) for room, then dropped
        # 15 of 60 frames that identity's sink showed.
        def lead(pipeline):
            pipeline.get_by_name("camera").get_static_pad("src").add_probe(
                Gst.PadProbeType.BUFFER, lambda pad, info: (setattr(info.get_buffer(), "pts", info.get_buffer().pts + 300 * Gst.MSECOND),
                                                            Gst.PadProbeReturn.OK)[1])
        shown, dropped = branches_to_eos(
            "videotestsrc name=camera is-live=true num-buffers=45 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1",
            FILTERCAM_ELEMENTS, lead)
        self.check("300 ms ahead", shown, dropped, 45)

    def test_a_burst_and_a_jump_from_a_source_announcing_no_latency(self):
        # A live appsrc announcing no latency (pipeline latency 0) that hands over 10 frames
        # at once, all on time, then paced frames, then a jump 1 s forward: 4-6 of the
        # burst and 4 after the jump were dropped, every one shown through identity.
        frame = Gst.SECOND // 30
        stamps = [k * frame for k in range(20)] + [Gst.SECOND + k * frame for k in range(20, 30)]

        def feed(pipeline):
            src = pipeline.get_by_name("src")

            def push():
                clock, base = src.get_clock(), src.get_base_time()
                for k, pts in enumerate(stamps):
                    if k >= 10:   # the first 10 at once, then each when its time comes
                        Gst.Clock.id_wait(clock.new_single_shot_id(base + stamps[k - 1]))
                    buffer = Gst.Buffer.new_wrapped(bytes([k]) * (160 * 120 * 3 // 2))
                    buffer.pts, buffer.duration = pts, frame
                    if k == 20:
                        buffer.set_flags(Gst.BufferFlags.DISCONT)
                    if src.emit("push-buffer", buffer) != Gst.FlowReturn.OK:
                        return
                src.emit("end-of-stream")

            def on_state(bus, message):
                if message.src == src and message.parse_state_changed()[1] == Gst.State.PLAYING:
                    threading.Thread(target=push, daemon=True).start()
            bus = pipeline.get_bus()
            bus.enable_sync_message_emission()
            bus.connect("sync-message::state-changed", on_state)
        shown, dropped = branches_to_eos(
            "appsrc name=src is-live=true format=time min-latency=0 caps=video/x-raw,format=I420,width=160,height=120,framerate=30/1",
            FILTERCAM_ELEMENTS, feed)
        self.check("burst of 10 and a jump of 1 s, no latency announced", shown, dropped, len(stamps))


if __name__ == "__main__":
    unittest.main(verbosity=2)
