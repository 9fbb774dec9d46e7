#!/usr/bin/env bash
# LeakSanitizer on two runs of different length through filtercam (chain, orientation,
# lens, faces, stills): a leak per frame would make the second report larger.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${SCRATCH:-.build-asan}
swift build --scratch-path "$SCRATCH" -Xswiftc -sanitize=address --product filtercam
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for n in 50 200; do
  ASAN_OPTIONS=detect_leaks=1 "$SCRATCH/debug/filtercam" launch "videotestsrc num-buffers=$n pattern=ball \
    ! video/x-raw,format=BGRA,width=160,height=120,framerate=30/1 \
    ! filtercam filter=\"sepia, vignette\" orientation=90r lens=0.1,0.1,0.8,0.8 detect-faces=true \
      snapshot-every=25 flash=false snapshot-location=$out/s-%03d.jpg ! fakesink" > "$out/log-$n" 2>&1 || true
  echo "$n frames: $(grep SUMMARY "$out/log-$n" || echo 'no leak reported')"
done
