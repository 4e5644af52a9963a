#!/usr/bin/env bash
# Builds the SDK's documentation (`make docs`): one DocC catalog per SDK product (Sources/<Module>/<Module>.docc),
# converted with the toolchain's `docc` (no plugin) against the module's symbol graph, into a static site per
# module at .build/docs/<Module> (serve .build/docs and open /<Module>/documentation/<module>/). Fails on any
# DocC warning (a broken link, an unresolved symbol, a missing article), except a link to another SDK module's
# public symbol, which a module's own archive cannot resolve.
#
#   scripts/docs.sh [Module…]      the modules to build; all of the SDK's by default
set -euo pipefail
cd "$(dirname "$0")/.."

all_modules=(BmobSDK BmobCore BmobData BmobUser BmobFile BmobCloud BmobRealtime BirdRealtime OnebaseClient)
modules=("$@")
[ "${#modules[@]}" -gt 0 ] || modules=("${all_modules[@]}")

toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
docc="${DOCC:-$toolchain/docc}"
extract="$toolchain/swift-symbolgraph-extract"
for tool in "$docc" "$extract"; do
    [ -x "$tool" ] || { echo "docs: $tool not found; the Swift toolchain ships it" >&2; exit 1; }
done

# The modules with everything they import: BmobSDK re-exports the Bmob ones; the two other clients stand alone.
for target in BmobSDK BirdRealtime OnebaseClient; do
    swift build --target "$target" >/dev/null
done
bin="$(swift build --show-bin-path)"
modules_dir="$bin/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin"
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
sdk_flags=()
if [ "$(uname -s)" = Darwin ]; then sdk_flags=(-sdk "$(xcrun --show-sdk-path)"); fi

graphs=".build/docs-symbols"
rm -rf "$graphs"
# Every module's graph first: a doc comment may name another SDK module's symbol (``BmobError`` in BmobData), which
# DocC cannot link from a module's own archive; such a link is reported, and allowed below only when the symbol is
# really another SDK module's public one.
for module in "${all_modules[@]}"; do
    mkdir -p "$graphs/$module"
    "$extract" -module-name "$module" -target "$triple" "${sdk_flags[@]}" -I "$modules_dir" \
        -I Sources/COpenSSL -I Sources/CSystemShims -minimum-access-level public -skip-synthesized-members \
        -emit-extension-block-symbols -output-dir "$graphs/$module"
done

status=0
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "docs: $module has no catalog at $catalog" >&2; status=1; continue; }
    output=".build/docs/$module"
    rm -rf "$output"
    mkdir -p "$(dirname "$output")"
    log="$(mktemp)"
    converted=0
    "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" --output-path "$output" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.bmob-swift.$module" \
        --transform-for-static-hosting --hosting-base-path "$module" --analyze >"$log" 2>&1 || converted=$?
    if [ "$converted" -ne 0 ] || ! python3 - "$module" "$graphs" "$log" <<'PY'
import json, pathlib, re, sys

module, graphs, log = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]).read_text()
# Top-level public names of the other SDK modules.
foreign = set()
for graph in graphs.glob("*/*.symbols.json"):
    if graph.parent.name == module:
        continue
    for symbol in json.loads(graph.read_text()).get("symbols", []):
        if len(symbol["pathComponents"]) == 1:
            foreign.add(symbol["pathComponents"][0])
blocks = re.split(r"\n(?=(?:warning|error): )", log)
failed = False
for block in blocks:
    head = block.splitlines()[0] if block else ""
    if not re.match(r"(warning|error): ", head):
        continue
    missing = re.match(r"(?:warning|error): '([A-Za-z_][A-Za-z0-9_]*)[^']*' doesn't exist at ", head)
    if missing and missing.group(1) in foreign:
        continue  # another SDK module's symbol, named in a doc comment; its own archive documents it
    failed = True
    print(block.strip()[:1200], file=sys.stderr)
sys.exit(1 if failed else 0)
PY
    then
        echo "docs: $module failed" >&2
        status=1
    else
        echo "docs: $module -> $output"
    fi
    rm -f "$log"
done
exit $status
