"""A PipeWire session of the test's own, as a desktop has one: a session bus (without it
nodes appear but no frame flows), the pipewire daemon and the wireplumber session manager,
in a private runtime folder, so nothing of the machine's own session is touched.
`env` is what a program needs to join it; `nodes()` lists the node names it knows."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time


def available():
    """Why no PipeWire session can run here, or None."""
    for program in ("pipewire", "wireplumber", "dbus-daemon", "pw-dump"):
        if shutil.which(program) is None:
            return f"{program} is not installed (make test-deps installs pipewire, wireplumber, dbus, gstreamer1.0-pipewire)"
    if subprocess.run(["gst-inspect-1.0", "pipewiresink"], capture_output=True).returncode != 0:
        return "GStreamer's pipewiresink is not installed (gstreamer1.0-pipewire)"
    return None


def accepts_connections(path):
    """Whether the Unix socket at `path` takes a connection now."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        try:
            client.connect(path)
            return True
        except OSError:
            return False


class PipeWireSession:
    def __init__(self, timeout=20):
        self.folder = tempfile.mkdtemp(prefix="fc-pipewire-")
        os.chmod(self.folder, 0o700)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.folder, PIPEWIRE_RUNTIME_DIR=self.folder)
        self.processes = []
        bus = os.path.join(self.folder, "bus")
        self._start(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address=unix:path={bus}"])
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={bus}"
        # Ready when a client can connect: a socket's file appears at bind(), before listen().
        self._wait_for(lambda: accepts_connections(bus), timeout, "the session bus")
        self._start(["pipewire"])
        self._wait_for(lambda: accepts_connections(os.path.join(self.folder, "pipewire-0")), timeout, "the pipewire daemon")
        self._start(["wireplumber"])
        # wireplumber's second connection (the objects it exports) comes once it has started.
        self._wait_for(lambda: "WirePlumber [export]" in self.names("Client", "application.name"), timeout,
                       "the wireplumber session manager")

    def _start(self, command):
        self.processes.append(subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def _wait_for(self, ready, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.processes):
                self.stop()
                raise AssertionError(f"{what}: a process of the PipeWire session exited")
            if ready():
                return
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"{what} was not ready within {timeout} s")

    def objects(self):
        out = subprocess.run(["pw-dump"], env=self.env, capture_output=True, text=True, timeout=10).stdout
        try:
            return json.loads(out) if out.strip() else []
        except json.JSONDecodeError:
            return []

    def names(self, kind, key):
        """The `key` property of each object of type `kind` (Node, Client, …)."""
        return [((o.get("info") or {}).get("props") or {}).get(key) for o in self.objects() if o.get("type", "").endswith(":" + kind)]

    def nodes(self):
        return self.names("Node", "node.name")

    def wait_for_node(self, name, timeout=20):
        self._wait_for(lambda: name in self.nodes(), timeout, f"the PipeWire node {name!r}")

    def stop(self):
        for p in reversed(self.processes):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.processes = []
        shutil.rmtree(self.folder, ignore_errors=True)
