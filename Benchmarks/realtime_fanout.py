#!/usr/bin/env python3
"""Realtime fan-out: 10,000 socket.io 0.9 WebSocket subscribers of one class on `bmob serve`, REST creates at a
steady rate, every event counted with its write → event latency; beside an independent Python broadcast
server on the `websockets` library (Benchmarks/realtime_reference.py) measured by the same client.

Each run starts its server afresh (memory per connection is read from a fresh process), pinned to CPU 0 with
one core (bmob `--loops 1`; the reference is one asyncio thread), and runs `bmob-bench fanout` pinned to
CPU 1: it connects and subscribes every client, reads the server's VmRSS before and after (memory per idle
connection), sends five probe creates one at a time that every client must receive, then creates at `--rate` per second for
`--seconds` from a writer thread and counts each connection's deliveries (see
Benchmarks/Sources/bmob-bench/FanoutBenchmark.swift).

The reference runs at the same rate as bmob and, since one Python thread cannot fan out that fast, also at
a rate it sustains: 70 % of the writes per second it delivered in its first run at the full rate (or
`--reference-rate`); bmob is measured at both rates too. Rounds alternate which server goes first; medians are
reported. A last run per round gives bmob two loops and pins nothing (its default shape on this machine),
for information: the targets are judged on the pinned one-core run. bmob alone also runs at 4× the rate.

Every round also measures the kernel's floor (`bmob-bench fanout-floor-send`/`-receive`): bare writes of one
event's bytes to as many loopback connections, no server code at all, with one pinned thread and with two
unpinned ones: what handing one event to every subscriber costs on this machine whatever the server does.
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import (add_output_arguments, free_port, free_ports, median, replace_section, run_bench_client,
                          wait_for, write_json)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "Benchmarks", "realtime_reference.py")
WEBSOCKETS_VERSION = "17.4"
APP_ID, REST_KEY, MASTER_KEY = "benchapp", "benchkey", "benchmaster"
# The app's channel credentials, for the channels benchmark (Benchmarks/channel_fanout.py) on the same servers.
CHANNELS_APP_ID, CHANNELS_KEY, CHANNELS_SECRET = "4242", "benchchannelkey", "benchchannelsecret"

TARGET_P99_MS = 50
TARGET_DELIVERIES = 100_000
TARGET_KIB_PER_CONNECTION = 20
# bmob alone also runs at this multiple of --rate, for what one loop delivers when creates come faster than
# one event's fan-out takes.
HIGH_RATE_FACTOR = 4


def reference_python(explicit):
    """A Python with `websockets` pinned as the tests pin it, in .build-bench/venv (made on first use)."""
    if explicit:
        return explicit
    venv = os.path.join(ROOT, ".build-bench", "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    probe = subprocess.run([python, "-c", "import websockets; print(websockets.__version__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or probe.stdout.strip() != WEBSOCKETS_VERSION:
        subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                        f"websockets=={WEBSOCKETS_VERSION}"], check=True)
    return python


class Server:
    """One fresh server process for one run."""

    def __init__(self, kind, args, workdir, run_name, loops=1):
        self.kind = kind
        self.port = free_port()
        self.write_port = self.port
        self.log_path = os.path.join(workdir, f"{run_name}.log")
        self.log = open(self.log_path, "w")
        if kind == "bmob":
            data = os.path.join(workdir, f"{run_name}-data")
            subprocess.run([args.bmob, "apps", "create", "--data", data, "--name", "Fanout", "--app-id", APP_ID,
                            "--rest-key", REST_KEY, "--master-key", MASTER_KEY,
                            "--channels-app-id", CHANNELS_APP_ID, "--channels-key", CHANNELS_KEY,
                            "--channels-secret", CHANNELS_SECRET],
                           check=True, stdout=subprocess.DEVNULL)
            command = [args.bmob, "serve", "--data", data, "--port", str(self.port), "--loops", str(loops),
                       "--max-connections", "20000", "--max-connections-per-address", "20000",
                       "--realtime-max-handshakes-per-address", "1000", "--realtime-max-sessions-per-app", "20000",
                       "--log-level", "error"]
            if loops == 1:
                command = ["taskset", "-c", "0"] + command
        else:
            self.port, self.write_port = free_ports(2)
            command = ["taskset", "-c", "0", args.python, REFERENCE, "--port", str(self.port),
                       "--write-port", str(self.write_port), "--app-id", APP_ID, "--rest-key", REST_KEY]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        try:
            wait_for(self.port, self.process)
            if self.write_port != self.port:
                wait_for(self.write_port, self.process)
        except RuntimeError as error:
            # Say why: the log goes with the run's temporary directory.
            self.log.flush()
            with open(self.log_path) as handle:
                tail = handle.read()[-1500:]
            raise RuntimeError(f"{error}; its output: {tail.strip() or '(none)'}") from error

    def stop(self):
        """Stops the server; returns its exit code if it had already exited on its own, else None."""
        crashed = self.process.poll()
        if crashed is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return crashed


def run_once(kind, rate, args, workdir, run_name):
    """One fresh server and one `bmob-bench fanout` run against it. `bmob2` is bmob with two loops, and then
    nothing is pinned: server and client share both cores as the scheduler sees fit."""
    loops = 2 if kind == "bmob2" else 1
    server = Server("bmob" if kind == "bmob2" else kind, args, workdir, run_name, loops=loops)
    pin = ["taskset", "-c", "1"] if loops == 1 else []
    command = pin + [args.bench, "fanout", "--port", str(server.port),
               "--write-port", str(server.write_port), "--app-id", APP_ID, "--rest-key", REST_KEY,
               "--connections", str(args.connections), "--rate", f"{rate:g}", "--seconds", str(args.seconds),
               "--server-pid", str(server.process.pid)]
    return run_bench_client(command, server, kind, record_load=False)


def run_floor(threads, frame_bytes, args):
    """The kernel's floor (`bmob-bench fanout-floor-send`/`-receive`): a bare write of one event's bytes to
    each of the connections, with nothing else done. One thread pinned like the servers (sender on CPU 0,
    reader on CPU 1), or two threads with nothing pinned like bmob's two loops."""
    pin_sender, pin_reader = (["taskset", "-c", "0"], ["taskset", "-c", "1"]) if threads == 1 else ([], [])
    sender = subprocess.Popen(pin_sender + [args.bench, "fanout-floor-send", "--connections", str(args.connections),
                                            "--bytes", str(frame_bytes), "--threads", str(threads)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = sender.stdout.readline().split()
        if len(first) != 2 or first[0] != "port":
            raise RuntimeError(f"fanout-floor-send did not announce its port: {sender.stderr.read()[-1000:]}")
        receiver = subprocess.run(pin_reader + [args.bench, "fanout-floor-receive", "--port", first[1],
                                                "--connections", str(args.connections), "--bytes", str(frame_bytes)],
                                  capture_output=True, text=True, timeout=600)
        out, err = sender.communicate(timeout=600)
    finally:
        if sender.poll() is None:
            sender.kill()
            sender.wait()
    if sender.returncode != 0 or receiver.returncode != 0:
        raise RuntimeError(f"the floor run failed: {err[-1000:]} {receiver.stderr[-1000:]}")
    floor = json.loads(out.strip().splitlines()[-1])
    reads = json.loads(receiver.stdout.strip().splitlines()[-1])["round_read_ns"]
    if len(reads) != len(floor["round_start_ns"]):
        raise RuntimeError(f"the floor's reader saw {len(reads)} rounds of {len(floor['round_start_ns'])}")
    # One event's time to be read on every connection: what the fan-out client measures for bmob's probes.
    floor["read_rounds_ms"] = [(read - start) / 1e6 for start, read in zip(floor["round_start_ns"], reads)]
    floor["read_median_ms"] = statistics.median(floor["read_rounds_ms"])
    return floor


def attempt(description, failures, action):
    """Runs one measurement. One that cannot finish (say, no connection subscribed) is reported and listed in
    `failures`, not fatal; returns its result, or None."""
    try:
        return action()
    except (RuntimeError, json.JSONDecodeError, subprocess.SubprocessError) as error:
        print(f"{description}: FAILED: {error}", flush=True)
        failures.append(f"{description}: {str(error)[-500:]}")
        return None


# --- report ----------------------------------------------------------------------------------------------

def busy(run):
    """The server's CPU time over the measured window, as a share of one core: well under 100 % while
    latency grows means the server waited for a core that other work held."""
    return (run.get("server_cpu_s") or 0) / run["window_seconds"]


def summary(runs):
    keys = ("deliveries_per_s", "client_cpu_s", "latency_p50_us", "latency_p99_us", "latency_max_us", "missed", "expected",
            "bytes_per_idle_connection", "server_cpu_us_per_delivery", "setup_seconds", "probe_fanout_ms",
            "probe_frame_bytes", "connections_subscribed", "writes_succeeded", "window_seconds", "client_cpu_s", "write_lag_max_us",
            "server_rss_baseline_kib", "server_rss_idle_kib")
    row = {key: median(runs, key) for key in keys}
    row["rate"] = runs[0]["rate"]
    row["busy"] = statistics.median(busy(run) for run in runs)
    row["errors"] = sum(sum(run["errors"].values()) for run in runs)
    row["dropped"] = sum(run["connections_dropped_while_measuring"] for run in runs)
    row["crashes"] = sum(1 for run in runs if run["server_exit_during_run"] is not None)
    return row


def ms(us):
    return "—" if us is None else (f"{us / 1000:,.0f} ms" if us >= 100_000 else f"{us / 1000:.1f} ms")


def verdict(ok, text):
    return f"met ({text})" if ok else f"**missed** ({text})"


def floor_lines(floors, rows):
    """The kernel floor's table and how bmob's one event to all compares with it."""
    if not floors.get(1) or not floors.get(2):
        return "", ""
    by_name = dict(rows)
    table = ["| kernel floor | last write returned | last byte read | fastest round, read | slowest round, read | "
             "CPU per write |", "|---|---:|---:|---:|---:|---:|"]
    names = {1: "one thread on CPU 0, reader on CPU 1", 2: "two threads, nothing pinned"}
    for threads in (1, 2):
        runs = floors[threads]
        table.append(f"| {names[threads]} | {statistics.median(r['median_ms'] for r in runs):.1f} ms | "
                     f"{statistics.median(r['read_median_ms'] for r in runs):.1f} ms | "
                     f"{min(min(r['read_rounds_ms']) for r in runs):.1f} ms | "
                     f"{max(max(r['read_rounds_ms']) for r in runs):.1f} ms | "
                     f"{statistics.median(r['cpu_us_per_write'] for r in runs):.1f} µs |")
    ratios = []
    for name, threads, label in (("bmob@same", 1, "one loop pinned / one thread pinned"),
                                 ("bmob2@same", 2, "two loops / two threads, nothing pinned")):
        if name in by_name and by_name[name]["probe_fanout_ms"]:
            floor = statistics.median(r["read_median_ms"] for r in floors[threads])
            ratios.append(f"| one event to all, idle: bmob {label} | "
                          f"{by_name[name]['probe_fanout_ms'] / floor:.2f}× | lower is better, 1× is the floor |")
    return "\n".join(table), "\n".join(ratios)


def write_report(path, rows, args, reference_rate, failures, floors):
    label = {"bmob": "bmob serve", "reference": f"Python `websockets` {WEBSOCKETS_VERSION} broadcast",
             "bmob2": "bmob serve, 2 loops, nothing pinned"}
    table = ["| server | creates/s | deliveries/s | p50 | p99 | max | missed | one event to all, idle | "
             "memory per idle connection | server CPU per delivery | server busy | setup |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in rows:
        missed = f"{row['missed']:,.0f} of {row['expected']:,.0f}"
        table.append(f"| {label[name.split('@')[0]]} | {row['rate']:g} | {row['deliveries_per_s']:,.0f} | "
                     f"{ms(row['latency_p50_us'])} | {ms(row['latency_p99_us'])} | {ms(row['latency_max_us'])} | "
                     f"{missed} | {ms((row['probe_fanout_ms'] or 0) * 1000)} | "
                     f"{row['bytes_per_idle_connection'] / 1024:.1f} KiB | "
                     f"{row['server_cpu_us_per_delivery']:.1f} µs | {row['busy']:.0%} | {row['setup_seconds']:.1f} s |")
    by_name = dict(rows)
    bmob, same = by_name["bmob@same"], by_name["reference@same"]
    ratio_lines = [
        "| ratio (medians) | bmob / reference | |",
        "|---|---:|---|",
        f"| deliveries/s at {args.rate:g} creates/s | {bmob['deliveries_per_s'] / same['deliveries_per_s']:.2f}× | "
        "higher is better |",
        f"| server CPU per delivery at {args.rate:g} creates/s | "
        f"{bmob['server_cpu_us_per_delivery'] / same['server_cpu_us_per_delivery']:.2f}× | lower is better |",
        f"| memory per idle connection | {bmob['bytes_per_idle_connection'] / same['bytes_per_idle_connection']:.2f}× | "
        "lower is better |",
    ]
    if "bmob@sustained" in by_name and "reference@sustained" in by_name:
        slow_bmob, slow_reference = by_name["bmob@sustained"], by_name["reference@sustained"]
        ratio_lines += [
            f"| p50 latency at {reference_rate:g} creates/s | "
            f"{slow_bmob['latency_p50_us'] / slow_reference['latency_p50_us']:.2f}× | lower is better |",
            f"| p99 latency at {reference_rate:g} creates/s | "
            f"{slow_bmob['latency_p99_us'] / slow_reference['latency_p99_us']:.2f}× | lower is better |",
        ]
    floor_table, floor_ratios = floor_lines(floors, rows)
    if floor_ratios:
        ratio_lines += ["", "| bmob against the kernel floor | ratio | |", "|---|---:|---|", floor_ratios]
    p99_ok = (bmob["latency_p99_us"] <= TARGET_P99_MS * 1000 and bmob["deliveries_per_s"] >= TARGET_DELIVERIES
              and bmob["missed"] == 0)
    kib = bmob["bytes_per_idle_connection"] / 1024
    targets = [
        f"- p99 ≤ {TARGET_P99_MS} ms at ≥ {TARGET_DELIVERIES:,} deliveries/s: "
        + verdict(p99_ok, f"p99 {ms(bmob['latency_p99_us'])} at {bmob['deliveries_per_s']:,.0f} deliveries/s, "
                          f"{bmob['missed']:,.0f} missed"
                          + (f"; the kernel alone takes {statistics.median(r['read_median_ms'] for r in floors[1]):.0f} ms "
                             f"on one core and {statistics.median(r['read_median_ms'] for r in floors[2]):.0f} ms on two to put "
                             f"one event on {args.connections:,} loopback connections here" if floors.get(1) and floors.get(2)
                             else "")),
        f"- ≤ {TARGET_KIB_PER_CONNECTION} KiB per idle connection: "
        + verdict(kib <= TARGET_KIB_PER_CONNECTION, f"{kib:.1f} KiB"),
    ]
    problems = []
    for name, row in rows:
        if row["errors"] or row["dropped"] or row["crashes"]:
            problems.append(f"{label[name.split('@')[0]]} at {row['rate']:g}/s: {row['errors']} client-side errors, "
                            f"{row['dropped']} connections dropped while measuring, {row['crashes']} server exits "
                            f"over {args.rounds} rounds (details in Benchmarks/out/realtime_fanout.json).")
    problems += [f"a run that did not finish: {failure}" for failure in failures]
    problem_text = ("\n" + "\n".join(f"- {line}" for line in problems) + "\n") if problems else ""
    floors_bytes = statistics.median(r["bytes"] for r in floors[1]) if floors.get(1) else "—"
    section = f"""<!-- bench:realtime:start -->
## Realtime fan-out — 10,000 socket.io subscribers, against a Python `websockets` broadcast server

`make bench` ({time.strftime('%Y-%m-%d')}): {args.rounds} alternating rounds; each run starts its server afresh,
pinned to CPU 0 with one core (bmob `--loops 1 --max-connections 20000`, its per-address and per-app limits raised
to match since every subscriber comes from 127.0.0.1 to one app; the reference is one asyncio thread),
and runs `bmob-bench fanout` pinned to CPU 1. The client opens {args.connections:,} WebSockets, at most 256 being set up
at a time (the socket.io handshake `GET /socket.io/1/`, then the upgrade), subscribes each to `Fan` `updateTable` (with an
ack id, so it knows when the server has registered it), reads the server's VmRSS before connecting and
after a 2 s settle (memory per idle connection), sends five probe creates one at a time that every client must receive, then sends
`POST /1/classes/Fan` `{{"seq":n,"sentAt":…}}` at a steady rate for {args.seconds} s from a writer thread over one
keep-alive connection, while one epoll thread receives every `server_pub`, answers heartbeats and pings,
and reads `sentAt` back without a JSON parse. Latency runs from a create's *scheduled* send time to the
event's read, so a server that delays the writer's responses shows it there; missed = successful creates ×
{args.connections:,} − deliveries, counted after a drain of up to 10 s; deliveries/s = deliveries / max({args.seconds} s,
first create → last delivery). Medians of the rounds.

The reference (`Benchmarks/realtime_reference.py`) is an independent server as a small Python service
would be written: the `websockets` library's asyncio server with its `broadcast()` fan-out, the same
socket.io subset and event format, creates taken by a plain asyncio HTTP server and answered before the
broadcast. It stores nothing (no SQLite commit, no journal read-back, no permission check), so it is a floor
for a Python server's cost per delivery rather than a like-for-like backend. It cannot fan out
{args.rate:g} creates/s to {args.connections:,} clients on one core, so both servers are measured at that rate (where
a server that falls behind backs the writer up and latency grows for the whole run) and at {reference_rate:g}
creates/s, a rate the reference sustains (70 % of what it delivered at the full rate), for latency at equal load.
"One event to all, idle" is the median of five probe creates sent one at a time before measuring: from a
create to its delivery on the last of the {args.connections:,} connections with nothing else going on, the floor under the
maximum latency (it includes the create's own path and the client's reads). "Server busy" is the server's CPU
time over the measured window as a share of one core; far below 100 % while latency grows means the server
waited for a core that other work on the machine held. bmob also runs alone at {args.rate * HIGH_RATE_FACTOR:g} creates/s,
faster than one event's fan-out takes: an event then joins the fan-out under way, and a connection gets every
event of the class it lacks in one write. The last row is bmob as deployed by default, one loop
per core (`--loops 2`), with neither it nor the client pinned, sharing both cores; it is not what the
targets are judged on, since there the client takes CPU from the server.
VmRSS counts user-space memory only; kernel socket buffers are outside it, for both servers.

{chr(10).join(table)}

The kernel floor (`bmob-bench fanout-floor-send` and `fanout-floor-receive`, run in every round) is no server at all:
one process writes a message the size of bmob's probe event ({floors_bytes} bytes) to each of {args.connections:,} loopback
TCP connections in a tight loop, 20 times with a pause between, while another process reads them all. A round
takes what the kernel charges here to hand one event to every subscriber (on loopback the sending thread also
runs the receiving side's TCP work), whatever a server's own code costs. "Last byte read" runs from a round's
first write to the reader's read of its last byte, as the fan-out client times an event; compare "one event to
all, idle". Medians of the runs' medians.

{floor_table}

{chr(10).join(ratio_lines)}

Targets (bmob):

{chr(10).join(targets)}
{problem_text}
The client shares the machine: at {args.rate:g} creates/s it used {bmob['client_cpu_s'] / bmob['window_seconds']:.0%} of CPU 1 over bmob's
measured window, mostly in the kernel's receive path, and on loopback the server's CPU per delivery
includes the kernel's TCP work for both ends of each send. `BENCH_ONLY=realtime Benchmarks/run.sh` reruns
this benchmark alone (about 10 minutes); every round's numbers land in `Benchmarks/out/realtime_fanout.json`.
<!-- bench:realtime:end -->
"""
    replace_section(path, "realtime", section, after="data")


# --- main ------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--bench", required=True, help="the bmob-bench executable")
    parser.add_argument("--python", help="a Python with websockets (default: .build-bench/venv, made on first use)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=12, help="creates per second")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--reference-rate", type=float,
                        help="the reference's sustainable rate (default: 70 %% of what it delivers at --rate)")
    add_output_arguments(parser)
    args = parser.parse_args()
    args.python = reference_python(args.python)
    workdir = tempfile.mkdtemp(prefix="bmob-fanout-bench-")
    runs = {"bmob@same": [], "reference@same": [], "bmob@sustained": [], "reference@sustained": [],
            "bmob@high": [], "bmob2@same": []}
    reference_rate = args.reference_rate
    failures = []
    floors = {1: [], 2: []}
    try:
        for round_number in range(args.rounds):
            first, second = ["bmob@same", "reference@same"], ["reference@sustained", "bmob@sustained"]
            order = first + second if round_number % 2 == 0 else first[::-1] + second[::-1]
            order += ["bmob@high", "bmob2@same"]
            for name in order:
                kind, rate_name = name.split("@")
                if rate_name == "sustained":
                    if reference_rate is None:
                        if not runs["reference@same"]:
                            continue  # the reference failed at the full rate, so there is nothing to go by
                        delivered = runs["reference@same"][0]["deliveries_per_s"] / args.connections
                        reference_rate = max(1, int(delivered * 0.7))
                    rate = reference_rate
                elif rate_name == "high":
                    rate = args.rate * HIGH_RATE_FACTOR
                else:
                    rate = args.rate
                result = attempt(f"round {round_number + 1} {name:20} {rate:4g}/s", failures,
                                 lambda: run_once(kind, rate, args, workdir, f"r{round_number + 1}-{kind}-{rate_name}"))
                if result is None:
                    continue
                runs[name].append(result)
                print(f"round {round_number + 1} {name:20} {rate:4g}/s: {result['deliveries_per_s']:9,.0f} deliveries/s, "
                      f"p50 {ms(result['latency_p50_us'])}, p99 {ms(result['latency_p99_us'])}, "
                      f"max {ms(result['latency_max_us'])}, missed {result['missed']:,}, "
                      f"{result.get('bytes_per_idle_connection') or 0:,.0f} B/idle connection, "
                      f"{result.get('server_cpu_us_per_delivery') or 0:.1f} µs server CPU/delivery, "
                      f"server busy {busy(result):.0%}, errors {sum(result['errors'].values())}", flush=True)
            frame_bytes = next((run["probe_frame_bytes"] for run in reversed(runs["bmob@same"])
                                if run.get("probe_frame_bytes")), 300)
            for threads in (1, 2):
                floor = attempt(f"round {round_number + 1} kernel floor, {threads} thread(s)", failures,
                                lambda: run_floor(threads, frame_bytes, args))
                if floor is None:
                    continue
                floors[threads].append(floor)
                print(f"round {round_number + 1} kernel floor, {threads} thread(s): one write of {floor['bytes']} bytes "
                      f"to each connection: last write returned {floor['median_ms']:.1f} ms, last byte read "
                      f"{floor['read_median_ms']:.1f} ms (medians), {floor['cpu_us_per_write']:.1f} µs CPU per write",
                      flush=True)
        rows = [(name, summary(results)) for name, results in runs.items() if results]
        if args.json:
            write_json(args.json, {"connections": args.connections, "rate": args.rate, "seconds": args.seconds,
                                   "reference_rate": reference_rate, "runs": runs, "failures": failures,
                                   "kernel_floor": {"one_thread_pinned": floors[1], "two_threads": floors[2]},
                                   "medians": dict(rows)})
        if args.report:
            if "bmob@same" in dict(rows) and "reference@same" in dict(rows):
                write_report(args.report, rows, args, reference_rate, failures, floors)
            else:
                print("not enough runs finished to write the report", file=sys.stderr)
        if failures:
            return 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
