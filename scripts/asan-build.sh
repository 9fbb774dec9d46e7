#!/usr/bin/env bash
# usage: scripts/asan-build.sh PRODUCT — builds PRODUCT with AddressSanitizer and libFuzzer's
# instrumentation into $SCRATCH (.build-fuzz). fuzz.sh (filtercam-fuzz) and lsan.sh
# (filtercam) both build here with the same flags, so the modules they share compile once.
# Prints the build's errors and its last line only.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product "$1" --scratch-path "${SCRATCH:-.build-fuzz}" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld 2>&1 \
  | { grep -e "error" -e "Build" || true; }
