"""`make run` installs only what running needs (the Makefile's RUN_PACKAGES) and `make test`
the test tools too: every GStreamer element a shipped pipeline file or the program itself
names must come from a package of the running list, or running would fail on a machine
where only `make run` was done."""
import glob
import os
import re
import subprocess
import unittest

from support import Gst

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Elements a shipped pipeline uses whose packages its header names for the user to add.
OPTIONAL = {"pipewiresink": "pipewire-camera.pipeline names pipewire, wireplumber and gstreamer1.0-pipewire"}


def run_packages():
    text = open(os.path.join(ROOT, "Makefile")).read()
    listed = re.search(r"^RUN_PACKAGES = ((?:.*\\\n)*.*)$", text, re.M)
    return set(listed.group(1).replace("\\\n", " ").split())


def named_words():
    """Lower-case words in the pipeline files (comments aside) and in the program's string
    literals (the benchmark, a developer's tool installed by `make bench`, aside; and the
    table that names the package of a missing stock element, which names elements to say
    what to install, not elements the program uses)."""
    words = set()
    for path in glob.glob(os.path.join(ROOT, "pipelines", "*.pipeline")):
        for line in open(path):
            words |= set(re.findall(r"[a-z][a-z0-9_]+", line.split("#")[0]))
    sources = glob.glob(os.path.join(ROOT, "Sources", "**", "*.swift"), recursive=True) \
        + glob.glob(os.path.join(ROOT, "Sources", "**", "*.c"), recursive=True)
    for path in sources:
        if os.path.basename(path).startswith("Bench") or "filtercam-fuzz" in path \
                or os.path.basename(path) == "StockElementPackages.swift":
            continue
        for literal in re.findall(r'"([^"\n]*)"', open(path).read()):
            words |= set(re.findall(r"[a-z][a-z0-9_]+", literal))
    return words


class RunPackages(unittest.TestCase):
    def test_every_element_running_needs_comes_from_the_running_list(self):
        plugin_files = {}
        for word in named_words():
            factory = Gst.ElementFactory.find(word)
            plugin = factory.get_plugin() if factory else None
            # FilterCam's own elements come from the build (the loadable plugin), not a package.
            if plugin is None or plugin.get_filename() is None or plugin.get_name() == "filtercam" or word in OPTIONAL:
                continue
            # Debian's merged /usr: dpkg knows the files under /usr/lib.
            plugin_files[word] = re.sub(r"^/lib/", "/usr/lib/", plugin.get_filename())
        self.assertIn("x264enc", plugin_files, "the scan found the demo's encoder")
        out = subprocess.run(["dpkg", "-S"] + sorted(set(plugin_files.values())), capture_output=True, text=True).stdout
        package_of = {line.split(": ", 1)[1]: line.split(":")[0] for line in out.splitlines() if ": " in line}
        allowed = run_packages() | {"libgstreamer1.0-0"}   # core elements; libgstreamer1.0-dev depends on it
        missing = {word: package_of.get(path, "?") for word, path in plugin_files.items() if package_of.get(path) not in allowed}
        self.assertEqual(missing, {}, "elements whose packages `make run` would not install")


if __name__ == "__main__":
    unittest.main()
