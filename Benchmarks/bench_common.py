"""Helpers shared by the benchmark scripts: CPU time from /proc, free ports, waiting for a listener, and
rewriting one marked section of BENCHMARKS.md."""
import os
import re
import socket
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
