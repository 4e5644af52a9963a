#!/usr/bin/env python3
"""Create and indexed-query throughput through nginx with one `bmob serve` node against two, on one PostgreSQL, in
the same run.

One throwaway PostgreSQL cluster (scripts/postgres.sh, durable settings), two `bmob serve --database` nodes
(`--loops 1` each) and one nginx with two listeners: one proxies to the first node only, the other round robin to
both. 20,000 records are seeded (`name` text, `score` number, an index on `score`); creates go to a second class.
Rounds alternate between the one-node and the two-node listener; wrk (one thread on CPU 1, 64 keep-alive
connections, as in data_api.py) replays the same pre-generated requests through Benchmarks/data_api.lua. The
servers are not pinned: they share the machine's cores (with wrk), and CPU per request counts PostgreSQL, the
node(s) serving and nginx. Medians are reported.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

from bench_common import free_ports, replace_section, wait_for
from data_api import APP_ID, MASTER_KEY, REST_KEY, SCORE_RANGE, Bmob, Client, cluster_pids, cpu_by_pid, seed, wrk

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = ("create", "query")


class Target:
    """What wrk needs of a server: its port and headers."""

    def __init__(self, name, port):
        self.name = name
        self.port = port
        self.headers = {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": REST_KEY,
                        "Content-Type": "application/json"}
        self.client = Client(port, self.headers)

    def seed_batch(self, records):
        reply = self.client.call("POST", "/1/batch", {"requests": [
            {"method": "POST", "path": "/1/classes/Score", "body": record} for record in records]})
        return [item["success"]["objectId"] for item in reply]

    label = "bmob through nginx"


def start_postgres(workdir):
    environment = {**os.environ, "BMOB_POSTGRES_DIR": os.path.join(workdir, "postgres"), "BMOB_POSTGRES_PORT": "55471"}
    url = subprocess.run([os.path.join(ROOT, "scripts", "postgres.sh"), "start"], check=True, capture_output=True,
                         text=True, env=environment).stdout.strip()
    return url, environment


def start_nginx(workdir, nodes, ports):
    config = os.path.join(workdir, "nginx.conf")
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in nodes)
    with open(config, "w") as handle:
        handle.write(f"""worker_processes 2;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  upstream one {{ server 127.0.0.1:{nodes[0]}; keepalive 64; }}
  upstream two {{
{servers}    keepalive 64;
  }}
  server {{ listen 127.0.0.1:{ports[0]}; location / {{ proxy_pass http://one; proxy_http_version 1.1;
    proxy_set_header Connection ""; }} }}
  server {{ listen 127.0.0.1:{ports[1]}; location / {{ proxy_pass http://two; proxy_http_version 1.1;
    proxy_set_header Connection ""; }} }}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-c", config, "-p", workdir, "-g", "daemon off;"])
    for port in ports:
        wait_for(port, process)
    return process


def process_tree(pid):
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [int(child) for child in children]


def measure(target, requests_file, pids, args):
    before = sum(cpu_by_pid(pids).values())
    result = wrk(target, requests_file, args.seconds, args.connections)
    used = sum(cpu_by_pid(pids).values()) - before
    requests = max(1, result["requests"])
    return {"rps": result["requests"] * 1e6 / result["duration_us"], "cpu_us": used * 1e6 / requests,
            "errors": result["non2xx"] + result["socket_errors"]}


