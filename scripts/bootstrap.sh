#!/usr/bin/env bash
# Installs the system packages Bmob Swift builds against. Idempotent, and silent when everything is present.
#
#   scripts/bootstrap.sh          build dependencies (what `make serve` needs)
#   scripts/bootstrap.sh test     also the tests' independent protocol peers: the `websockets` and `pusher` libraries,
#                                 `prometheus_client` (its text-format parser reads /metrics), `schemathesis`
#                                 (property-based requests against /1/openapi.json),
#                                 `moto` (an S3 and STS server) from PyPI in a virtual environment at
#                                 .build/python-peers (tests find its interpreter there, or at
#                                 $BMOB_PYTHON_PEERS), PostgreSQL, PgBouncer, and Chromium with a CJK
#                                 font (the console's browser tests drive it headless over the DevTools protocol)
#   scripts/bootstrap.sh bench    also the benchmark peers (wrk, nginx, PostgreSQL) and valgrind
#   scripts/bootstrap.sh cluster  also PostgreSQL and nginx, for scripts/cluster.sh
set -euo pipefail

want_bench=0
want_test=0
[ "${1:-}" = "bench" ] && want_bench=1
[ "${1:-}" = "test" ] && want_test=1
want_cluster=0
[ "${1:-}" = "cluster" ] && want_cluster=1

if ! command -v swift >/dev/null 2>&1; then
    echo "bootstrap: 'swift' is not on PATH; install Swift 6.3 from https://swift.org/install first" >&2
    exit 1
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        echo "bootstrap: need root to run: $*" >&2
        exit 1
    fi
}

case "$(uname -s)" in
Linux)
    packages=(pkg-config libsqlite3-dev libpq-dev libssl-dev)
    [ "$want_test" = 1 ] && packages+=(python3 python3-venv openssl postgresql pgbouncer curl chromium fonts-wqy-zenhei)
    [ "$want_bench" = 1 ] && packages+=(wrk nginx-light python3 python3-venv valgrind postgresql)
    [ "$want_cluster" = 1 ] && packages+=(postgresql nginx-light curl)
    missing=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "bootstrap: installing ${missing[*]}" >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    ;;
Darwin)
    command -v brew >/dev/null 2>&1 || { echo "bootstrap: Homebrew is required on macOS (https://brew.sh)" >&2; exit 1; }
    formulas=(pkg-config sqlite libpq openssl)
    [ "$want_test" = 1 ] && formulas+=(python postgresql pgbouncer)
    # Chromium for the console's browser tests is a cask on macOS; point BMOB_CHROMIUM at any Chromium or Chrome.
    [ "$want_bench" = 1 ] && formulas+=(wrk nginx)
    [ "$want_cluster" = 1 ] && formulas+=(postgresql nginx)
    for formula in "${formulas[@]}"; do
        brew list --formula "$formula" >/dev/null 2>&1 || brew install -q "$formula"
    done
    ;;
*)
    echo "bootstrap: unsupported system $(uname -s); install pkg-config, SQLite, libpq and OpenSSL development files" >&2
    exit 1
    ;;
esac

# Protocol peers for the tests, pinned so that a new release cannot change what the tests check.
[ "$want_test" = 1 ] || exit 0
peers="$(cd "$(dirname "$0")/.." && pwd)/.build/python-peers"
peer_requirements="websockets==17.4 moto[server]==5.2.5 bmobpy==1.10.1 pusher==3.3.4 pysher==1.0.8 prometheus_client==0.26.0 schemathesis==4.32.5"
if [ ! -f "$peers/.installed" ] || [ "$(cat "$peers/.installed")" != "$peer_requirements" ]; then
    echo "bootstrap: installing Python test peers ($peer_requirements) into $peers" >&2
    rm -rf "$peers"
    /usr/bin/env python3 -m venv "$peers"
    "$peers/bin/pip" install --quiet --disable-pip-version-check $peer_requirements
    echo "$peer_requirements" >"$peers/.installed"
fi
