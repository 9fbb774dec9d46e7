# FilterCam: the two commands a user needs on a machine that has only the Swift toolchain.
#   make run    installs what running needs, builds (release), runs pipelines/demo.pipeline -> demo.mp4
#   make test   installs what the tests need too, builds, runs the whole test suite
# Both are idempotent: packages already installed are not installed again.

# Debian packages, in two lists: what building and running FilterCam needs (make run,
# make install), and what the tests add (make test). Each package is here for a reason
# named beside it; `make test` installs both lists.
# Running: the libraries the build links (GStreamer, its RTSP server, WebRTC with libsoup
# and libnice, Xlib for the window title, Pango/Cairo for the on-screen display, OpenCV
# for faces), the GStreamer plugins the elements and shipped pipelines use (videotestsrc,
# v4l2src, jpegenc, x264enc, mp4mux, intervideosink, webrtcbin, srtsink, avenc_aac for
# sound, the X11/OpenGL window sinks with Mesa's drivers), the face cascades and the OSD's
# font, and gst-launch-1.0/gst-inspect-1.0 for the README's examples.
RUN_PACKAGES = pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
	libgstreamer-plugins-bad1.0-dev libgstrtspserver-1.0-dev libsoup-3.0-dev libnice-dev \
	libx11-dev libpango1.0-dev libcairo2-dev fonts-dejavu-core \
	libopencv-objdetect-dev libopencv-imgproc-dev libopencv-core-dev opencv-data \
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-nice \
	gstreamer1.0-x gstreamer1.0-gl libgl1-mesa-dri
# Testing adds: ffprobe (ffmpeg), ImageMagick and exiftool to read what was written,
# gst-discoverer, OpenCV's GStreamer elements (facedetect, compared with in tests and
# bench), the Python bindings for the conformance suite, Xvfb, xdotool, x11-utils and tmux
# for windows and terminals, Chromium for the browser tests, PipeWire for the PipeWire
# camera, iproute2 for the network tests, the RTSP client sink.
TEST_PACKAGES = $(RUN_PACKAGES) \
	ffmpeg imagemagick libimage-exiftool-perl gstreamer1.0-plugins-base-apps gstreamer1.0-opencv \
	python3-gi python3-gst-1.0 gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0 \
	xvfb xdotool x11-utils tmux chromium chromium-driver \
	pipewire wireplumber gstreamer1.0-pipewire dbus iproute2 gstreamer1.0-rtsp

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test-deps build run test conformance fuzz bench plugin install uninstall clean

# Installs the packages of a list that are missing (apt-get update first, then only those):
# run again, it installs nothing.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	else echo "system packages: all present"; fi
endef

deps:
	$(call install_missing,$(RUN_PACKAGES))

test-deps:
	$(call install_missing,$(TEST_PACKAGES))

build: deps
	swift build -c release

run: build
	.build/release/filtercam launch pipelines/demo.pipeline
	@echo "open demo.mp4 with any player, e.g. ffplay demo.mp4 (package ffmpeg)"

# Every build first, at once (scripts/build-for-tests.sh: debug with the tests; release,
# whose filtercam binary and plugin the tests run and load, as users do: a debug binary's
# pixel loops made the suite ~110 s longer; the sanitizer builds), then the suite,
# the conformance suite, and the short sanitizer runs (scripts/sanitizers.sh): libFuzzer on
# every fuzz target (3 s each from a fixed seed, so the same inputs every run; `make fuzz`
# runs longer with fresh seeds), the thread tests under ThreadSanitizer, and LeakSanitizer
# on two run lengths (in the fuzz build's scratch: its modules are reused).
test: test-deps
	scripts/timed.sh "builds" scripts/build-for-tests.sh
	FILTERCAM_BUILD_DIR=$(CURDIR)/.build/release scripts/timed.sh "swift test" swift test --skip-build --disable-swift-testing
	scripts/timed.sh "conformance" $(MAKE) conformance
	scripts/sanitizers.sh

# The elements next to stock GStreamer elements in real pipelines, driven from Python
# (a second client), and real windows under a virtual display (Xvfb). Release build: the
# live cases need a filter faster than a frame. run.py runs the modules in two processes at
# once (the suite mostly waits on live pipelines); `run.py test_serve.py` runs one module.
conformance: test-deps
	swift build -c release --product gstfiltercam
	swift build -c release --product filtercamfaces
	swift build -c release --product filtercam
	cd Tests/Conformance && GST_PLUGIN_PATH=$(CURDIR)/.build/release /usr/bin/python3 run.py

