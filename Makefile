# FilterCam: the two commands a user needs on a machine that has only the Swift toolchain.
#   make run    installs what is missing, builds (release), runs pipelines/demo.pipeline -> demo.mp4
#   make test   installs what is missing, builds, runs the whole test suite
# Both are idempotent: packages already installed are not installed again.

# Debian packages the build, the elements and the tests use.
PACKAGES = pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-plugins-base-apps \
	ffmpeg imagemagick libimage-exiftool-perl \
	libopencv-objdetect-dev libopencv-imgproc-dev libopencv-core-dev opencv-data gstreamer1.0-opencv \
	gstreamer1.0-x gstreamer1.0-gl python3-gi python3-gst-1.0 gir1.2-gst-plugins-base-1.0 \
	libx11-dev xvfb libgl1-mesa-dri xdotool x11-utils tmux libpango1.0-dev libcairo2-dev fonts-dejavu-core \
	libgstrtspserver-1.0-dev gstreamer1.0-rtsp gstreamer1.0-libav gstreamer1.0-nice \
	libsoup-3.0-dev libgstreamer-plugins-bad1.0-dev libnice-dev gir1.2-gst-plugins-bad-1.0 \
	chromium chromium-driver pipewire wireplumber gstreamer1.0-pipewire dbus iproute2

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test conformance fuzz bench plugin install uninstall clean

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	else echo "system packages: all present"; fi

build: deps
	swift build -c release

run: build
	.build/release/filtercam launch pipelines/demo.pipeline
	@echo "wrote demo.mp4 ($$(du -h demo.mp4 | cut -f1)): open it with any player, e.g. ffplay demo.mp4"

# Debug build of everything and the tests in one build (the tests run the filtercam binary
# and load the plugin), then the suite; then the short sanitizer runs: libFuzzer on every
# fuzz target (10 s each; `make fuzz` runs longer), the thread tests under ThreadSanitizer,
# and LeakSanitizer on two run lengths (in the fuzz build's scratch: its modules are reused).
test: deps
	scripts/timed.sh "debug build" swift build --build-tests
	scripts/timed.sh "swift test" swift test --skip-build --disable-swift-testing
	scripts/timed.sh "conformance" $(MAKE) conformance
	FUZZ_SECONDS=10 scripts/timed.sh "fuzz" scripts/fuzz.sh
	scripts/timed.sh "thread sanitizer" scripts/tsan.sh
	scripts/timed.sh "leak sanitizer" scripts/lsan.sh

# The elements next to stock GStreamer elements in real pipelines, driven from Python
# (a second client), and real windows under a virtual display (Xvfb). Release build: the
# live cases need a filter faster than a frame.
conformance: deps
	swift build -c release --product gstfiltercam
	swift build -c release --product filtercamfaces
	swift build -c release --product filtercam
	cd Tests/Conformance && GST_PLUGIN_PATH=$(CURDIR)/.build/release /usr/bin/python3 run.py

fuzz: deps
	scripts/fuzz.sh

bench: build
	.build/release/filtercam bench

# For the user, no root: the plugin where GStreamer looks by itself (stock gst-launch-1.0
# then finds filtercam with no GST_PLUGIN_PATH) with the face detector's library beside it
# (loaded on the first face search), the CLI on ~/.local/bin, the pipelines
# where `filtercam launch NAME` finds them, the shipped looks beside them (for --looks and
# FILTERCAM_LOOKS).
PREFIX ?= $(HOME)/.local
PLUGIN_DIR = $(PREFIX)/share/gstreamer-1.0/plugins
install: deps
	swift build -c release --product filtercam
	swift build -c release --product gstfiltercam
	swift build -c release --product filtercamfaces
	install -d $(PREFIX)/bin $(PLUGIN_DIR) $(PREFIX)/share/filtercam/pipelines $(PREFIX)/share/filtercam/looks
	install -m 755 .build/release/filtercam $(PREFIX)/bin/filtercam
	install -m 644 .build/release/libgstfiltercam.so $(PLUGIN_DIR)/libgstfiltercam.so
	install -m 644 .build/release/libfiltercamfaces.so $(PLUGIN_DIR)/libfiltercamfaces.so
	install -m 644 pipelines/*.pipeline $(PREFIX)/share/filtercam/pipelines/
	install -m 644 looks/*.cube $(PREFIX)/share/filtercam/looks/
	install -m 644 docs/filters/photo.jpg $(PREFIX)/share/filtercam/preview-photo.jpg
	@echo "installed: $(PREFIX)/bin/filtercam, $(PLUGIN_DIR)/libgstfiltercam.so (and libfiltercamfaces.so), $(PREFIX)/share/filtercam/pipelines, $(PREFIX)/share/filtercam/looks"

uninstall:
	rm -f $(PREFIX)/bin/filtercam $(PLUGIN_DIR)/libgstfiltercam.so $(PLUGIN_DIR)/libfiltercamfaces.so
	rm -rf $(PREFIX)/share/filtercam

clean:
	rm -rf .build
