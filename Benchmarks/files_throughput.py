#!/usr/bin/env python3
"""Files: a 1 GiB upload through `bmob serve`'s multipart path against `dd` writing as much to the same disk,
downloads of that file and GETs of a 100 KiB file against nginx serving the same files from the same folder,
and the server's peak resident memory during the upload, in the same run.

`bmob serve` (one event loop; its thread pool too) and nginx (one worker) are pinned to CPU 0; every client —
the upload client `bmob-bench files-upload`, dd, curl, wrk — runs on CPU 1.

- Upload: `bmob-bench files-upload` does what the SDK's uploader does (Benchmarks/Sources/bmob-bench/
  FilesUpload.swift): `/8/cdn` in the native envelope for the plan and short-lived credentials, then the
  S3-style endpoint signed with SigV4 — initiate, 8 MiB parts 4 at a time (each read from the source file when
  its turn comes and signed with its SHA-256), complete — and `/8/savecdnupload`. The figure is the file's size
  over the time from the plan to the registered file; the parts alone and the completion (which concatenates
  the parts into the file and flushes it) are timed too. The server writes each part to its own file and
  flushes it, then writes the whole file again when completing and flushes that.
- dd: `dd if=/dev/zero bs=8M count=128` into the server's data folder, once with `conv=fdatasync` (through the
  page cache, one flush at the end: the disk's streaming rate with the data durable, the reference of the
  ratio) and once with `oflag=dsync` (a flush after every 8 MiB, the parts' pattern, for comparison).
- Download: `curl -o /dev/null` of the uploaded file from bmob's download URL and from nginx (root = bmob's
  files folder, so the same file; `sendfile on` as nginx is usually run, and `sendfile off`, which copies
  through user space as bmob does). The file was just written, so both read it from the page cache.
- Small files: `wrk -t1 -c32` GETs of a 100 KiB file uploaded with `POST /2/files/<name>`, on both servers.
- Memory: `VmRSS` of the server sampled every 10 ms during each upload, and its `VmHWM` after the uploads;
  the target is a peak under 64 MiB.

Rounds alternate between bmob and its references; medians are reported.
"""
import argparse
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from bench_common import cpu_seconds, free_port, replace_section, wait_for

APP_ID, REST_KEY, MASTER_KEY, SECRET_KEY = "benchapp", "benchkey", "benchmaster", "benchsecret01234"
MIB = 1024 * 1024
BIG_BYTES = 1024 * MIB
SMALL_BYTES = 100 * 1024
RSS_TARGET_MIB = 64


# --- helpers ---------------------------------------------------------------------------------------------

def status_kib(pid, field):
    """A `kB` field of /proc/<pid>/status (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def context_switches(pids):
    """Context switches so far (voluntary and not) of every thread of the given processes."""
    total = 0
    for pid in pids:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/status") as handle:
                    for line in handle:
                        if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                            total += int(line.split()[1])
            except FileNotFoundError:
                pass  # a thread that ended
    return total


class RSSSampler:
    """Samples a process's VmRSS every `interval` seconds on a thread, with the wall-clock time of each."""

    def __init__(self, pid, interval=0.01):
        self.pid, self.interval = pid, interval
        self.samples = []
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop_event.is_set():
            self.samples.append((time.time() * 1000, status_kib(self.pid, "VmRSS")))
            time.sleep(self.interval)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()
        self.thread.join()

    def peak(self, start_ms=0, end_ms=float("inf")):
        values = [kib for at, kib in self.samples if start_ms <= at <= end_ms]
        return max(values) if values else 0


def write_random_file(path, size, chunk=8 * MIB):
    with open(path, "wb") as handle:
        left = size
        while left > 0:
            piece = os.urandom(min(chunk, left))
            handle.write(piece)
            left -= len(piece)


def rest(port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, body, {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": REST_KEY,
                                                **(headers or {})})
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path} → {response.status} {data[:300]!r}")
    return data, dict(response.getheaders())


def url_path(url):
    """The path of an absolute http URL."""
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


# --- servers ---------------------------------------------------------------------------------------------

