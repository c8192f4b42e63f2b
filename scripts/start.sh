#!/bin/sh
# `npm start` (docs/startup.md). On the embedded database, starts node from the start-up
# snapshot of dist/ when there is one for these V8 flags, made from the code as it is now
# (an edit, a `git pull`, an `npm install` make it out of date: the signature below);
# otherwise runs scripts/start.mjs, which rebuilds dist/ and the snapshot when they are out
# of date and starts the service from dist/.
# `exec`: one node process, which Ctrl-C and SIGTERM reach directly.
# MALLOC_MMAP_THRESHOLD_: docs/performance.md, "Memory"; --min-semi-space-size: docs/startup.md.
root=$(dirname "$0")/..
export MALLOC_MMAP_THRESHOLD_=1048576
flags=--min-semi-space-size=16
# A snapshot loads only under the V8 flags it was built with: one per set of flags. Modules
# to preload (--import, --require) are not flags: src/snapshot.ts loads them after the restore.
key=$(printf '%s %s' "$flags" "$NODE_OPTIONS" | sed -E 's/(--import|--require|-r)(=| +)[^ ]+//g; s/ +/ /g; s/ $//' | cksum | cut -d ' ' -f 1)
blob=$root/dist/snapshot/main-$key.blob
# Only for the embedded database: node keeps the blob (~20 MB) in memory for the process's
# life, and on a PostgreSQL server the service's memory is within 30 MB of its goal
# (docs/startup.md, sixth pass). DATABASE_URL from the environment or from .env, as the
# service reads it; a wrong guess here only costs speed or memory, never correctness.
if [ -n "$DATABASE_URL" ] || grep -Eqs '^[[:space:]]*(export[[:space:]]+)?DATABASE_URL[[:space:]]*=[[:space:]]*[^[:space:]#]' .env; then
  exec node $flags "$root/scripts/start.mjs"
fi
# What the code is: every file under src/ and scripts/ and the package files, each with its
# size and time. Kept beside the blob when it is made (scripts/start.mjs); any edit, addition,
# removal, install or a file put back with an older time changes it. GNU find's -printf; where
# find has no -printf the signature is empty and the snapshot is never used.
sig=$(find "$root/src" "$root/scripts" "$root/package.json" "$root/package-lock.json" "$root/node_modules/.package-lock.json" \
  -type f -printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort | cksum | cut -d ' ' -f 1)
if [ -n "$sig" ] && [ -f "$blob" ] && [ "$(cat "$blob.sig" 2>/dev/null)" = "$sig" ]; then
  exec node $flags --snapshot-blob "$blob"
fi
SASG_SNAPSHOT_BLOB=$blob SASG_SNAPSHOT_SIG=$sig exec node $flags "$root/scripts/start.mjs"
