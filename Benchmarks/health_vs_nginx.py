#!/usr/bin/env python3
"""GET /health on `bmob serve` against nginx answering a static 200, in the same run.

Both servers get one core (one event loop, one nginx worker) pinned to CPU 0; wrk runs on CPU 1 with 64
keep-alive connections. For each server we read its CPU time (user + system, from /proc) before and after
each wrk run, so the figure is server CPU per request, independent of how fast the load generator is.
Rounds alternate between the servers so drift on a shared machine hits both alike; medians are reported.
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import cpu_seconds, free_port, replace_section, wait_for









def wrk(url, seconds, connections):
    output = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        check=True, capture_output=True, text=True).stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 1, "ms": 1000, "s": 1_000_000}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(1)} failed responses")
    return requests, float(p99.group(1)) * scale


def measure(name, url, pids, seconds, connections):
    before = cpu_seconds(pids)
    requests, p99 = wrk(url, seconds, connections)
    used = cpu_seconds(pids) - before
    return {"name": name, "requests": requests, "rps": requests / seconds,
            "cpu_ns": used * 1e9 / requests, "p99_us": p99}


def start_bmob(binary, workdir, access_log=True):
    """`bmob serve` on one loop; its access log (on by default) goes to a file, as an operator's would."""
    port = free_port()
    name = "bmob" if access_log else "bmob-nolog"
    log = open(os.path.join(workdir, f"{name}.log"), "w")
    process = subprocess.Popen(
        ["taskset", "-c", "0", binary, "serve", "--port", str(port), "--loops", "1",
         "--data", os.path.join(workdir, f"{name}-data"), "--log-level", "error",
         "--access-log", "on" if access_log else "off"],
        stdout=subprocess.DEVNULL, stderr=log)
    wait_for(port)
    return process, [process.pid], f"http://127.0.0.1:{port}/health"


def start_nginx(workdir):
    port = free_port()
    config = os.path.join(workdir, "nginx.conf")
    with open(config, "w") as handle:
        handle.write(f"""
worker_processes 1;
daemon off;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  server {{
    listen 127.0.0.1:{port};
    location /health {{ default_type application/json; return 200 '{{"status":"ok"}}'; }}
  }}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen(["taskset", "-c", "0", nginx, "-c", config, "-p", workdir],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(port)
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    return process, [int(pid) for pid in children] + [process.pid], f"http://127.0.0.1:{port}/health"


def write_report(path, rows, ratio, args):
    bmob = rows["bmob"]
    quiet = rows["bmob-nolog"]
    nginx = rows["nginx"]
    section = f"""<!-- bench:health:start -->
## `GET /health` — server CPU per request, against nginx

`make bench` ({time.strftime('%Y-%m-%d')}): {args.rounds} alternating rounds of `wrk -t1 -c{args.connections} -d{args.seconds}s`
pinned to CPU 1; each server pinned to CPU 0 with one event loop / one nginx worker; medians.

| server | requests/s | CPU per request | p99 latency |
|---|---:|---:|---:|
| bmob serve (access log on, to a file) | {bmob['rps']:,.0f} | {bmob['cpu_ns'] / 1000:.2f} µs | {bmob['p99_us']:.0f} µs |
| bmob serve, `--access-log off` | {quiet['rps']:,.0f} | {quiet['cpu_ns'] / 1000:.2f} µs | {quiet['p99_us']:.0f} µs |
| nginx (static 200, access log off) | {nginx['rps']:,.0f} | {nginx['cpu_ns'] / 1000:.2f} µs | {nginx['p99_us']:.0f} µs |

**Ratio: bmob uses {ratio:.2f}× nginx's CPU per request** (target ≤ 1.3×), with its access log on. The access log
costs {(bmob['cpu_ns'] - quiet['cpu_ns']) / 1000:.2f} µs of CPU per request ({bmob['cpu_ns'] / quiet['cpu_ns']:.2f}× the server without it): a line
formatted per request, written to the file 64 KiB at a time. Every other benchmark runs with it on.
<!-- bench:health:end -->
"""
    replace_section(path, "health", section)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--report")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="bmob-bench-")
    servers = {}
    try:
        servers["bmob"] = start_bmob(args.bmob, workdir)
        servers["bmob-nolog"] = start_bmob(args.bmob, workdir, access_log=False)
        servers["nginx"] = start_nginx(workdir)
        for name, (_, _, url) in servers.items():
            wrk(url, 2, args.connections)  # warm up
        results = {name: [] for name in servers}
        for round_number in range(args.rounds):
            for name, (_, pids, url) in servers.items():
                row = measure(name, url, pids, args.seconds, args.connections)
                results[name].append(row)
                print(f"round {round_number + 1} {name}: {row['rps']:,.0f} req/s, "
                      f"{row['cpu_ns']:.0f} ns CPU/request, p99 {row['p99_us']:.0f} µs", flush=True)
        rows = {name: {key: statistics.median(r[key] for r in runs) for key in ("rps", "cpu_ns", "p99_us")}
                for name, runs in results.items()}
        ratio = rows["bmob"]["cpu_ns"] / rows["nginx"]["cpu_ns"]
        print(f"median CPU per request: bmob {rows['bmob']['cpu_ns']:.0f} ns, nginx {rows['nginx']['cpu_ns']:.0f} ns, "
              f"ratio {ratio:.2f}")
        if args.report:
            write_report(args.report, rows, ratio, args)
    finally:
        for process, _, _ in servers.values():
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
