#!/usr/bin/env bash
# Builds and runs every libFuzzer target under Fuzz/, failing on any crash.
#
# Usage: Fuzz/run.sh [seconds-per-target]    (default 30)
#
# Each directory Fuzz/X/ holding a main.swift is the target of product FuzzX, declared in Package.swift
# when BMOB_FUZZ=1. Its seeds in Fuzz/X/corpus/ are copied into a working corpus under .build-fuzz/, which
# keeps growing across runs; crash reproducers land in .build-fuzz/artifacts/X/.
#
# Build flags (Swift 6.3.1, Linux), both needed:
# - SwiftPM's --sanitize=fuzzer makes it compile main.swift as a library and drop its `--defsym
#   main=FuzzX_main` entry-point rename, so libFuzzer's main links. With only -Xswiftc -sanitize=fuzzer and
#   -Xswiftc -parse-as-library the link fails on an undefined FuzzX_main.
# - -Xswiftc -sanitize=fuzzer,address adds the coverage instrumentation and ASan: the driver keeps only the
#   last -sanitize= argument, so SwiftPM's --sanitize=fuzzer --sanitize=address would compile with ASan alone
#   and libFuzzer would run blind ("no interesting inputs were found").
set -euo pipefail

seconds="${1:-30}"
case "$seconds" in
'' | *[!0-9]*)
    echo "usage: $0 [seconds-per-target]" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/.."
scratch=.build-fuzz
build=(swift build -c debug --scratch-path "$scratch" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
# The crash backtracer trips ASan and garbles its reports.
export SWIFT_BACKTRACE=enable=no
export BMOB_FUZZ=1

targets=()
for directory in Fuzz/*/; do
    name="$(basename "$directory")"
    [ -f "$directory/main.swift" ] && targets+=("$name")
done
if [ "${#targets[@]}" -eq 0 ]; then
    echo "no fuzz targets under Fuzz/" >&2
    exit 1
fi

for name in "${targets[@]}"; do
    echo "== building Fuzz$name"
    "${build[@]}" --product "Fuzz$name"
done
bin="$("${build[@]}" --show-bin-path)"

failed=()
for name in "${targets[@]}"; do
    corpus="$scratch/corpus/$name"
    artifacts="$scratch/artifacts/$name"
    rm -rf "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "Fuzz/$name/corpus" ]; then
        cp -R "Fuzz/$name/corpus/." "$corpus/"
    fi
    echo "== running Fuzz$name for ${seconds}s"
    status=0
    "$bin/Fuzz$name" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 || status=$?
    # libFuzzer exits non-zero on a crash, leak, timeout or OOM, and leaves a reproducer behind.
    if [ "$status" -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
        echo "!! Fuzz$name failed (exit $status); reproducers:" >&2
        ls -1 "$artifacts" | sed "s|^|   $artifacts/|" >&2
        echo "   replay with: $bin/Fuzz$name <reproducer>" >&2
        failed+=("Fuzz$name")
    fi
done

if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzzing found crashes in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing finished without crashes: ${targets[*]/#/Fuzz}"
