#!/usr/bin/env bash
# Runs every benchmark side by side with its reference and rewrites its section of BENCHMARKS.md.
#   Benchmarks/run.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
BMOB_STRICT=0 swift build -c release --product bmob
python3 Benchmarks/health_vs_nginx.py --rounds "${1:-5}" --bmob .build/release/bmob --report BENCHMARKS.md
