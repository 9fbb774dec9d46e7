"""pipelines/pipewire-camera.pipeline: the filtered picture published as a PipeWire camera,
received by `pipewiresrc` as a camera program would, against a PipeWire session the test
starts itself (its own bus, daemon and session manager). In the same run a stock
`videotestsrc ! pipewiresink` camera is the reference for the frame rate."""
import os
import re
import signal
import subprocess
import tempfile
import unittest

import pipewire_session
from support import image_pixel
from test_serve import CLI, ROOT

SOURCE = ("videotestsrc is-live=true pattern=solid-color foreground-color=0xff808080 ! "
          "video/x-raw,width=320,height=240,framerate=30/1")
REFERENCE = (f"{SOURCE},format=YUY2 ! pipewiresink mode=provide client-name=Reference "
             "stream-properties=props,media.class=Video/Source,media.role=Camera,node.name=Reference")
# A camera program's stream: wireplumber links only streams that say they are video.
CAMERA_STREAM = "stream-properties=props,media.type=Video,media.category=Capture,media.role=Camera"
FRAMES = 150
STILL_FRAMES = 30   # the picture is read from the last one


class PipeWireCamera(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = pipewire_session.available()
        if missing:
            raise unittest.SkipTest(missing)
        if not os.path.exists(CLI):
            raise unittest.SkipTest("no release build of filtercam (make test builds it)")
        cls.session = pipewire_session.PipeWireSession()
        cls.folder = tempfile.mkdtemp(prefix="fc-pipewire-camera-")

    @classmethod
    def tearDownClass(cls):
        cls.session.stop()

    def publish(self, command, name, **env):
        """Starts a camera process and waits for its node."""
        process = subprocess.Popen(command, env=dict(self.session.env, **env), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop, process)
        self.session.wait_for_node(name)
        return process

    @staticmethod
    def stop(process):
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stderr.close()

    def start_receiving(self, name, tail, frames=FRAMES):
        """Starts a camera program's `pipewiresrc` on node `name` for `frames` frames, into `tail`."""
        return subprocess.Popen(["gst-launch-1.0", "-v", "pipewiresrc", f"target-object={name}", CAMERA_STREAM,
                                 f"num-buffers={frames}", "!", *tail.split()],
                                env=self.session.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finished(self, receiver):
        """The receiver's (return code, stdout, stderr) once it ends by itself."""
        try:
            out, err = receiver.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            receiver.kill()
            out, err = receiver.communicate()
        return receiver.returncode, out, err

    def frame_rates(self, *names):
        """Each receiver's average frame rate over FRAMES frames (fpsdisplaysink, not
        syncing), the receivers running at once so that they share the same conditions."""
        receivers = [(name, self.start_receiving(name, "fpsdisplaysink video-sink=fakesink text-overlay=false sync=false"))
                     for name in names]
        rates = []
        for name, receiver in receivers:
            status, out, err = self.finished(receiver)
            self.assertEqual(status, 0, err[-800:] + out[-800:])
            rendered = re.findall(r"rendered: (\d+), dropped: \d+, current: [\d.]+, average: ([\d.]+)", out)
            self.assertTrue(rendered, f"{name}: no frame rate reported:\n{out[-800:]}")
            rates.append((int(rendered[-1][0]), float(rendered[-1][1])))
        return rates

    def test_the_filtered_camera_reaches_a_camera_program_at_full_rate(self):
        ours = self.publish([CLI, "launch", os.path.join(ROOT, "pipelines", "pipewire-camera.pipeline")], "FilterCam", SOURCE=SOURCE)
        self.publish(["gst-launch-1.0", *REFERENCE.split()], "Reference")
        (reference_frames, reference_fps), (frames, fps) = self.frame_rates("Reference", "FilterCam")
        print(f"\n  pipewiresrc: FilterCam {frames} frames at {fps:.1f} fps, stock reference {reference_frames} at {reference_fps:.1f} fps",
              file=__import__("sys").stderr)
        # 30 fps; 29 allows timing noise. If the machine holds even the stock camera below
        # that, ours must keep up with it.
        self.assertGreaterEqual(fps, min(29.0, reference_fps - 1), f"FilterCam {fps:.1f} fps, the stock camera {reference_fps:.1f}")
        # The picture is the filtered one: grey 128 through sepia (0.8), by hand:
        # 0.8 x (173, 154, 120) + 0.2 x 128 = (164, 149, 122).
        still = os.path.join(self.folder, "received-%03d.png")
        status, _, err = self.finished(self.start_receiving("FilterCam", f"videoconvert ! pngenc ! multifilesink location={still}",
                                                            frames=STILL_FRAMES))
        self.assertEqual(status, 0, err[-800:])
        pixel = image_pixel(still % (STILL_FRAMES - 1), 160, 120)
        for got, want in zip(pixel, (164, 149, 122)):
            self.assertAlmostEqual(got, want, delta=8, msg=f"the camera program got {pixel}, sepia of grey is (164, 149, 122)")
        self.assertIsNone(ours.poll(), "the camera process ended: " + (ours.stderr.read() if ours.poll() is not None else ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
