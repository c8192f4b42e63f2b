#!/bin/sh
# `npm start` (docs/performance.md, "Start-up"). `exec`: one node process, which Ctrl-C and SIGTERM reach
# directly.
# MALLOC_MMAP_THRESHOLD_: keeps scrypt's 16 MB blocks from staying in the process
# (docs/performance.md, "Memory"). --min-semi-space-size=16: V8's young generation starts at
# its usual size instead of growing from 1 MB while the modules load, which saved most of the
# scavenges before the first answer (docs/performance.md, "Start-up").
root=$(dirname "$0")/..
export MALLOC_MMAP_THRESHOLD_=1048576
exec node --min-semi-space-size=16 "$root/scripts/start.mjs"
