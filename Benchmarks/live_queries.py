#!/usr/bin/env python3
"""Live queries (issue 21): update latency of the sync door's live queries — 1,000 sync WebSockets subscribed to
100 distinct queries (`items:list` with `where: {"group": g}`, 10 subscribers each), REST creates into random
groups at a steady rate, the time from each create to every subscriber of its group holding it in a new result —
beside the socket.io door's change-event latency for the same creates (1,000 socket.io subscribers to `items`
`updateTable`); and sync mutations per second (`items:add`) beside REST creates per second of the same object
with the same number in flight.

Every round runs, on a fresh server each (bmob `--loops 1` pinned to CPU 0, the client pinned to CPU 1, as the
realtime and channel benchmarks run them):

- `bmob-bench live-queries`: the live-query latency, then, with the subscribers closed, the throughput loads one
  after another on the same server: REST creates on `--in-flight` keep-alive connections, `items:add` mutations
  pipelined `--in-flight` deep on one sync socket, and one mutation at a time on each of `--in-flight` sockets
  (see Benchmarks/Sources/bmob-bench/LiveQueryBenchmark.swift and ThroughputLoad.swift);
- `bmob-bench fanout --groups 100`: the realtime benchmark's socket.io client with 1,000 subscribers, its creates
  byte for byte the live-query benchmark's (`{"group":g,"seq":n,"sentAt":ns}`, the group a fixed function of n),
  at the same rate.

Rounds alternate which goes first; medians are reported, with the machine's load average while each run went on.
"""
import shutil
import statistics
import sys
import tempfile
import time

from bench_common import (add_output_arguments, driver_arguments, median, read_json, replace_section,
                          run_bench_client, write_json)
from realtime_fanout import APP_ID, REST_KEY, Server, attempt, ms

TABLE = "items"


def run_kind(kind, args, workdir, run_name):
    """One fresh bmob server (one loop, CPU 0) and one client run (CPU 1) against it: `livequeries` or
    `socketio`."""
    server = Server("bmob", args, workdir, run_name, loops=1)
    common = ["--port", str(server.port), "--app-id", APP_ID, "--rest-key", REST_KEY, "--table", TABLE,
              "--rate", f"{args.rate:g}", "--seconds", str(args.seconds), "--server-pid", str(server.process.pid)]
    if kind == "livequeries":
        command = ["taskset", "-c", "1", args.bench, "live-queries", "--subscribers", str(args.subscribers),
                   "--queries", str(args.queries), "--throughput-seconds", str(args.throughput_seconds),
                   "--in-flight", str(args.in_flight)] + common
    else:
        command = ["taskset", "-c", "1", args.bench, "fanout", "--connections", str(args.subscribers),
                   "--groups", str(args.queries)] + common
    result = run_bench_client(command, server, kind)
    subscribed = result.get("subscribers_subscribed", result.get("connections_subscribed"))
    if not subscribed:
        raise RuntimeError(f"{kind}: no subscriber subscribed; errors {result['errors']}")
    if kind == "socketio":
        result["server_cpu_us_per_write"] = ((result["server_cpu_s"] or 0) * 1e6 / result["writes_succeeded"]
                                             if result.get("writes_succeeded") else None)
    return result


def summary(runs):
    keys = ("latency_p50_us", "latency_p90_us", "latency_p99_us", "latency_max_us", "missed", "expected",
            "received", "writes_succeeded", "server_cpu_us_per_write", "server_cpu_s", "window_seconds",
            "write_response_p50_us", "write_response_p99_us", "setup_seconds", "first_result_p50_us",
            "first_result_max_us", "probe_fanout_ms")
    row = {key: median(runs, key) for key in keys}
    row["subscribers"] = median(runs, "subscribers_subscribed") or median(runs, "connections_subscribed")
    row["busy"] = statistics.median((run.get("server_cpu_s") or 0) / run["window_seconds"] for run in runs)
    row["errors"] = sum(sum(run["errors"].values()) for run in runs)
    row["dropped"] = sum(run.get("subscribers_dropped_while_measuring", run.get("connections_dropped_while_measuring", 0))
                         for run in runs)
    row["crashes"] = sum(1 for run in runs if run["server_exit_during_run"] is not None)
    return row


