#!/usr/bin/env bash
# Builds Examples/CustomServer (a server binary of one's own on the public BmobServer API) and checks that it
# serves its Swift function, trigger and sync query: starts it on a fresh data folder and a free port, calls the
# function, makes the trigger refuse a save over REST, runs the sync query over HTTP, then stops it with SIGTERM and
# expects a clean exit.
set -euo pipefail
cd "$(dirname "$0")/.."
# Unset: the root package refuses its strict (unsafe) flags when it is a dependency.
unset BMOB_STRICT
# SwiftPM may keep a stale list of this package's sources in the example's build folder after files were added
# here: one clean rebuild then.
swift build --package-path Examples/CustomServer || {
    rm -rf Examples/CustomServer/.build
    swift build --package-path Examples/CustomServer
}
binary="$(swift build --package-path Examples/CustomServer --show-bin-path)/custom-server"
work="$(mktemp -d)"
trap 'kill -9 "${pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
"$binary" --data "$work/data" --host 127.0.0.1 --port 0 --log-level error >"$work/out" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    grep -q '^listening on ' "$work/out" && break
    sleep 0.1
done
url="$(sed -n 's/^listening on //p' "$work/out")"
app="$(sed -n 's/^ *Application ID: *//p' "$work/out")"
key="$(sed -n 's/^ *REST API Key: *//p' "$work/out")"
[ -n "$url" ] && [ -n "$app" ] && [ -n "$key" ] || { echo "example-check: the server did not start:"; cat "$work/out"; exit 1; }
call() {
    curl -sS -X POST "$url$1" -H "X-Bmob-Application-Id: $app" -H "X-Bmob-REST-API-Key: $key" \
        -H 'Content-Type: application/json' -d "$2"
}
hello="$(call /1/functions/hello '{"name": "Bmob"}')"
[ "$hello" = '{"result":"Hello, Bmob!"}' ] || { echo "example-check: hello answered $hello"; exit 1; }
refused="$(call /1/classes/Score '{"points": -1}')"
case "$refused" in *'"code":142'*) ;; *) echo "example-check: a negative score answered $refused"; exit 1 ;; esac
saved="$(call /1/classes/Score '{"points": 3, "player": "  ada  "}')"
case "$saved" in *'"objectId"'*) ;; *) echo "example-check: a save answered $saved"; exit 1 ;; esac
top="$(curl -sS -X POST "$url/apps/$app/api/query" -H 'Content-Type: application/json' -d '{"path": "scores:top", "args": {"limit": 1}}')"
case "$top" in *'"status":"success"'*'"player":"ada"'*) ;; *) echo "example-check: scores:top answered $top"; exit 1 ;; esac
kill -TERM "$pid"
wait "$pid"
echo "example-check: Examples/CustomServer serves its function, trigger and sync query"
