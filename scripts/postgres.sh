#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, the benchmarks and the local cluster: a database cluster in a folder of its
# own, listening on a Unix socket in that folder (and on no TCP port), started without any system service.
#
#   scripts/postgres.sh start [DIR]   initialize DIR if needed, start the server, print its URL
#   scripts/postgres.sh stop [DIR]    stop the server (fast shutdown)
#   scripts/postgres.sh restart [DIR] stop then start (the failover tests use it)
#   scripts/postgres.sh url [DIR]     print the URL
#   scripts/postgres.sh destroy [DIR] stop the server and delete DIR
#
# DIR defaults to $BMOB_POSTGRES_DIR, else /tmp/bmob-postgres-<uid>. The port number (it names the socket file) is
# $BMOB_POSTGRES_PORT, else 55432. BMOB_POSTGRES_FAST=1 trades durability for speed (fsync off), for tests only.
# BMOB_POSTGRES_MAX_CONNECTIONS (default 1500: the tests run hundreds of servers at once, a few connections each).
# PostgreSQL refuses to run as root; as root the server runs as the `postgres` user the Debian package creates.
set -euo pipefail

# A test process may start this script with thousands of descriptors it did not mark close-on-exec (a library's
# sockets, say); PostgreSQL counts what it inherits against its own limit and then refuses to start ("insufficient
# file descriptors"). Nothing here needs more than standard input, output and error.
for descriptor in /proc/$$/fd/*; do
    number="${descriptor##*/}"
    if [ "$number" -gt 2 ] 2>/dev/null; then eval "exec $number>&-" 2>/dev/null || true; fi
done

command="${1:-}"
dir="${2:-${BMOB_POSTGRES_DIR:-/tmp/bmob-postgres-$(id -u)}}"
port="${BMOB_POSTGRES_PORT:-55432}"
data="$dir/data"

bindir() {
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -z "$found" ] && command -v pg_ctl >/dev/null 2>&1; then found="$(dirname "$(command -v pg_ctl)")"; fi
    if [ -z "$found" ]; then
        echo "postgres.sh: PostgreSQL is not installed (scripts/bootstrap.sh test installs it)" >&2
        exit 1
    fi
    echo "$found"
}

# Runs a PostgreSQL program as the user that owns the cluster.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

owner() {
    if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi
}

url() {
    echo "postgresql://$(owner)@/postgres?host=$dir&port=$port"
}

running() {
    [ -f "$data/postmaster.pid" ] && as_owner "$(bindir)/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start() {
    local bin
    bin="$(bindir)"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    if [ ! -f "$data/PG_VERSION" ]; then
        # C collation: strings sort by code point, as SQLite sorts them, so both engines give the same order.
        as_owner "$bin/initdb" -D "$data" --auth=trust --encoding=UTF8 --locale=C --username="$(owner)" >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2
            exit 1
        }
        {
            echo "listen_addresses = ''"
            echo "unix_socket_directories = '$dir'"
            echo "port = $port"
            echo "max_connections = ${BMOB_POSTGRES_MAX_CONNECTIONS:-1500}"
            echo "shared_buffers = 128MB"
            if [ "${BMOB_POSTGRES_FAST:-0}" = 1 ]; then
                echo "fsync = off"
                echo "full_page_writes = off"
                echo "synchronous_commit = off"
            fi
        } >>"$data/postgresql.conf"
    fi
    if ! running; then
        as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start >/dev/null || {
            tail -n 20 "$dir/server.log" >&2
            exit 1
        }
    fi
    url
}

stop() {
    if running; then as_owner "$(bindir)/pg_ctl" -D "$data" -m fast -w stop >/dev/null; fi
}

case "$command" in
start) start ;;
stop) stop ;;
restart)
    stop
    start
    ;;
url) url ;;
destroy)
    stop
    rm -rf "$dir"
    ;;
*)
    echo "usage: scripts/postgres.sh start|stop|restart|url|destroy [DIR]" >&2
    exit 2
    ;;
esac