def throughput_rows(runs):
    """Medians of each throughput load over the live-query runs, by load name."""
    by_name = {}
    for run in runs:
        for load in run.get("throughput", []):
            by_name.setdefault(load["name"], []).append(load)
    rows = {}
    for name, loads in by_name.items():
        rows[name] = {key: median(loads, key) for key in ("per_s", "response_p50_us", "response_p99_us",
                                                          "server_cpu_us_per_request", "completed", "failed")}
        rows[name]["kind"] = loads[0]["kind"]
        rows[name]["sockets"] = loads[0]["sockets"]
        rows[name]["in_flight_per_socket"] = loads[0]["in_flight_per_socket"]
        rows[name]["first_failure"] = next((load["first_failure"] for load in loads if load.get("first_failure")), None)
    return rows


def ratio(a, b):
    return f"{a / b:.2f}×" if a is not None and b else "—"


def write_report(path, runs, args, failures):
    live, socketio = summary(runs["livequeries"]), summary(runs["socketio"])
    loads = [load for results in runs.values() for run in results for load in run["load_1min"]]
    per_write = args.subscribers // args.queries
    table = ["| door | subscribers | deliveries per write | creates/s | p50 | p90 | p99 | max | missed | "
             "create response p50 | server CPU per create | server busy | setup |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row, reaching in (
            (f"sync: live query `items:list` where group = g ({args.queries} distinct)", live, per_write),
            ("socket.io 0.9: `items` `updateTable` event", socketio, args.subscribers)):
        table.append(
            f"| {name} | {row['subscribers']:,.0f} | {reaching:,} | {args.rate:g} | {ms(row['latency_p50_us'])} | "
            f"{ms(row['latency_p90_us'])} | {ms(row['latency_p99_us'])} | {ms(row['latency_max_us'])} | "
            f"{row['missed']:,.0f} of {row['expected']:,.0f} | {ms(row['write_response_p50_us'])} | "
            f"{(row['server_cpu_us_per_write'] or 0):,.0f} µs | {row['busy']:.0%} | {row['setup_seconds']:.1f} s |")
    loads_table = ["| load | in flight | requests/s | response p50 | response p99 | server CPU per request | failed |",
                   "|---|---:|---:|---:|---:|---:|---:|"]
    throughput = throughput_rows(runs["livequeries"])
    label = {"rest_creates": "REST `POST /1/classes/items`, keep-alive connections",
             "mutations": "sync `items:add` mutations"}
    for name, row in throughput.items():
        shape = (f"{row['sockets']} connections × 1" if row["kind"] == "rest_creates"
                 else f"{row['sockets']} socket{'s' if row['sockets'] != 1 else ''} × {row['in_flight_per_socket']}")
        loads_table.append(
            f"| {label[row['kind']]} | {shape} | {row['per_s']:,.0f} | {ms(row['response_p50_us'])} | "
            f"{ms(row['response_p99_us'])} | {(row['server_cpu_us_per_request'] or 0):.0f} µs | {row['failed']:,.0f} |")
    rest = next((row for row in throughput.values() if row["kind"] == "rest_creates"), None)
    pipelined = next((row for row in throughput.values() if row["kind"] == "mutations" and row["sockets"] == 1), None)
    spread = next((row for row in throughput.values() if row["kind"] == "mutations" and row["sockets"] > 1), None)
    ratios = [
        "| ratio (medians) | | |", "|---|---:|---|",
        f"| live-query update p50 / socket.io change event p50 | "
        f"{ratio(live['latency_p50_us'], socketio['latency_p50_us'])} | lower is better |",
        f"| live-query update p99 / socket.io change event p99 | "
        f"{ratio(live['latency_p99_us'], socketio['latency_p99_us'])} | lower is better |",
        f"| server CPU per create: live queries / socket.io | "
        f"{ratio(live['server_cpu_us_per_write'], socketio['server_cpu_us_per_write'])} | lower is better |",
    ]
    if rest and pipelined:
        ratios.append(f"| mutations/s, one socket × {args.in_flight} pipelined / REST creates/s, {args.in_flight} "
                      f"connections | {ratio(pipelined['per_s'], rest['per_s'])} | higher is better |")
    if rest and spread:
        ratios.append(f"| mutations/s, {args.in_flight} sockets × 1 / REST creates/s, {args.in_flight} connections | "
                      f"{ratio(spread['per_s'], rest['per_s'])} | higher is better |")
    problems = []
    for kind, row in (("live queries", live), ("socket.io", socketio)):
        if row["errors"] or row["dropped"] or row["crashes"]:
            problems.append(f"{kind}: {row['errors']} client-side errors, {row['dropped']} subscribers dropped while "
                            f"measuring, {row['crashes']} server exits (details in Benchmarks/out/live_queries.json).")
    for name, row in throughput.items():
        if row["failed"] or row["first_failure"]:
            problems.append(f"{name}: {row['failed']:,.0f} failed requests (median), first: {row['first_failure']}")
    problems += [f"a run that did not finish: {failure}" for failure in failures]
    problem_text = ("\n" + "\n".join(f"- {line}" for line in problems) + "\n") if problems else ""
    rounds = len(runs["livequeries"])
    section = f"""<!-- bench:livequeries:start -->
## Live queries — 1,000 subscribers to 100 queries, beside socket.io; mutations against REST creates

`make bench` ({time.strftime('%Y-%m-%d')}), `Benchmarks/live_queries.py`: {rounds} round{'s' if rounds != 1 else ''}, each measuring both
doors one after the other (in alternating order) on a fresh `bmob serve` each, pinned to CPU 0 with one loop
(`--loops 1`, per-address limits raised as in the realtime benchmark), with its `bmob-bench` client pinned to CPU 1.

- **Live queries** (`bmob-bench live-queries`): {args.subscribers:,} sync WebSockets to `/apps/{{id}}/api/1/sync`, at most 256
  being set up at a time; each sends `Connect` and a `ModifyQuerySet` adding `items:list` with
  `{{"where":{{"group":g}},"order":"-createdAt","limit":10}}`, subscriber i taking group i mod {args.queries}, so {args.queries}
  distinct queries with {per_write} subscribers each; a subscriber counts once its first `QueryUpdated` arrives. Then
  REST creates `POST /1/classes/items` `{{"group":g,"seq":n,"sentAt":…}}` go out at {args.rate:g} a second for
  {args.seconds} s from a writer thread over one keep-alive connection, g a fixed pseudo-random function of n. The
  latency of a (create, subscriber of its group) pair runs from the create's *scheduled* send time to the read of
  the first `Transition` whose result holds `"seq":n`; missed = pairs that never arrived, counted after a drain of
  up to 10 s. Each create changes one query's result, for its {per_write} subscribers.
- **socket.io 0.9** (`bmob-bench fanout --groups {args.queries}`): the realtime benchmark's client, {args.subscribers:,}
  subscribers of `items` `updateTable`, the same creates (byte for byte) at the same rate; each create is an
  event for every one of the {args.subscribers:,} subscribers, a hundred times the live queries' deliveries.
- **Throughput** (in the live-query run, after its subscribers closed, so no live query re-runs): for
  {args.throughput_seconds:g} s each, REST creates of `{{"group":g,"seq":n,"sentAt":0}}` on {args.in_flight} keep-alive connections
  with one request each (HTTP/1.1 clients do not pipeline), then `items:add` mutations of the same object pipelined
  {args.in_flight} deep on one sync socket, then one mutation at a time on each of {args.in_flight} sockets. Requests/s counts
  successful answers within the time; the door runs one socket's mutations one at a time, in arrival order.

"Server CPU per create" is the server's CPU time over the measured window divided by the creates; "server busy"
is that time as a share of one core. A create re-runs one of the {args.queries} distinct queries (the one whose
`group` it has: lists narrowed by plain equalities re-run only for objects that meet them) and tells every subscribed
socket the journal position it reached, changed result or not ({(live['server_cpu_us_per_write'] or 0) / args.subscribers:.1f} µs of
server CPU per subscribed socket and create). Per create, socket.io hands it to all {args.subscribers:,} subscribers
({(socketio['server_cpu_us_per_write'] or 0) / args.subscribers:.1f} µs of server CPU per delivery), the live queries to {per_write}.

Machine load while measuring: two cores, the 1-minute load average {min(loads):.1f}–{max(loads):.1f} over these runs (about
1 is the benchmark's own pinned server and client; well above it means other work — other engineers' builds — shared
the machine, and the absolute numbers should be re-measured). The ratios, of medians over runs made in the same
minutes, are the steadier part.

{chr(10).join(table)}

{chr(10).join(loads_table)}

{chr(10).join(ratios)}
{problem_text}
`BENCH_ONLY=livequeries Benchmarks/run.sh` reruns this benchmark alone; every run's numbers land in
`Benchmarks/out/live_queries.json`.
<!-- bench:livequeries:end -->
"""
    replace_section(path, "livequeries", section, after="channels")


