#!/usr/bin/env bash
# usage: scripts/timed.sh LABEL COMMAND… — runs COMMAND, then prints how long it took, so a
# CI log shows where the suite's minutes go (the whole of `make test` must stay under 20).
label=$1; shift
start=$(date +%s)
"$@"
status=$?
echo "[time] $label: $(( $(date +%s) - start )) s (exit $status)"
exit $status
