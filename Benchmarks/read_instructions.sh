#!/usr/bin/env bash
# User-space instructions per read under callgrind: a measure of the read path that does not move with the
# machine's load, for comparing changes (BENCHMARKS.md, "Read path: instructions per request").
#   Benchmarks/read_instructions.sh [seconds] [workload ...]   (default 5 s; get, query, count; needs valgrind
#                                                               and wrk: scripts/bootstrap.sh bench)
# Seeds 20,000 records into a `Score` class (`name` text, `score` 0…99,999, an index on `score`) with a plain
# `bmob serve`, then restarts it under callgrind (`--loops 1`) on the same data directory. For each workload it
# warms up for 2 s, zeroes the counters, replays the data benchmark's requests from 8 wrk connections for
# [seconds], and prints the user-space instructions per request (every thread of the server):
#   get    GET /1/classes/Score/<id>, one of 2,000 seeded ids;
#   query  where={"score":{"$lt":X}}&order=-score&limit=20;
#   count  where={"score":{"$lt":X}}&count=1&limit=0;
#   health GET /health, the HTTP floor (only when named).
# Then the raw SQLite references (`bmob-bench sqlite-reads` on the server's own file, the same statements, bare
# and with the response body rendered), also under callgrind: instructions per read are the difference between
# two runs of different lengths, divided by the difference in reads.
# With BENCH_ANNOTATE=DIR it keeps each workload's callgrind dump in DIR as callgrind.<workload>.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-5}"
shift || true
workloads=("$@")
[ "${#workloads[@]}" -gt 0 ] || workloads=(get query count)
bmob="${BMOB_BINARY:-.build/release/bmob}"  # BMOB_BINARY=… measures another build (an A/B)
[ -n "${BMOB_BINARY:-}" ] || BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob >/dev/null
BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob-bench >/dev/null
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bmob" apps create --data "$work/data" --name Bench --app-id benchapp --rest-key benchkey \
    --master-key benchmaster >/dev/null
wait_up() {
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && return; sleep 0.2; done
    echo "read_instructions.sh: the server did not start" >&2; cat "$work/server.log" >&2; exit 1
}
"$bmob" serve --port "$port" --loops 1 --data "$work/data" --log-level error >"$work/server.log" 2>&1 &
server=$!
wait_up
python3 - "$port" "$work" <<'PY'
import http.client, json, random, sys, urllib.parse
port, work = int(sys.argv[1]), sys.argv[2]
headers = {"X-Bmob-Application-Id": "benchapp", "X-Bmob-REST-API-Key": "benchkey",
           "Content-Type": "application/json"}
connection = http.client.HTTPConnection("127.0.0.1", port)
def call(method, path, body, extra=None):
    connection.request(method, path, json.dumps(body), {**headers, **(extra or {})})
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path} → {response.status} {data[:300]!r}")
    return json.loads(data)
call("POST", "/1/schemas/Score", {"fields": {"name": {"type": "String"}, "score": {"type": "Number"}},
                                  "indexes": [["score"]]}, {"X-Bmob-Master-Key": "benchmaster"})
rng = random.Random(20261130)
ids = []
for start in range(0, 20000, 50):
    reply = call("POST", "/1/batch", {"requests": [
        {"method": "POST", "path": "/1/classes/Score",
         "body": {"name": f"player-{i}", "score": rng.randrange(100000)}} for i in range(start, start + 50)]})
    ids += [item["success"]["objectId"] for item in reply]
def where(x):
    return urllib.parse.quote(json.dumps({"score": {"$lt": x}}, separators=(",", ":")), safe="")
thresholds = [rng.randrange(10000, 100000) for _ in range(1000)]
files = {
    "get": [f"GET\t/1/classes/Score/{rng.choice(ids)}" for _ in range(2000)],
    "query": [f"GET\t/1/classes/Score?where={where(x)}&order=-score&limit=20" for x in thresholds],
    "count": [f"GET\t/1/classes/Score?where={where(x)}&count=1&limit=0" for x in thresholds],
    "health": ["GET\t/health"],
}
for name, lines in files.items():
    with open(f"{work}/{name}.txt", "w") as out:
        out.write("\n".join(lines) + "\n")
PY
kill "$server" && wait "$server" 2>/dev/null || true
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$bmob" serve --port "$port" --loops 1 --data "$work/data" --log-level error >"$work/server.log" 2>&1 &
server=$!
wait_up
wrk_run() {
    wrk -t1 -c8 -d"$2" --timeout 60s -s Benchmarks/data_api.lua "http://127.0.0.1:$port" -- "$work/$1.txt" \
        "X-Bmob-Application-Id: benchapp" "X-Bmob-REST-API-Key: benchkey"
}
for workload in "${workloads[@]}"; do
    wrk_run "$workload" 2s >/dev/null
    callgrind_control -z "$server" >/dev/null 2>&1
    output="$(wrk_run "$workload" "${seconds}s")"
    callgrind_control -d "$server" >/dev/null 2>&1
    sleep 1
    requests="$(sed -n 's/^BENCH_JSON .*"requests":\([0-9]*\).*/\1/p' <<<"$output")"
    failed="$(sed -n 's/^BENCH_JSON .*"status":\([0-9]*\).*/\1/p' <<<"$output")"
    dump="$(ls -t "$work"/callgrind.out.* | head -1)"
    total="$(callgrind_annotate "$dump" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)"
    if [ -n "${BENCH_ANNOTATE:-}" ]; then mkdir -p "$BENCH_ANNOTATE" && cp "$dump" "$BENCH_ANNOTATE/callgrind.$workload"; fi
    rm -f "$dump"
    [ "${requests:-0}" -gt 0 ] || { echo "$workload: no request finished in ${seconds} s"; continue; }
    echo "$workload: $requests requests ($failed non-2xx); user-space instructions per request: $((total / requests))"
done
kill "$server" && wait "$server" 2>/dev/null || true
server=""
raw_instructions() {  # mode, reads in the short run, reads in the long run, [--render]
    local totals=()
    for count in "$2" "$3"; do
        valgrind --tool=callgrind --callgrind-out-file="$work/raw.out" .build/release/bmob-bench sqlite-reads \
            --path "$work/data/apps/benchapp/data.sqlite" --mode "$1" --count "$count" ${4:-} >/dev/null 2>&1
        totals+=("$(callgrind_annotate "$work/raw.out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)")
    done
    echo $(((totals[1] - totals[0]) / ($3 - $2)))
}
for workload in "${workloads[@]}"; do
    [ "$workload" = health ] && continue
    if [ "$workload" = count ]; then short=20 long=120; else short=1000 long=11000; fi
    echo "raw SQLite $workload: $(raw_instructions "$workload" $short $long) instructions per read," \
        "$(raw_instructions "$workload" $short $long --render) with the response body rendered"
done