def start_bmob(binary, workdir):
    data = os.path.join(workdir, "bmob-data")
    subprocess.run([binary, "apps", "create", "--data", data, "--name", "Bench", "--app-id", APP_ID,
                    "--rest-key", REST_KEY, "--master-key", MASTER_KEY, "--secret-key", SECRET_KEY],
                   check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    log = open(os.path.join(workdir, "bmob.log"), "w")
    process = subprocess.Popen(
        ["taskset", "-c", "0", binary, "serve", "--port", str(port), "--loops", "1", "--data", data,
         "--log-level", "error"], stdout=log, stderr=subprocess.STDOUT)
    wait_for(port, process)
    return process, port, data, log


def start_nginx(workdir, root, sendfile):
    port = free_port()
    name = f"nginx-sendfile-{'on' if sendfile else 'off'}"
    folder = os.path.join(workdir, name)
    os.makedirs(folder)
    config = os.path.join(folder, "nginx.conf")
    # As root, nginx's worker would run as `nobody`, which cannot read the private temporary folder.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    with open(config, "w") as handle:
        handle.write(f"""
{user}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  default_type application/octet-stream;
  sendfile {'on' if sendfile else 'off'};
  tcp_nopush on;
  server {{
    listen 127.0.0.1:{port};
    root {root};
    location / {{ }}
  }}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen(["taskset", "-c", "0", nginx, "-c", config, "-p", folder],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(port, process)
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    return process, port, [int(pid) for pid in children] + [process.pid]


# --- measurements ----------------------------------------------------------------------------------------

def settle():
    """Flushes what earlier steps left dirty (and lets the disk finish discarding deleted files), so that each
    timed write starts from a quiet disk."""
    os.sync()
    time.sleep(1)


def upload(bench, port, source, pid):
    """One multipart upload of `source`; returns its timings, the server's CPU and its peak RSS."""
    settle()
    before = cpu_seconds([pid])
    with RSSSampler(pid) as sampler:
        output = subprocess.run(
            ["taskset", "-c", "1", bench, "files-upload", "--port", str(port), "--app-id", APP_ID,
             "--secret-key", SECRET_KEY, "--file", source, "--name", "big.bin", "--in-flight", "4"],
            check=True, capture_output=True, text=True).stdout
    result = json.loads(output)
    used = cpu_seconds([pid]) - before
    seconds = (result["saved_ms"] - result["planned_ms"]) / 1000
    parts_seconds = (result["parts_ms"] - result["initiated_ms"]) / 1000
    complete_seconds = (result["completed_ms"] - result["parts_ms"]) / 1000
    mib = result["bytes"] / MIB
    return {"key": result["key"], "url": result["url"], "seconds": seconds, "mibps": mib / seconds,
            "parts_seconds": parts_seconds, "parts_mibps": mib / parts_seconds,
            "complete_seconds": complete_seconds, "server_cpu_seconds": used,
            "client_cpu_seconds": result["client_cpu_seconds"],
            "peak_rss_kib": sampler.peak(),
            "peak_rss_parts_kib": sampler.peak(result["initiated_ms"], result["parts_ms"]),
            "peak_rss_complete_kib": sampler.peak(result["parts_ms"], result["completed_ms"]),
            "rss_samples": len(sampler.samples)}


def dd(folder, flag):
    target = os.path.join(folder, "dd-reference.bin")
    settle()
    started = time.monotonic()
    subprocess.run(["taskset", "-c", "1", "dd", "if=/dev/zero", f"of={target}", "bs=8M", "count=128", flag],
                   check=True, capture_output=True)
    seconds = time.monotonic() - started
    os.remove(target)
    return {"flag": flag, "seconds": seconds, "mibps": BIG_BYTES / MIB / seconds}


def download(url, pids):
    before = cpu_seconds(pids)
    output = subprocess.run(
        ["taskset", "-c", "1", "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{time_total}",
         url], check=True, capture_output=True, text=True).stdout.split()
    used = cpu_seconds(pids) - before
    status, size, seconds = int(output[0]), int(output[1]), float(output[2])
    if status != 200 or size != BIG_BYTES:
        raise RuntimeError(f"{url}: status {status}, {size} bytes")
    return {"seconds": seconds, "mibps": size / MIB / seconds, "cpu_seconds": used}


def wrk(url, pids, seconds, connections):
    before, switches = cpu_seconds(pids), context_switches(pids)
    output = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        check=True, capture_output=True, text=True).stdout
    used = cpu_seconds(pids) - before
    switches = context_switches(pids) - switches
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 1, "ms": 1000, "s": 1_000_000}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    if errors or socket_errors:
        raise RuntimeError(f"{url}: {output}")
    return {"rps": requests / seconds, "cpu_us": used * 1e6 / requests, "p99_us": float(p99.group(1)) * scale,
            "switches": switches / requests}


