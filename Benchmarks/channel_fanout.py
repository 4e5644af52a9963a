#!/usr/bin/env python3
"""Channel fan-out: one publish on the channels HTTP API (Pusher protocol, `POST /apps/{id}/events`) delivered to
10,000 WebSocket subscribers of one public channel on `bmob serve`, beside the socket.io 0.9 fan-out of one event
to as many subscribers and the kernel's floor, all three in the same run so that their ratios mean something.

Every round runs, on a fresh server each (bmob `--loops 1` pinned to CPU 0, the client pinned to CPU 1, as the
realtime benchmark runs them):

- `bmob-bench channel-fanout`: 10,000 connections to `/app/{key}?protocol=7`, each `pusher:subscribe`d to the
  channel `bench` (awaiting `pusher_internal:subscription_succeeded`), the server's memory per idle connection,
  five probe publishes one at a time that every subscriber must receive (publish → last subscriber's receipt),
  then signed publishes at `--rate` a second for `--seconds` (the sustained run);
- `bmob-bench fanout`: the same over socket.io 0.9 (`client_sub` to a class's `updateTable`, REST creates as the
  events; see realtime_fanout.py), at the same rate;
- the kernel floor (`bmob-bench fanout-floor-send`/`-receive`, one pinned thread): bare writes of one channel
  event's bytes to as many loopback connections.

Rounds alternate which fan-out goes first; medians are reported, with the machine's load average while each run
went on.
"""
import shutil
import statistics
import sys
import tempfile
import time

from bench_common import (add_output_arguments, driver_arguments, read_json, replace_section, run_bench_client,
                          write_json)
from realtime_fanout import (APP_ID, CHANNELS_APP_ID, CHANNELS_KEY, CHANNELS_SECRET, REST_KEY, Server, attempt, busy,
                             ms, run_floor, summary)


def run_fanout(kind, args, workdir, run_name):
    """One fresh bmob server (one loop, CPU 0) and one fan-out client run (CPU 1) against it: `channels` or
    `socketio`."""
    server = Server("bmob", args, workdir, run_name, loops=1)
    if kind == "channels":
        protocol = ["channel-fanout", "--channels-app-id", CHANNELS_APP_ID, "--key", CHANNELS_KEY,
                    "--secret", CHANNELS_SECRET]
    else:
        protocol = ["fanout", "--app-id", APP_ID, "--rest-key", REST_KEY]
    command = ["taskset", "-c", "1", args.bench] + protocol + [
        "--port", str(server.port), "--connections", str(args.connections), "--rate", f"{args.rate:g}",
        "--seconds", str(args.seconds), "--server-pid", str(server.process.pid)]
    result = run_bench_client(command, server, kind)
    if not result.get("probe_fanout_ms") or result["probe_received"] < result["connections_subscribed"]:
        raise RuntimeError(f"{kind}: a probe reached {result['probe_received']} of "
                           f"{result['connections_subscribed']} subscribers; errors {result['errors']}")
    return result


def probes(runs):
    """Every probe of every run, in milliseconds."""
    return [probe for run in runs for probe in run["probe_fanout_rounds_ms"]]


