#!/usr/bin/env bash
# Checks BmobSwiftSDK.podspec against Package.swift without CocoaPods (what CI runs):
#   - every target of the SDK's products (and the targets they depend on, on Apple platforms) has exactly one
#     subspec, whose source_files globs match exactly the target's Swift files, and whose dependencies are the
#     subspecs of the target's dependencies;
#   - every subspec is such a target, and default_subspecs name subspecs;
#   - the podspec's version, BmobVersion.current and the newest release in CHANGELOG.md are the same.
# The SDK's products are the library products that do not contain the server (BmobServer).
#
#   scripts/check-podspec.sh [podspec]               exits 1 and names each difference
#   scripts/check-podspec.sh --typecheck [podspec]   also type-checks the pod as CocoaPods builds it: every
#       subspec's files in one module, after the podspec's prepare_command, with its OTHER_SWIFT_FLAGS (about two
#       minutes; on Linux the non-Apple code paths)
set -euo pipefail
cd "$(dirname "$0")/.."
typecheck=0
if [ "${1:-}" = "--typecheck" ]; then typecheck=1; shift; fi
podspec="${1:-BmobSwiftSDK.podspec}"
package_json="$(mktemp)"
trap 'rm -f "$package_json"' EXIT
swift package dump-package >"$package_json"

python3 - "$podspec" "$package_json" <<'PY'
import json, pathlib, re, sys

podspec_path, package_path = sys.argv[1], sys.argv[2]
problems = []
APPLE = {"macos", "ios", "tvos", "watchos", "visionos", "maccatalyst"}
SERVER = "BmobServer"

# --- the podspec: a plain Ruby DSL file, read as text (no Ruby needed) ---------------------------------------------
try:
    text = pathlib.Path(podspec_path).read_text()
except OSError as error:
    sys.exit(f"check-podspec: cannot read {podspec_path}: {error}")

def strings(value):
    """The quoted strings of a Ruby value: 'a', "a", ['a', 'b'] or %w[a b]."""
    words = re.match(r"\s*%w[\[(](.*?)[\])]", value)
    if words:
        return words.group(1).split()
    return [m.group(2) for m in re.finditer(r"(['\"])(.*?)\1", value)]

version = re.search(r"^\s*s\.version\s*=\s*(['\"])([^'\"]+)\1", text, re.M)
pod_version = version.group(2) if version else None
if pod_version is None:
    problems.append("the podspec has no s.version")

subspecs = {}
for block in re.finditer(r"^\s*s\.subspec\s+(['\"])([^'\"]+)\1\s+do\s*\|(\w+)\|(.*?)^\s*end\s*$", text, re.M | re.S):
    name, var, body = block.group(2), block.group(3), block.group(4)
    if name in subspecs:
        problems.append(f"subspec {name} is declared twice")
    sources, deps = [], []
    for line in body.splitlines():
        line = line.split("#", 1)[0]
        m = re.match(rf"\s*{var}\.source_files\s*=\s*(.+)$", line)
        if m:
            sources += strings(m.group(1))
            continue
        m = re.match(rf"\s*{var}\.dependency\s+(['\"])([^'\"]+)\1", line)
        if m:
            deps.append(m.group(2))
            continue
        if re.match(rf"\s*{var}\.(exclude_files|preserve_paths|resources?|resource_bundles|vendored_\w+)\b", line):
            problems.append(f"subspec {name}: {line.strip()} is not checked against Package.swift; remove it or teach this script")
    subspecs[name] = {"sources": sources, "deps": deps}
if not subspecs:
    problems.append("the podspec declares no subspecs")

default = re.search(r"^\s*s\.default_subspecs?\s*=\s*(.+)$", text, re.M)
for name in strings(default.group(1)) if default else []:
    if name not in subspecs:
        problems.append(f"default_subspecs names {name}, which is not a subspec")

# --- the package ---------------------------------------------------------------------------------------------------
try:
    package = json.loads(pathlib.Path(package_path).read_text())
except (OSError, ValueError) as error:
    sys.exit(f"check-podspec: cannot read swift package dump-package output: {error}")
targets = {t["name"]: t for t in package["targets"]}

def apple_dependencies(target):
    """The targets `target` depends on when built for an Apple platform."""
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                name, condition = dependency[kind][0], dependency[kind][1] if len(dependency[kind]) > 1 else None
                platforms = set()
                for platform in (condition or {}).get("platformNames") or (condition or {}).get("platforms") or []:
                    platforms.add((platform.get("name") if isinstance(platform, dict) else platform).lower())
                if not platforms or platforms & APPLE:
                    if name in targets:
                        names.append(name)
    return names

def closure(names):
    seen, stack = set(), list(names)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack += apple_dependencies(targets[name])
    return seen

sdk_products = [p for p in package["products"] if "library" in p["type"] and SERVER not in closure(p["targets"])]
sdk_targets = closure([t for p in sdk_products for t in p["targets"]])
for name in sorted(sdk_targets):
    if targets[name]["type"] == "system":
        problems.append(f"SDK target {name} is a system library on Apple platforms, which a pod cannot build")
swift_targets = sorted(n for n in sdk_targets if targets[n]["type"] != "system")

def target_files(target):
    root = pathlib.Path(target.get("path") or f"Sources/{target['name']}")
    excluded = [root / e for e in target.get("exclude", [])]
    return {
        str(f) for f in root.rglob("*.swift")
        if not any(f == e or e in f.parents for e in excluded)
    }

