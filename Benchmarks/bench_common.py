"""Helpers shared by the benchmark scripts: CPU time from /proc, free ports, waiting for a listener, the drivers'
common arguments, running one `bmob-bench` client against a fresh server, medians, reading and saving runs as JSON,
and rewriting one marked section of BENCHMARKS.md."""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import time

TICKS = os.sysconf("SC_CLK_TCK")

HEADER = ("# Benchmarks\n\nProduced by `make bench`; every figure is measured side by side with its reference "
          "in the same run.\n\n")


def cpu_seconds(pids):
    """User plus system CPU seconds of every thread of the given processes."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def free_port():
    return free_ports(1)[0]


def free_ports(count):
    """`count` distinct free loopback ports: the probes stay bound until all are chosen, so two calls in a row
    cannot hand out the same port (which once made the realtime reference fail to bind its second one)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def wait_for(port, process=None, timeout=60):
    """Returns once something accepts connections on `port`; fails early if `process` exits."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def driver_arguments():
    """An argument parser with what every driver that starts bmob and runs bmob-bench against it takes first:
    `--bmob`, `--bench` and `--rounds`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--bench", required=True, help="the bmob-bench executable")
    parser.add_argument("--rounds", type=int, default=3)
    return parser


def add_output_arguments(parser, from_json=False):
    """Adds `--report` (the BENCHMARKS.md to rewrite a section of) and `--json` (every run's numbers), and with
    `from_json` `--from-json` (a run saved with `--json` to write the report from)."""
    parser.add_argument("--report")
    parser.add_argument("--json", help="also write every run's numbers here")
    if from_json:
        parser.add_argument("--from-json", help="write the report from a run saved with --json instead of measuring")


def run_bench_client(command, server, kind, record_load=True):
    """Runs one `bmob-bench` client `command` against `server` (which it stops afterwards) and returns its JSON
    result with `server` (= `kind`), `server_exit_during_run`, `load_1min` (the 1-minute load average before
    and after, when `record_load`) and `server_log_tail` added; raises RuntimeError when the client fails."""
    load_before = os.getloadavg()[0]
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=900)
    finally:
        crashed = server.stop()
    load_after = os.getloadavg()[0]
    if finished.returncode != 0 or not finished.stdout.strip():
        raise RuntimeError(f"{' '.join(command)} exited with {finished.returncode}:\n{finished.stderr[-3000:]}")
    result = json.loads(finished.stdout)
    result["server"] = kind
    result["server_exit_during_run"] = crashed
    if record_load:
        result["load_1min"] = [load_before, load_after]
    with open(server.log_path) as handle:
        log = handle.read()
    result["server_log_tail"] = log[-2000:] if log.strip() else ""
    return result


def median(runs, key):
    """The median of `key` over the runs that have it, or None."""
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def read_json(path):
    """The JSON value saved in `path`."""
    with open(path) as handle:
        return json.load(handle)


def write_json(path, data):
    """Writes `data` to `path` as indented JSON, making its folder first."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as handle:
        json.dump(data, handle, indent=1)


def replace_section(path, name, section, after=None):
    """Replaces `<!-- bench:NAME:start --> … <!-- bench:NAME:end -->` in `path` with `section`; a missing
    section goes after the section named `after` when there is one, else at the end."""
    text = ""
    if os.path.exists(path):
        with open(path) as handle:
            text = handle.read()
    if not text:
        text = HEADER
    pattern = re.compile(rf"<!-- bench:{name}:start -->.*?<!-- bench:{name}:end -->\n", re.S)
    anchor = f"<!-- bench:{after}:end -->\n" if after else None
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    elif anchor and anchor in text:
        text = text.replace(anchor, anchor + "\n" + section, 1)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as handle:
        handle.write(text)
