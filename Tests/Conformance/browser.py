"""A real browser for the tests: headless Chromium driven over WebDriver (chromedriver, the
W3C protocol over HTTP on loopback), with no Python package beyond the standard library.
Starting one costs about 3 s, so tests share one: `Browser()` once, `quit()` at the end."""
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request


def available():
    """Why no browser can run here, or None."""
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return f"{program} is not installed (make test-deps installs chromium and chromium-driver)"
    return None


class WebDriverError(Exception):
    pass


class Browser:
    def __init__(self, extra_args=()):
        self.downloads = tempfile.mkdtemp(prefix="fc-downloads-")
        # Port 0: chromedriver binds a port of its own and prints it. A port picked here and
        # handed over could be taken by another socket in between (CI saw chromedriver exit 1,
        # "port not available").
        self.driver = subprocess.Popen(["chromedriver", "--port=0", "--allowed-ips=127.0.0.1"],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = self._port_said_by_driver()
        self.base = f"http://127.0.0.1:{self.port}"
        self._wait_for_driver()
        options = {
            "binary": shutil.which("chromium"),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--window-size=1000,900",
                     "--no-first-run", "--disable-background-networking", *extra_args],
            "prefs": {"download.default_directory": self.downloads, "download.prompt_for_download": False},
        }
        value = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options,
                                                                                  "goog:loggingPrefs": {"browser": "ALL"}}}})
        self.session = f"/session/{value['sessionId']}"

    def _port_said_by_driver(self, timeout=20):
        """Reads chromedriver's output until it says its port; the rest is drained in the background."""
        found = queue.Queue()

        def read():
            said = []
            for line in self.driver.stdout:
                said.append(line.strip())
                match = re.search(r"started successfully on port (\d+)", line)
                if match:
                    found.put(int(match.group(1)))
            found.put(said)  # output ended: chromedriver exited

        threading.Thread(target=read, daemon=True).start()
        try:
            answer = found.get(timeout=timeout)
        except queue.Empty:
            raise WebDriverError(f"chromedriver did not say its port within {timeout} s") from None
        if isinstance(answer, list):
            self.driver.wait()
            raise WebDriverError(f"chromedriver exited with {self.driver.returncode}: {' / '.join(answer)[-400:]}")
        return answer

    def _wait_for_driver(self, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.driver.poll() is not None:
                raise WebDriverError(f"chromedriver exited with {self.driver.returncode}")
            try:
                self._call("GET", "/status")
                return
            except (OSError, WebDriverError):
                time.sleep(0.05)
        raise WebDriverError("chromedriver did not answer within 20 s")

    def _call(self, method, path, body=None, timeout=60):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError(error.read().decode(errors="replace")[:600]) from None

    def console_errors(self):
        """The console's errors since the last call (SEVERE entries: a failed fetch, a script error)."""
        return [entry["message"] for entry in self._call("POST", self.session + "/se/log", {"type": "browser"}) if entry["level"] == "SEVERE"]

    def open(self, url):
        self._call("POST", self.session + "/url", {"url": url})

    def current_window(self):
        return self._call("GET", self.session + "/window")

    def new_window(self):
        """A new window's handle (not switched to)."""
        return self._call("POST", self.session + "/window/new", {"type": "window"})["handle"]

    def switch_to(self, handle):
        self._call("POST", self.session + "/window", {"handle": handle})

    def run(self, script, *args):
        """Runs `script` (a function body) in the page; returns its return value."""
        return self._call("POST", self.session + "/execute/sync", {"script": script, "args": list(args)})

    def run_async(self, script, *args):
        """Runs `script`, an async function body, in the page; returns what it resolves to."""
        wrapped = "const done = arguments[arguments.length - 1]; (async () => {" + script + "})().then(done, (e) => done({error: String(e)}))"
        return self._call("POST", self.session + "/execute/async", {"script": wrapped, "args": list(args)})

    def click(self, css):
        element = self._call("POST", self.session + "/element", {"using": "css selector", "value": css})
        self._call("POST", self.session + f"/element/{next(iter(element.values()))}/click", {})

    def click_at(self, x, y):
        """A real pointer click at viewport point (x, y)."""
        pointer = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": int(x), "y": int(y)},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}
        self._call("POST", self.session + "/actions", {"actions": [pointer]})
        self._call("DELETE", self.session + "/actions")

    def drag(self, start, end, steps=10, step_ms=40):
        """A real pointer drag from viewport point `start` to `end` in `steps` moves."""
        (x0, y0), (x1, y1) = start, end
        moves = [{"type": "pointerMove", "duration": step_ms, "origin": "viewport",
                  "x": int(x0 + (x1 - x0) * k / steps), "y": int(y0 + (y1 - y0) * k / steps)} for k in range(1, steps + 1)]
        pointer = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": int(x0), "y": int(y0)},
            {"type": "pointerDown", "button": 0}, *moves, {"type": "pointerUp", "button": 0}]}
        self._call("POST", self.session + "/actions", {"actions": [pointer]})
        self._call("DELETE", self.session + "/actions")

    def wheel(self, x, y, delta_y):
        """One real wheel turn at viewport point (x, y); a negative `delta_y` scrolls up."""
        wheel = {"type": "wheel", "id": "wheel", "actions": [
            {"type": "scroll", "origin": "viewport", "x": int(x), "y": int(y), "deltaX": 0, "deltaY": int(delta_y), "duration": 0}]}
        self._call("POST", self.session + "/actions", {"actions": [wheel]})
        self._call("DELETE", self.session + "/actions")

    def key(self, value):
        """One real key press and release (WebDriver's key value: a character, or
        "\\ue00f" for Page Down, "\\ue00c" for Escape, "\\ue012"-"\\ue015" for the arrows)."""
        keys = {"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]}
        self._call("POST", self.session + "/actions", {"actions": [keys]})
        self._call("DELETE", self.session + "/actions")

    def wait_for(self, script, timeout, *args, interval=0.1):
        """Polls `script` until it returns something truthy; returns that, or the last value on timeout."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            value = self.run(script, *args)
            if value:
                return value
            time.sleep(interval)
        return value

    def downloaded(self, suffix, timeout):
        """The path of the first finished download ending in `suffix`, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = [f for f in os.listdir(self.downloads) if f.endswith(suffix)]
            if done:
                return os.path.join(self.downloads, done[0])
            time.sleep(0.1)
        return None

    def quit(self):
        try:
            self._call("DELETE", self.session, timeout=20)
        except (OSError, WebDriverError, AttributeError):
            pass
        self.driver.terminate()
        try:
            self.driver.wait(10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
            self.driver.wait()