def glob_files(patterns):
    files = set()
    for pattern in patterns:
        if pattern.startswith("/") or ".." in pathlib.PurePath(pattern).parts:
            problems.append(f"source_files pattern {pattern} leaves the repository")
            continue
        files |= {str(f) for f in pathlib.Path(".").glob(pattern) if f.is_file()}
    return files

subspec_files = {name: glob_files(spec["sources"]) for name, spec in subspecs.items()}
target_of_subspec = {}
for name in swift_targets:
    expected = target_files(targets[name])
    matches = [s for s, files in subspec_files.items() if files == expected]
    if len(matches) == 1:
        target_of_subspec[matches[0]] = name
        continue
    if len(matches) > 1:
        problems.append(f"target {name}: subspecs {', '.join(matches)} all cover its files")
        continue
    overlapping = [s for s, files in subspec_files.items() if files & expected]
    if not overlapping:
        problems.append(f"target {name} ({len(expected)} Swift files) has no subspec")
    for s in overlapping:
        missing, extra = sorted(expected - subspec_files[s]), sorted(subspec_files[s] - expected)
        problems.append(
            f"subspec {s} vs target {name}: {len(missing)} of the target's files missing {missing[:3]}, "
            f"{len(extra)} other files {extra[:3]}")

for s, spec in subspecs.items():
    if s not in target_of_subspec:
        if not any(p.startswith(f"subspec {s} ") for p in problems):
            problems.append(f"subspec {s} matches no SDK target ({len(subspec_files[s])} files)")
        continue
    target = target_of_subspec[s]
    subspec_of = {t: sub for sub, t in target_of_subspec.items()}
    wanted = {subspec_of.get(d, f"<no subspec for {d}>") for d in apple_dependencies(targets[target])
              if targets[d]["type"] != "system"}
    declared = set()
    for dependency in spec["deps"]:
        owner, _, sub = dependency.partition("/")
        if owner != "BmobSwiftSDK" or not sub:
            problems.append(f"subspec {s} depends on {dependency}; the SDK's targets depend only on each other")
        else:
            declared.add(sub)
    if wanted != declared:
        problems.append(
            f"subspec {s} (target {target}): dependencies {sorted(declared)}, Package.swift says {sorted(wanted)}")

# --- one version ---------------------------------------------------------------------------------------------------
swift_version = re.search(
    r'static\s+let\s+current\s*=\s*"([^"]+)"',
    pathlib.Path("Sources/BmobWire/Version/BmobVersion.swift").read_text())
changelog = re.search(r"^## \[(\d+\.\d+\.\d+[^\]]*)\]", pathlib.Path("CHANGELOG.md").read_text(), re.M)
versions = {
    "podspec s.version": pod_version,
    "BmobVersion.current": swift_version.group(1) if swift_version else None,
    "CHANGELOG.md's newest release": changelog.group(1) if changelog else None,
}
if len(set(versions.values())) != 1 or None in versions.values():
    problems.append("versions differ: " + ", ".join(f"{k} {v}" for k, v in versions.items()))

if problems:
    for problem in problems:
        print(f"check-podspec: {problem}", file=sys.stderr)
    sys.exit(1)
print(f"check-podspec: {len(subspecs)} subspecs match the SDK targets {', '.join(swift_targets)}; version {pod_version}")
PY

[ "$typecheck" = 1 ] || exit 0
# The pod as CocoaPods builds it, on this machine: a copy of the subspecs' folders, prepare_command run in it, one
# module. The copy's files are the podspec's globs (checked equal to the targets' above).
pod_root="$(mktemp -d)"
trap 'rm -f "$package_json"; rm -rf "$pod_root"' EXIT
python3 - "$podspec" "$pod_root" <<'PY'
import pathlib, re, shutil, sys
text = pathlib.Path(sys.argv[1]).read_text()
root = pathlib.Path(sys.argv[2])
for pattern in re.findall(r"\.source_files\s*=\s*'([^']+)'", text):
    for file in pathlib.Path(".").glob(pattern):
        (root / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(file, root / file)
command = re.search(r"prepare_command\s*=\s*<<-CMD\n(.*?)^\s*CMD\s*$", text, re.S | re.M)
(root / "prepare.sh").write_text(command.group(1) if command else "")
flags = re.search(r"'OTHER_SWIFT_FLAGS'\s*=>\s*((?:'[^']*'\s*\\?\s*)+)", text)
(root / "flags").write_text("".join(re.findall(r"'([^']*)'", flags.group(1))) if flags else "")
PY
(cd "$pod_root" && bash prepare.sh)
read -r -a flags <"$pod_root/flags" || true  # no trailing newline
mapfile -t files < <(cd "$pod_root" && find Sources -name '*.swift' | sort)
if ! (cd "$pod_root" && swiftc -typecheck -swift-version 6 -module-name BmobSwiftSDK "${flags[@]}" \
    -I "$OLDPWD/Sources/COpenSSL" -I "$OLDPWD/Sources/CSystemShims" "${files[@]}"); then
    echo "check-podspec: the pod's ${#files[@]} files do not type-check as one module" >&2
    exit 1
fi
echo "check-podspec: the pod's ${#files[@]} files type-check as one module"