def report(rows, args):
    def line(workload, nodes):
        row = rows[workload, nodes]
        return (f"| {'create' if workload == 'create' else 'indexed query'} | {nodes} | {row['rps']:,.0f} | "
                f"{row['cpu_us']:.0f} µs | {row['errors']} |")

    lines = [line(workload, nodes) for workload in WORKLOADS for nodes in (1, 2)]
    ratios = [f"| {'create' if workload == 'create' else 'indexed query'} | "
              f"{rows[workload, 2]['rps'] / rows[workload, 1]['rps']:.2f}× |" for workload in WORKLOADS]
    cores = os.cpu_count()
    return f"""<!-- bench:nodes:start -->
## Several nodes — one `bmob serve` node against two, through nginx, on one PostgreSQL

`make bench` ({time.strftime('%Y-%m-%d')}): {args.rows:,} seeded records, an index on `score`; one nginx (two
workers) with a listener for the first node alone and one round robin to both; {args.rounds} alternating rounds
of `wrk -t1 -c{args.connections} -d{args.seconds}s` (pinned to CPU 1) per workload, the data API benchmark's
create and indexed query; the servers are not pinned, so PostgreSQL, the nodes, nginx and wrk share this
machine's {cores} cores; CPU per request counts PostgreSQL, the serving node(s) and nginx; medians.

| workload | nodes | requests/s | CPU per request | non-2xx / socket errors |
|---|---:|---:|---:|---:|
{chr(10).join(lines)}

| two nodes / one node | by requests/s |
|---|---:|
{chr(10).join(ratios)}

On {cores} cores a second node cannot add throughput: PostgreSQL, nginx and wrk already use the cores the first
node leaves, and the second node's event loop, reader threads and connections only add switching between
processes (hence the higher CPU per request). Creates also take turns across nodes, holding the app's advisory
lock for each group commit, so two nodes make smaller groups. Several nodes are for availability (one can be
killed or restarted, see `NodeProcessTests`) and for machines where each node, and PostgreSQL, has cores of its
own; this machine cannot show that scaling.
<!-- bench:nodes:end -->
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--report")
    parser.add_argument("--json")
    parser.add_argument("--workdir", default=tempfile.mkdtemp(prefix="bmob-nodes-"))
    args = parser.parse_args()
    os.chmod(args.workdir, 0o755)  # PostgreSQL runs as `postgres` and must reach its folder
    rng = random.Random(7)
    url, environment = start_postgres(args.workdir)
    processes = []
    try:
        data = os.path.join(args.workdir, "data")
        subprocess.run([args.bmob, "apps", "create", "--data", data, "--name", "Bench", "--app-id", APP_ID,
                        "--rest-key", REST_KEY, "--master-key", MASTER_KEY, "--database", url],
                       check=True, stdout=subprocess.DEVNULL)
        node_ports = free_ports(2)
        nodes = []
        for index, port in enumerate(node_ports):
            log = open(os.path.join(args.workdir, f"node{index}.log"), "w")
            process = subprocess.Popen([args.bmob, "serve", "--port", str(port), "--loops", "1", "--data", data,
                                        "--database", url, "--log-level", "error"], stdout=log, stderr=subprocess.STDOUT)
            processes.append(process)
            nodes.append(process)
            wait_for(port, process)
        listen = free_ports(2)
        nginx = start_nginx(args.workdir, node_ports, listen)
        processes.append(nginx)
        one, two = Target("one", listen[0]), Target("two", listen[1])
        master = {"X-Bmob-Master-Key": MASTER_KEY}
        fields = {"name": {"type": "String"}, "score": {"type": "Number"}}
        one.client.call("POST", "/1/schemas/Score", {"fields": fields, "indexes": [["score"]]}, master)
        one.client.call("POST", "/1/schemas/CreateBench", {"fields": fields}, master)
        seed(one, [{"name": f"r-{i}", "score": rng.randrange(SCORE_RANGE)} for i in range(args.rows)])
        files = {}
        bodies = [json.dumps({"name": f"w-{i}", "score": rng.randrange(SCORE_RANGE)}, separators=(",", ":"))
                  for i in range(1000)]
        thresholds = [rng.randrange(SCORE_RANGE // 10, SCORE_RANGE) for _ in range(1000)]
        lines = {"create": [Bmob.request_line(None, "create", body) for body in bodies],
                 "query": [Bmob.request_line(None, "query", x) for x in thresholds]}
        for workload in WORKLOADS:
            files[workload] = os.path.join(args.workdir, f"{workload}.txt")
            with open(files[workload], "w") as handle:
                handle.write("\n".join(lines[workload]) + "\n")
        runs = {}
        for round_index in range(args.rounds):
            for workload in WORKLOADS:
                for count, target in ((1, one), (2, two)):
                    pids = cluster_pids(environment) + process_tree(nginx.pid) + [node.pid for node in nodes[:count]]
                    row = measure(target, files[workload], pids, args)
                    runs.setdefault((workload, count), []).append(row)
                    print(f"round {round_index + 1} {workload} {count} node(s): {row['rps']:,.0f} requests/s, "
                          f"{row['cpu_us']:.0f} µs CPU per request, {row['errors']} errors", flush=True)
        rows = {key: {name: statistics.median(run[name] for run in values) for name in values[0]}
                for key, values in runs.items()}
        if args.json:
            with open(args.json, "w") as handle:
                json.dump({f"{workload} {count}": values for (workload, count), values in runs.items()}, handle, indent=1)
        section = report(rows, args)
        print(section)
        if args.report:
            replace_section(args.report, "nodes", section, after="data")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        subprocess.run([os.path.join(ROOT, "scripts", "postgres.sh"), "destroy"], env=environment,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
