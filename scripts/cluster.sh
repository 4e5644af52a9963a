#!/usr/bin/env bash
# Several Bmob nodes on one machine, for trying the PostgreSQL deployment: a throwaway PostgreSQL (scripts/postgres.sh,
# no system service), NODES `bmob serve` nodes on it (default 3) and nginx in front of them, with the WebSocket
# upgrade that realtime needs. Prints the URL and the development app's keys; Ctrl-C stops everything.
#
#   scripts/cluster.sh              build (release) and run; state in .bmob-cluster/
#   PORT=9000 NODES=2 scripts/cluster.sh
#
# The nodes share one data folder (the apps file); their data lives in PostgreSQL. `make cluster` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-8080}"
nodes="${NODES:-3}"
state="$(pwd)/.bmob-cluster"
data="$state/data"
logs="$state/logs"
mkdir -p "$data" "$logs"
[ "$(id -u)" -eq 0 ] && chmod 755 "$state"

nginx="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx" ] || { echo "cluster.sh: nginx is missing (scripts/bootstrap.sh cluster installs it)" >&2; exit 1; }

BMOB_STRICT=0 BMOB_EXCLUSIVITY=unchecked swift build -c release --product bmob >/dev/null
bmob=.build/release/bmob

export BMOB_POSTGRES_DIR="$state/postgres"
export BMOB_POSTGRES_PORT="${BMOB_POSTGRES_PORT:-55440}"
url="$(scripts/postgres.sh start)"

pids=()
stop() {
    trap - INT TERM EXIT
    echo "stopping…" >&2
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    scripts/postgres.sh stop || true
    exit 0
}
trap stop INT TERM EXIT

# One development app, made once; every node reads the same apps file.
if [ "$("$bmob" apps list --data "$data" --database "$url")" = "[]" ]; then
    "$bmob" apps create --data "$data" --database "$url" --name Cluster >"$state/app.json"
fi

upstream=""
for index in $(seq 1 "$nodes"); do
    node_port=$((port + index))
    "$bmob" serve --host 127.0.0.1 --port "$node_port" --data "$data" --database "$url" \
        >"$logs/node$index.log" 2>&1 &
    pids+=("$!")
    upstream+="    server 127.0.0.1:$node_port;"$'\n'
done

cat >"$state/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $state/nginx.pid;
error_log $logs/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
  # Round robin: any node accepts a socket.io session id another node handed out (the ids are signed with a
  # secret the nodes share in the database), so clients need not stick to one.
  upstream bmob {
$upstream  }
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 20m;
    location / {
      proxy_pass http://bmob;
      proxy_http_version 1.1;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_read_timeout 120s;
    }
  }
}
CONF
"$nginx" -c "$state/nginx.conf" -p "$state" >"$logs/nginx.log" 2>&1 &
pids+=("$!")

for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
done
echo "cluster: http://127.0.0.1:$port  ($nodes nodes on $url; logs in $logs)"
"$bmob" apps list --data "$data" --database "$url"
echo "Ctrl-C stops everything." >&2
wait -n "${pids[@]}" || true
echo "cluster.sh: a process exited; see $logs" >&2