def write_report(path, runs, floors, args, failures):
    rows = {kind: summary(results) for kind, results in runs.items() if results}
    channels, socketio = rows["channels"], rows["socketio"]
    floor_ms = statistics.median(floor["read_median_ms"] for floor in floors)
    floor_bytes = statistics.median(floor["bytes"] for floor in floors)
    loads = [load for results in runs.values() for run in results for load in run["load_1min"]]
    label = {"channels": "channels: one publish (`POST /apps/{id}/events`)",
             "socketio": "socket.io 0.9: one create (`POST /1/classes/Fan`)"}
    table = [f"| fan-out to {args.connections:,} | one event to all, idle (median) | fastest probe | slowest probe | frame | "
             "deliveries/s | p50 | p99 | max | missed | server CPU per delivery | server busy | "
             "memory per idle connection | setup |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for kind in ("channels", "socketio"):
        row, every = rows[kind], probes(runs[kind])
        table.append(
            f"| {label[kind]} | {row['probe_fanout_ms']:.1f} ms | {min(every):.1f} ms | {max(every):.1f} ms | "
            f"{row['probe_frame_bytes']:.0f} B | {row['deliveries_per_s']:,.0f} | {ms(row['latency_p50_us'])} | "
            f"{ms(row['latency_p99_us'])} | {ms(row['latency_max_us'])} | "
            f"{row['missed']:,.0f} of {row['expected']:,.0f} | {row['server_cpu_us_per_delivery']:.2f} µs | "
            f"{row['busy']:.0%} | {row['bytes_per_idle_connection'] / 1024:.1f} KiB | {row['setup_seconds']:.1f} s |")
    every_floor = [read for floor in floors for read in floor["read_rounds_ms"]]
    table.append(f"| kernel floor: one write of {floor_bytes:.0f} B to each connection, one thread | {floor_ms:.1f} ms | "
                 f"{min(every_floor):.1f} ms | {max(every_floor):.1f} ms | {floor_bytes:.0f} B | | | | | | "
                 f"{statistics.median(floor['cpu_us_per_write'] for floor in floors):.2f} µs (per write) | | | |")
    ratios = [
        "| ratio (medians) | | |", "|---|---:|---|",
        f"| one event to all, idle: channels / socket.io | {channels['probe_fanout_ms'] / socketio['probe_fanout_ms']:.2f}× "
        "| lower is better |",
        f"| one event to all, idle: channels / kernel floor | {channels['probe_fanout_ms'] / floor_ms:.2f}× "
        "| lower is better, 1× is the floor |",
        f"| one event to all, idle: socket.io / kernel floor | {socketio['probe_fanout_ms'] / floor_ms:.2f}× "
        "| lower is better, 1× is the floor |",
        f"| deliveries/s at {args.rate:g} events/s: channels / socket.io | "
        f"{channels['deliveries_per_s'] / socketio['deliveries_per_s']:.2f}× | higher is better |",
        f"| p50 latency at {args.rate:g} events/s: channels / socket.io | "
        f"{channels['latency_p50_us'] / socketio['latency_p50_us']:.2f}× | lower is better |",
        f"| p99 latency at {args.rate:g} events/s: channels / socket.io | "
        f"{channels['latency_p99_us'] / socketio['latency_p99_us']:.2f}× | lower is better |",
        f"| server CPU per delivery: channels / socket.io | "
        f"{channels['server_cpu_us_per_delivery'] / socketio['server_cpu_us_per_delivery']:.2f}× | lower is better |",
        f"| memory per idle connection: channels / socket.io | "
        f"{channels['bytes_per_idle_connection'] / socketio['bytes_per_idle_connection']:.2f}× | lower is better |",
    ]
    below_floor = ""
    if min(channels["probe_fanout_ms"], socketio["probe_fanout_ms"]) < floor_ms:
        below_floor = ("\nA ratio to the floor below 1× does not mean a server beat the kernel: the floor's rounds and the "
                       "servers' probes ran at different moments of a shared machine, and the spread between the fastest "
                       "and slowest probe shows how much that moves them.\n")
    problems = []
    for kind, row in rows.items():
        if row["errors"] or row["dropped"] or row["crashes"]:
            problems.append(f"{kind}: {row['errors']} client-side errors, {row['dropped']} connections dropped while "
                            f"measuring, {row['crashes']} server exits over {len(runs[kind])} runs (details in "
                            "Benchmarks/out/channel_fanout.json).")
    problems += [f"a run that did not finish: {failure}" for failure in failures]
    problem_text = ("\n" + "\n".join(f"- {line}" for line in problems) + "\n") if problems else ""
    section = f"""<!-- bench:channels:start -->
## Channel fan-out — one publish to 10,000 channel subscribers, beside socket.io and the kernel floor

`make bench` ({time.strftime('%Y-%m-%d')}), `Benchmarks/channel_fanout.py`: {args.rounds} round{'s' if args.rounds != 1 else ''}, each measuring all three
below one after the other (the two fan-outs in alternating order), so the ratios compare runs on the same machine in the
same minutes. Each fan-out starts a fresh `bmob serve` pinned to CPU 0 with one loop (`--loops 1 --max-connections
20000`, per-address limits raised, as in the realtime benchmark) and runs its `bmob-bench` client pinned to CPU 1.

- **Channels** (`bmob-bench channel-fanout`): {args.connections:,} WebSockets to `/app/{{key}}?protocol=7`, at most 256
  being set up at a time; each waits for `pusher:connection_established`, sends
  `{{"event":"pusher:subscribe","data":{{"channel":"bench"}}}}` and counts once `pusher_internal:subscription_succeeded`
  arrives. A publish is the signed HTTP API call `POST /apps/4242/events` (auth_key, auth_timestamp, auth_version,
  body_md5, auth_signature as Pusher's server libraries sign it) with `{{"name":"fanout","channels":["bench"],
  "data":"{{\\"seq\\":n,\\"sentAt\\":ns}}"}}` over one keep-alive connection; the server forwards the data string to
  every subscriber.
- **socket.io 0.9** (`bmob-bench fanout`): the realtime benchmark's client (handshake, upgrade, `client_sub` to `Fan`
  `updateTable` with an ack), each event a REST create `POST /1/classes/Fan` — which also commits a row to SQLite and
  reads it back from the journal before the fan-out, work the channel publish does not do.
- **Kernel floor** (`bmob-bench fanout-floor-send`/`-receive`, one thread pinned to CPU 0, the reader on CPU 1): no
  server at all, one write of a channel event's bytes ({floor_bytes:.0f} B; the socket.io event is larger, which costs the
  kernel little more on loopback) to each of {args.connections:,} loopback TCP connections, 20 rounds.

"One event to all, idle" is, per run, the median of five probe events sent one at a time after the subscribers
settled: from the publishing request's send to the read of the event on the last of the {args.connections:,}
subscribers (for the floor: from a round's first write to the reader's read of its last byte); the table shows
the median over the runs and the fastest and slowest single probe. The sustained run then publishes
{args.rate:g} events a second for {args.seconds} s from a writer thread (latency from each publish's *scheduled*
send time to each delivery; missed = successful publishes × subscribers − deliveries after a drain of up to
10 s). "Server busy" is the server's CPU time over the measured window as a share of one core.

Machine load while measuring: two cores, the 1-minute load average {min(loads):.1f}–{max(loads):.1f} over these runs (about
1 is the benchmark's own pinned server and client; well above it means other work shared the machine, and the
absolute numbers should be re-measured). The ratios, taken within each round, are the steadier part.

{chr(10).join(table)}

{chr(10).join(ratios)}
{below_floor}{problem_text}
`BENCH_ONLY=channels Benchmarks/run.sh` reruns this benchmark alone; every run's numbers land in
`Benchmarks/out/channel_fanout.json`.
<!-- bench:channels:end -->
"""
    replace_section(path, "channels", section, after="realtime")


def main():
    parser = driver_arguments()
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=12, help="events per second in the sustained run")
    parser.add_argument("--seconds", type=int, default=10)
    add_output_arguments(parser, from_json=True)
    args = parser.parse_args()
    if args.from_json:
        saved = read_json(args.from_json)
        args.connections, args.rate, args.seconds = saved["connections"], saved["rate"], saved["seconds"]
        args.rounds = len(saved["kernel_floor"])
        write_report(args.report, saved["runs"], saved["kernel_floor"], args, saved["failures"])
        return 0
    workdir = tempfile.mkdtemp(prefix="bmob-channel-bench-")
    runs = {"channels": [], "socketio": []}
    floors = []
    failures = []
    try:
        for round_number in range(args.rounds):
            order = ["channels", "socketio"] if round_number % 2 == 0 else ["socketio", "channels"]
            for kind in order:
                result = attempt(f"round {round_number + 1} {kind}", failures,
                                 lambda: run_fanout(kind, args, workdir, f"r{round_number + 1}-{kind}"))
                if result is None:
                    continue
                runs[kind].append(result)
                print(f"round {round_number + 1} {kind:9}: one event to all {result['probe_fanout_ms']:.1f} ms "
                      f"(probes {', '.join(f'{p:.0f}' for p in result['probe_fanout_rounds_ms'])} ms), "
                      f"{result['deliveries_per_s']:,.0f} deliveries/s, p50 {ms(result['latency_p50_us'])}, "
                      f"p99 {ms(result['latency_p99_us'])}, missed {result['missed']:,}, "
                      f"{result.get('server_cpu_us_per_delivery') or 0:.2f} µs server CPU/delivery, "
                      f"busy {busy(result):.0%}, errors {sum(result['errors'].values())}, "
                      f"load {result['load_1min'][0]:.1f}→{result['load_1min'][1]:.1f}", flush=True)
            frame_bytes = next((run["probe_frame_bytes"] for run in reversed(runs["channels"])
                                if run.get("probe_frame_bytes")), 100)
            floor = attempt(f"round {round_number + 1} kernel floor", failures,
                            lambda: run_floor(1, frame_bytes, args))
            if floor is not None:
                floors.append(floor)
                print(f"round {round_number + 1} kernel floor: {floor['bytes']} bytes to each connection, last byte "
                      f"read {floor['read_median_ms']:.1f} ms (median of {len(floor['read_rounds_ms'])} rounds)",
                      flush=True)
        if args.json:
            write_json(args.json, {"connections": args.connections, "rate": args.rate, "seconds": args.seconds,
                                   "runs": runs, "kernel_floor": floors, "failures": failures,
                                   "medians": {kind: summary(results) for kind, results in runs.items() if results}})
        if args.report:
            if runs["channels"] and runs["socketio"] and floors:
                write_report(args.report, runs, floors, args, failures)
            else:
                print("not enough runs finished to write the report", file=sys.stderr)
        if failures:
            return 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