def check_ranges(port, path, source):
    """Spot-checks the uploaded file: three ranges of it against the source."""
    with open(source, "rb") as handle:
        for first in (0, BIG_BYTES // 2 + 12345, BIG_BYTES - 4096):
            handle.seek(first)
            expected = handle.read(4096)
            body, _ = rest(port, "GET", path, headers={"Range": f"bytes={first}-{first + 4095}"})
            if body != expected:
                raise RuntimeError(f"bytes {first}… of the uploaded file differ from the source")


# --- report ----------------------------------------------------------------------------------------------

def median(runs, key):
    return statistics.median(run[key] for run in runs)


def write_report(path, summary, args):
    s = summary
    up = s["upload"]
    small = s["small"]
    ratios = s["ratios"]
    rss_met = s["peak_rss_mib"] < RSS_TARGET_MIB
    section = f"""<!-- bench:files:start -->
## Files — multipart upload against dd, downloads against nginx, the server's memory during an upload

`make bench` ({time.strftime('%Y-%m-%d')}): a 1 GiB file of random bytes; {args.upload_rounds} alternating rounds
of the upload and dd, {args.rounds} of the downloads and of the small GETs; `bmob serve --loops 1` (its thread pool
too) and nginx (one worker) pinned to CPU 0, every client (`bmob-bench files-upload`, dd, curl, wrk) pinned to
CPU 1; the server's data folder, dd's output and nginx's root on the same ext4 disk; medians.

The upload is what the SDK's uploader does: `/8/cdn` for the plan and short-lived credentials, then the
S3-style endpoint signed with SigV4 — initiate, 8 MiB parts 4 in flight (each read from the source file
and hashed when its turn comes), complete — then `/8/savecdnupload`; the time runs from the plan to the
registered file. The server streams each part to a file of its own while checking its SHA-256 and flushes
it; completing concatenates the parts into the file (a second write of the whole 1 GiB) and flushes that.

| upload of 1 GiB | MiB/s | seconds | server CPU |
|---|---:|---:|---:|
| bmob, multipart (plan → registered) | {up['mibps']:,.0f} | {up['seconds']:.2f} | {up['server_cpu_seconds']:.2f} s |
| — of which the 128 parts | {up['parts_mibps']:,.0f} | {up['parts_seconds']:.2f} | |
| — of which completing (concatenate + flush) | | {up['complete_seconds']:.2f} | |
| `dd bs=8M count=128 conv=fdatasync` (one flush at the end) | {s['dd_fdatasync']['mibps']:,.0f} | {s['dd_fdatasync']['seconds']:.2f} | |
| `dd bs=8M count=128 oflag=dsync` (a flush per 8 MiB) | {s['dd_dsync']['mibps']:,.0f} | {s['dd_dsync']['seconds']:.2f} | |

| download of the 1 GiB file (`curl -o /dev/null`) | MiB/s | server CPU per GiB |
|---|---:|---:|
| bmob (`GET /<key>`) | {s['download']['bmob']['mibps']:,.0f} | {s['download']['bmob']['cpu_seconds']:.2f} s |
| nginx, `sendfile on` | {s['download']['nginx-on']['mibps']:,.0f} | {s['download']['nginx-on']['cpu_seconds']:.2f} s |
| nginx, `sendfile off` | {s['download']['nginx-off']['mibps']:,.0f} | {s['download']['nginx-off']['cpu_seconds']:.2f} s |

| `GET` of a 100 KiB file (`wrk -t1 -c{args.connections} -d{args.seconds}s`) | requests/s | server CPU per request | context switches per request | p99 |
|---|---:|---:|---:|---:|
| bmob | {small['bmob']['rps']:,.0f} | {small['bmob']['cpu_us']:.1f} µs | {small['bmob']['switches']:.2f} | {small['bmob']['p99_us'] / 1000:.1f} ms |
| nginx, `sendfile on` | {small['nginx-on']['rps']:,.0f} | {small['nginx-on']['cpu_us']:.1f} µs | {small['nginx-on']['switches']:.2f} | {small['nginx-on']['p99_us'] / 1000:.1f} ms |
| nginx, `sendfile off` | {small['nginx-off']['rps']:,.0f} | {small['nginx-off']['cpu_us']:.1f} µs | {small['nginx-off']['switches']:.2f} | {small['nginx-off']['p99_us'] / 1000:.1f} ms |

| ratio (medians) | |
|---|---:|
| upload: bmob / `dd conv=fdatasync` | {ratios['upload_dd_fdatasync']:.2f}× |
| upload: bmob / `dd oflag=dsync` | {ratios['upload_dd_dsync']:.2f}× |
| upload, the parts alone: bmob / `dd conv=fdatasync` | {ratios['parts_dd_fdatasync']:.2f}× |
| download 1 GiB: bmob / nginx `sendfile on` | {ratios['download_nginx_on']:.2f}× |
| download 1 GiB: bmob / nginx `sendfile off` | {ratios['download_nginx_off']:.2f}× |
| GET 100 KiB, requests/s: bmob / nginx `sendfile on` | {ratios['small_nginx_on']:.2f}× |
| GET 100 KiB, requests/s: bmob / nginx `sendfile off` | {ratios['small_nginx_off']:.2f}× |

**Server memory during the upload:** peak `VmHWM` {s['peak_rss_mib']:.1f} MiB (idle before it
{s['idle_rss_mib']:.1f} MiB; highest `VmRSS` sampled every 10 ms: {s['peak_sampled_mib']:.1f} MiB while parts
arrived, {s['peak_complete_mib']:.1f} MiB while completing) — target < {RSS_TARGET_MIB} MiB: {'met' if rss_met else '**missed**'}.
That is {s['peak_rss_mib'] - s['idle_rss_mib']:.1f} MiB above idle with 4 parts in flight: a part holds its 1 MiB write
batch in `LocalMultipartUploads.writePart` (and the batch being written on the thread pool), and its connection at
most 256 KiB of body read and not yet taken.

On this VM a buffered write's cost is set less by the disk than by the memory it lands in: in a check beside
this benchmark (`dd` without a flush, then `sync`), writing 1 GiB into the page cache took from 0.3 s to 5.2 s
within one minute (most likely because the VM's memory balloon hands freed guest memory back to the host, and
touching it again is slow), flushing it about 0.4 s. dd and bmob swing alike from round to round (every round is
in `Benchmarks/out/files_throughput.json`), so compare medians. bmob writes the file twice, as parts and then as
their concatenation while completing ({up['complete_seconds']:.1f} s of the {up['seconds']:.1f} s above): `perf` on
the server during an upload put 70 % of its samples in the kernel copying the completion's writes into the page
cache.
Downloads read the just-written file from the page cache on both servers. The small GETs' context switches
count every thread of the server: bmob opens the file and reads each 64 KiB on its thread pool, a hand-off
there and back each time, where nginx's one worker does it all in line.

`BENCH_ONLY=files Benchmarks/run.sh` reruns this benchmark alone (about {s['minutes']:.0f} minutes, builds
aside); every round's numbers land in `Benchmarks/out/files_throughput.json`.
<!-- bench:files:end -->
"""
    replace_section(path, "files", section, after="realtime")


# --- main ------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the downloads and of the small GETs")
    parser.add_argument("--upload-rounds", type=int, default=5,
                        help="rounds of the upload and dd, the noisiest figures on a VM")
    parser.add_argument("--seconds", type=int, default=5, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workdir", help="folder for the temporary files (default: the system's temporary folder)")
    parser.add_argument("--report")
    parser.add_argument("--json")
    args = parser.parse_args()
    began = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="bmob-bench-files-", dir=args.workdir)
    processes = []
    logs = []
    try:
        source = os.path.join(workdir, "source.bin")
        write_random_file(source, BIG_BYTES)
        bmob, port, data, log = start_bmob(args.bmob, workdir)
        processes.append(bmob)
        logs.append(log)
        files_root = os.path.join(data, "files")
        idle_kib = status_kib(bmob.pid, "VmRSS")
        print(f"bmob idle: VmRSS {idle_kib / 1024:.1f} MiB", flush=True)

        # Uploads, alternating with dd into the same folder.
        uploads, dd_fdatasync, dd_dsync = [], [], []
        previous = None
        for round_number in range(args.upload_rounds):
            if previous is not None:
                rest(port, "DELETE", f"/2/files/local/{previous['key']}", headers={"X-Bmob-Master-Key": MASTER_KEY})
            row = upload(args.bench, port, source, bmob.pid)
            uploads.append(row)
            previous = row
            print(f"round {round_number + 1} upload: {row['mibps']:,.0f} MiB/s ({row['seconds']:.2f} s; parts "
                  f"{row['parts_seconds']:.2f} s, complete {row['complete_seconds']:.2f} s), server CPU "
                  f"{row['server_cpu_seconds']:.2f} s, peak VmRSS {row['peak_rss_kib'] / 1024:.1f} MiB", flush=True)
            for flag, runs in (("conv=fdatasync", dd_fdatasync), ("oflag=dsync", dd_dsync)):
                runs.append(dd(data, flag))
                print(f"round {round_number + 1} dd {flag}: {runs[-1]['mibps']:,.0f} MiB/s "
                      f"({runs[-1]['seconds']:.2f} s)", flush=True)
        hwm_kib = status_kib(bmob.pid, "VmHWM")
        print(f"bmob VmHWM after the uploads: {hwm_kib / 1024:.1f} MiB", flush=True)
        big_path = url_path(previous["url"])
        check_ranges(port, big_path, source)

        # The small file, through the REST door.
        small = os.path.join(workdir, "small.bin")
        write_random_file(small, SMALL_BYTES)
        with open(small, "rb") as handle:
            body, _ = rest(port, "POST", "/2/files/small.bin", handle.read(),
                           headers={"Content-Type": "application/octet-stream"})
        small_path = url_path(json.loads(body)["url"])

        servers = {"bmob": (port, [bmob.pid])}
        for name, sendfile in (("nginx-on", True), ("nginx-off", False)):
            process, nginx_port, pids = start_nginx(workdir, files_root, sendfile)
            processes.append(process)
            servers[name] = (nginx_port, pids)

        downloads = {name: [] for name in servers}
        for round_number in range(args.rounds):
            for name, (server_port, pids) in servers.items():
                row = download(f"http://127.0.0.1:{server_port}{big_path}", pids)
                downloads[name].append(row)
                print(f"round {round_number + 1} download {name}: {row['mibps']:,.0f} MiB/s, server CPU "
                      f"{row['cpu_seconds']:.2f} s", flush=True)

        for name, (server_port, pids) in servers.items():
            wrk(f"http://127.0.0.1:{server_port}{small_path}", pids, 1, args.connections)  # warm up
        smalls = {name: [] for name in servers}
        for round_number in range(args.rounds):
            for name, (server_port, pids) in servers.items():
                row = wrk(f"http://127.0.0.1:{server_port}{small_path}", pids, args.seconds, args.connections)
                smalls[name].append(row)
                print(f"round {round_number + 1} GET 100 KiB {name}: {row['rps']:,.0f} req/s, "
                      f"{row['cpu_us']:.1f} µs CPU/request, {row['switches']:.1f} context switches/request, "
                      f"p99 {row['p99_us'] / 1000:.1f} ms", flush=True)

        upload_row = {key: median(uploads, key) for key in
                      ("mibps", "seconds", "parts_mibps", "parts_seconds", "complete_seconds", "server_cpu_seconds")}
        summary = {
            "upload": upload_row,
            "dd_fdatasync": {key: median(dd_fdatasync, key) for key in ("mibps", "seconds")},
            "dd_dsync": {key: median(dd_dsync, key) for key in ("mibps", "seconds")},
            "download": {name: {key: median(runs, key) for key in ("mibps", "cpu_seconds")}
                         for name, runs in downloads.items()},
            "small": {name: {key: median(runs, key) for key in ("rps", "cpu_us", "p99_us", "switches")}
                      for name, runs in smalls.items()},
            "idle_rss_mib": idle_kib / 1024,
            "peak_rss_mib": hwm_kib / 1024,
            "peak_sampled_mib": max(row["peak_rss_parts_kib"] for row in uploads) / 1024,
            "peak_complete_mib": max(row["peak_rss_complete_kib"] for row in uploads) / 1024,
        }
        summary["ratios"] = {
            "upload_dd_fdatasync": upload_row["mibps"] / summary["dd_fdatasync"]["mibps"],
            "upload_dd_dsync": upload_row["mibps"] / summary["dd_dsync"]["mibps"],
            "parts_dd_fdatasync": upload_row["parts_mibps"] / summary["dd_fdatasync"]["mibps"],
            "download_nginx_on": summary["download"]["bmob"]["mibps"] / summary["download"]["nginx-on"]["mibps"],
            "download_nginx_off": summary["download"]["bmob"]["mibps"] / summary["download"]["nginx-off"]["mibps"],
            "small_nginx_on": summary["small"]["bmob"]["rps"] / summary["small"]["nginx-on"]["rps"],
            "small_nginx_off": summary["small"]["bmob"]["rps"] / summary["small"]["nginx-off"]["rps"],
        }
        summary["minutes"] = max(1, round((time.monotonic() - began) / 60))
        print("ratios: " + ", ".join(f"{key} {value:.2f}" for key, value in summary["ratios"].items()), flush=True)
        print(f"peak server memory during the uploads: VmHWM {hwm_kib / 1024:.1f} MiB "
              f"(target < {RSS_TARGET_MIB} MiB: {'met' if hwm_kib / 1024 < RSS_TARGET_MIB else 'MISSED'})", flush=True)
        if args.json:
            os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
            with open(args.json, "w") as handle:
                json.dump({"uploads": uploads, "dd_fdatasync": dd_fdatasync, "dd_dsync": dd_dsync,
                           "downloads": downloads, "small": smalls, "summary": summary}, handle, indent=1)
        if args.report:
            write_report(args.report, summary, args)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            log.close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
