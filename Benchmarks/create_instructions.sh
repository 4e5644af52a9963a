#!/usr/bin/env bash
# User-space instructions per create under callgrind: a measure of the create path that does not move with
# the machine's load, for comparing changes (BENCHMARKS.md, "Reading these numbers").
#   Benchmarks/create_instructions.sh [seconds]    (default 8; needs valgrind and wrk: scripts/bootstrap.sh bench)
# Starts `bmob serve --loops 1` under callgrind on a free port with a fresh data directory, declares the
# benchmark's CreateBench class, warms up for 2 s, zeroes the counters, sends the data benchmark's create bodies
# from 8 wrk connections for [seconds], and prints instructions per create (every thread of the server).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-8}"
BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob >/dev/null
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
.build/release/bmob apps create --data "$work/data" --name Bench --app-id benchapp --rest-key benchkey \
    --master-key benchmaster >/dev/null
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    .build/release/bmob serve --port "$port" --loops 1 --data "$work/data" --log-level error >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
headers=(-H "X-Bmob-Application-Id: benchapp" -H "X-Bmob-REST-API-Key: benchkey" -H "Content-Type: application/json")
curl -sf -X POST "${headers[@]}" -H "X-Bmob-Master-Key: benchmaster" "http://127.0.0.1:$port/1/schemas/CreateBench" \
    -d '{"fields":{"name":{"type":"String"},"score":{"type":"Number"}}}' >/dev/null
python3 -c '
import random, sys
with open(sys.argv[1], "w") as out:
    for i in range(20000):
        out.write("POST\t/1/classes/CreateBench\t{\"name\":\"w-%d\",\"score\":%d}\n" % (i, random.randrange(100000)))
' "$work/creates.txt"
wrk_run() {
    wrk -t1 -c8 -d"$1" -s Benchmarks/data_api.lua "http://127.0.0.1:$port" -- "$work/creates.txt" \
        "X-Bmob-Application-Id: benchapp" "X-Bmob-REST-API-Key: benchkey" "Content-Type: application/json"
}
wrk_run 2s >/dev/null
callgrind_control -z "$server" >/dev/null 2>&1
requests="$(wrk_run "${seconds}s" | sed -n 's/^BENCH_JSON .*"requests":\([0-9]*\).*/\1/p')"
callgrind_control -d "$server" >/dev/null 2>&1
sleep 1
dump="$(ls -t "$work"/callgrind.out.* | head -1)"
total="$(callgrind_annotate "$dump" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)"
echo "creates: $requests; user-space instructions per create: $((total / requests))"