fuzz: test-deps
	scripts/fuzz.sh

bench: test-deps
	swift build -c release
	.build/release/filtercam bench

# For the user, no root: the plugin where GStreamer looks by itself (stock gst-launch-1.0
# then finds filtercam with no GST_PLUGIN_PATH), the face detector's library (loaded on
# the first face search) in lib/filtercam, outside the plugin folder: GStreamer tries
# every .so there as a plugin and lists one that is not as a blacklist entry. The CLI on
# ~/.local/bin, the pipelines where `filtercam launch NAME` finds them, the shipped looks
# beside them (for --looks and FILTERCAM_LOOKS).
PREFIX ?= $(HOME)/.local
PLUGIN_DIR = $(PREFIX)/share/gstreamer-1.0/plugins
LIB_DIR = $(PREFIX)/lib/filtercam
SHARE_DIR = $(PREFIX)/share/filtercam
# DESTDIR (empty by default) stages the files under another root, as packagers expect;
# the paths the programs find each other by stay those of PREFIX.
# GStreamer looks for a user's plugins by itself in one folder only:
USER_PLUGIN_DIR = $${XDG_DATA_HOME:-$$HOME/.local/share}/gstreamer-1.0/plugins
install: deps
	swift build -c release --product filtercam
	swift build -c release --product gstfiltercam
	swift build -c release --product filtercamfaces
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PLUGIN_DIR) $(DESTDIR)$(LIB_DIR) $(DESTDIR)$(SHARE_DIR)/pipelines $(DESTDIR)$(SHARE_DIR)/looks
	install -m 755 .build/release/filtercam $(DESTDIR)$(PREFIX)/bin/filtercam
	install -m 644 .build/release/libgstfiltercam.so $(DESTDIR)$(PLUGIN_DIR)/libgstfiltercam.so
	install -m 644 .build/release/libfiltercamfaces.so $(DESTDIR)$(LIB_DIR)/libfiltercamfaces.so
	rm -f $(DESTDIR)$(PLUGIN_DIR)/libfiltercamfaces.so   # where earlier versions put it
	install -m 644 pipelines/*.pipeline $(DESTDIR)$(SHARE_DIR)/pipelines/
	install -m 644 looks/*.cube $(DESTDIR)$(SHARE_DIR)/looks/
	install -m 644 docs/filters/photo.jpg $(DESTDIR)$(SHARE_DIR)/preview-photo.jpg
	@echo "installed: $(DESTDIR)$(PREFIX)/bin/filtercam, $(DESTDIR)$(PLUGIN_DIR)/libgstfiltercam.so, $(DESTDIR)$(LIB_DIR)/libfiltercamfaces.so, $(DESTDIR)$(SHARE_DIR)/pipelines, $(DESTDIR)$(SHARE_DIR)/looks"
	@if [ "$$(realpath -m $(PLUGIN_DIR))" != "$$(realpath -m $(USER_PLUGIN_DIR))" ]; then \
	  echo "note: GStreamer does not look in $(PLUGIN_DIR) by itself (for this user it looks in $(USER_PLUGIN_DIR)): stock gst-launch-1.0 finds filtercam with GST_PLUGIN_PATH=$(PLUGIN_DIR)"; fi

# Removes what install put there and nothing else: pipeline files or looks of the user's
# own in the share folder stay, and are named.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/filtercam $(DESTDIR)$(PLUGIN_DIR)/libgstfiltercam.so $(DESTDIR)$(PLUGIN_DIR)/libfiltercamfaces.so $(DESTDIR)$(LIB_DIR)/libfiltercamfaces.so
	-rmdir $(DESTDIR)$(LIB_DIR) 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(SHARE_DIR)/,$(wildcard pipelines/*.pipeline) $(wildcard looks/*.cube)) $(DESTDIR)$(SHARE_DIR)/preview-photo.jpg
	@for d in $(DESTDIR)$(SHARE_DIR)/pipelines $(DESTDIR)$(SHARE_DIR)/looks $(DESTDIR)$(SHARE_DIR); do \
	  [ -d "$$d" ] || continue; rmdir "$$d" 2>/dev/null || { [ "$$d" = "$(DESTDIR)$(SHARE_DIR)" ] || echo "kept $$d: files install did not put there:" $$(ls "$$d"); }; done

clean:
	rm -rf .build