def main():
    parser = driver_arguments()
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100, help="distinct live queries")
    parser.add_argument("--rate", type=float, default=20, help="creates per second in the latency run")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--throughput-seconds", type=float, default=5)
    parser.add_argument("--in-flight", type=int, default=32)
    add_output_arguments(parser, from_json=True)
    args = parser.parse_args()
    if args.from_json:
        saved = read_json(args.from_json)
        for key in ("subscribers", "queries", "rate", "seconds", "throughput_seconds", "in_flight"):
            setattr(args, key, saved[key])
        write_report(args.report, saved["runs"], args, saved["failures"])
        return 0
    workdir = tempfile.mkdtemp(prefix="bmob-livequeries-bench-")
    runs = {"livequeries": [], "socketio": []}
    failures = []
    try:
        for round_number in range(args.rounds):
            order = ["livequeries", "socketio"] if round_number % 2 == 0 else ["socketio", "livequeries"]
            for kind in order:
                result = attempt(f"round {round_number + 1} {kind}", failures,
                                 lambda: run_kind(kind, args, workdir, f"r{round_number + 1}-{kind}"))
                if result is None:
                    continue
                runs[kind].append(result)
                line = (f"round {round_number + 1} {kind:11}: p50 {ms(result['latency_p50_us'])}, "
                        f"p99 {ms(result['latency_p99_us'])}, max {ms(result['latency_max_us'])}, "
                        f"missed {result['missed']:,} of {result['expected']:,}, "
                        f"{result.get('server_cpu_us_per_write') or 0:,.0f} µs server CPU/create, "
                        f"errors {sum(result['errors'].values())}, "
                        f"load {result['load_1min'][0]:.1f}→{result['load_1min'][1]:.1f}")
                for load in result.get("throughput", []):
                    line += f"\n    {load['name']}: {load['per_s']:,.0f}/s, p50 {ms(load['response_p50_us'])}, failed {load['failed']}"
                print(line, flush=True)
        if args.json:
            write_json(args.json, {"subscribers": args.subscribers, "queries": args.queries, "rate": args.rate,
                                   "seconds": args.seconds, "throughput_seconds": args.throughput_seconds,
                                   "in_flight": args.in_flight, "runs": runs, "failures": failures,
                                   "medians": {kind: summary(results) for kind, results in runs.items() if results},
                                   "throughput_medians": throughput_rows(runs["livequeries"])})
        if args.report:
            if runs["livequeries"] and runs["socketio"]:
                write_report(args.report, runs, args, failures)
            else:
                print("not enough runs finished to write the report", file=sys.stderr)
        if failures:
            return 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
