#!/usr/bin/env bash
# Soak: FRAMES frames (default 100000) at 640x480 through a filter chain, orientation,
# lens, face detection and a still every 100 frames; prints resident memory every
# INTERVAL seconds and the growth after warm-up. Needs a release build (make build).
#   scripts/soak.sh                 # the long run
#   FRAMES=5000 WARMUP=10 scripts/soak.sh             # a short one (~40 s; growth after 10 s)
#   MAX_GROWTH_KB=1024 FRAMES=5000 WARMUP=10 scripts/soak.sh   # fails if memory grows more
# (FRAMES must outlast WARMUP, 60 s by default: unpaced, a run takes ~8 ms a frame here.)
#   LIVE=1 scripts/soak.sh          # paced at 30 fps like a camera (about 56 min),
#                                   # late frames are dropped, not queued
set -euo pipefail
cd "$(dirname "$0")/.."
FRAMES=${FRAMES:-100000}
INTERVAL=${INTERVAL:-5}
LIVE=${LIVE:-0}
MAX_GROWTH_KB=${MAX_GROWTH_KB:-}
WARMUP=${WARMUP:-60}   # seconds not counted: pools, caches, the encoder, the detector
BIN=${BIN:-.build/release/filtercam}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$BIN" launch "videotestsrc num-buffers=$FRAMES pattern=ball is-live=$([ "$LIVE" = 1 ] && echo true || echo false) ! video/x-raw,format=BGRA,width=640,height=480,framerate=30/1 \
  ! filtercam filter=\"sepia intensity=0.7, vignette radius=0.8\" orientation=90r lens=0.1,0.1,0.8,0.8 \
    detect-faces=true snapshot-every=100 flash=false snapshot-location=$OUT/s-%06d.jpg ! fakesink" </dev/null 2>"$OUT/log" &
PID=$!
echo "seconds rss_kb"
start=$(date +%s); first=""; last=""; low=""; high=""
while kill -0 "$PID" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' /proc/$PID/status 2>/dev/null || true)
  [ -n "$rss" ] || break
  now=$(( $(date +%s) - start ))
  echo "$now $rss"
  if [ "$now" -ge "$WARMUP" ]; then
    [ -n "$first" ] || first=$rss
    { [ -z "$low" ] || [ "$rss" -lt "$low" ]; } && low=$rss
    { [ -z "$high" ] || [ "$rss" -gt "$high" ]; } && high=$rss
  fi
  last=$rss
  sleep "$INTERVAL"
done
status=0; wait "$PID" || status=$?
grep "^filtercam " "$OUT/log" || true
stills=$(ls "$OUT" | grep -c '\.jpg$' || true)
echo "exit=$status stills=$stills"
[ "$status" = 0 ] || exit "$status"
if [ -n "$first" ]; then
  growth=$(( last - first ))
  echo "rss growth after warm-up: $growth kB (range after warm-up: $low to $high kB)"
  if [ -n "$MAX_GROWTH_KB" ] && [ "$growth" -gt "$MAX_GROWTH_KB" ]; then
    echo "soak: resident memory grew $growth kB, more than $MAX_GROWTH_KB kB" >&2
    exit 1
  fi
elif [ -n "$MAX_GROWTH_KB" ]; then
  echo "soak: the run ended before the warm-up did; give it more FRAMES" >&2
  exit 1
fi
