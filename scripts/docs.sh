#!/usr/bin/env bash
# Builds the SDK's documentation (`make docs`): one DocC catalog per SDK product (Sources/<Module>/<Module>.docc),
# converted with the toolchain's `docc` (no plugin) against the module's symbol graph, into a static site per
# module at .build/docs/<Module> (serve .build/docs and open /<Module>/documentation/<module>/). Fails on any
# DocC warning: a broken link, an unresolved symbol, a missing article.
#
#   scripts/docs.sh [Module…]      the modules to build; all of the SDK's by default
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
[ "${#modules[@]}" -gt 0 ] || modules=(BmobSDK BmobCore BmobData BmobUser BmobFile BmobCloud BmobRealtime BirdRealtime OnebaseClient)

toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
docc="${DOCC:-$toolchain/docc}"
extract="$toolchain/swift-symbolgraph-extract"
for tool in "$docc" "$extract"; do
    [ -x "$tool" ] || { echo "docs: $tool not found; the Swift toolchain ships it" >&2; exit 1; }
done

# The modules with everything they import: BmobSDK re-exports the Bmob ones; the two other clients stand alone.
for product in BmobSDK BirdRealtime OnebaseClient; do
    swift build --product "$product" >/dev/null
done
bin="$(swift build --show-bin-path)"
modules_dir="$bin/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin"
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
sdk_flags=()
if [ "$(uname -s)" = Darwin ]; then sdk_flags=(-sdk "$(xcrun --show-sdk-path)"); fi

graphs=".build/docs-symbols"
rm -rf "$graphs"
status=0
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "docs: $module has no catalog at $catalog" >&2; status=1; continue; }
    mkdir -p "$graphs/$module"
    "$extract" -module-name "$module" -target "$triple" "${sdk_flags[@]}" -I "$modules_dir" \
        -I Sources/COpenSSL -I Sources/CSystemShims -minimum-access-level public -skip-synthesized-members \
        -output-dir "$graphs/$module"
    output=".build/docs/$module"
    rm -rf "$output"
    log="$(mktemp)"
    if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" --output-path "$output" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.bmob-swift.$module" \
        --transform-for-static-hosting --hosting-base-path "$module" --analyze --warnings-as-errors >"$log" 2>&1 ||
        grep -q -E '(^|[^a-z])(warning|error):' "$log"; then
        grep -E -A4 '(^|[^a-z])(warning|error):' "$log" >&2 || cat "$log" >&2
        echo "docs: $module failed" >&2
        status=1
    else
        echo "docs: $module -> $output"
    fi
    rm -f "$log"
done
exit $status
