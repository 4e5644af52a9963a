#!/usr/bin/env python3
"""The reference of the realtime fan-out benchmark: an independent broadcast server built the way a small
Python service would be, on the `websockets` library (asyncio), speaking the socket.io 0.9 subset that
`bmob-bench fanout` uses, with Bmob's event format, so the same client measures both servers.

- `GET /socket.io/1/?t=…` on the WebSocket port answers `sid:60:60:websocket` (`process_request`);
- `GET /socket.io/1/websocket/<sid>` upgrades once per sid; the server sends `1::` and the
  `client_send_data` event, a heartbeat `2:::` every 25 s (one task for all connections), takes
  `client_sub` / `client_unsub` (acking `5:<id>+::`) and answers bad packets with `7:::reason`;
- `POST /1/classes/<table>` on the write port (a plain asyncio HTTP/1.1 keep-alive server: `websockets`
  serves GET only) checks the app's keys, makes the row (objectId, createdAt, updatedAt plus the body's
  fields), answers `201`, then sends `server_pub` to every `updateTable` subscriber of the table with
  `websockets.asyncio.server.broadcast`, the library's fan-out primitive.

Unlike `bmob serve`, it stores nothing: a create is a broadcast, with no database, journal or permission
check, so it is a floor for the per-delivery cost of a Python server rather than a like-for-like backend.

    python realtime_reference.py --port P --write-port Q --app-id ID --rest-key KEY
"""
import argparse
import asyncio
import json
import resource
import secrets
import signal
import time

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

HEARTBEAT_SECONDS = 25
SID_LIFETIME = 60


class Reference:
    def __init__(self, app_id, rest_key):
        self.app_id = app_id
        self.rest_key = rest_key
        self.sids = {}  # unclaimed sid -> expiry (monotonic seconds)
        self.subscribers = {}  # (table, action, objectId) -> set of connections
        self.connections = set()

    # --- socket.io over websockets ---------------------------------------------------------------------

    def process_request(self, connection, request):
        path = request.path.split("?", 1)[0]
        if path.startswith("/socket.io/1/websocket/"):
            expiry = self.sids.pop(path.rsplit("/", 1)[1], None)
            if expiry is None or expiry < time.monotonic():
                return connection.respond(403, "unknown, expired or used session id\n")
            return None  # go on with the WebSocket handshake
        if path in ("/socket.io/1/", "/socket.io/1"):
            now = time.monotonic()
            if len(self.sids) > 100_000:
                self.sids = {sid: expiry for sid, expiry in self.sids.items() if expiry > now}
            sid = secrets.token_urlsafe(18)
            self.sids[sid] = now + SID_LIFETIME
            return connection.respond(200, f"{sid}:{SID_LIFETIME}:{SID_LIFETIME}:websocket")
        return connection.respond(404, "not found\n")

    async def session(self, connection):
        self.connections.add(connection)
        keys = set()
        try:
            await connection.send("1::")
            await connection.send('5:::{"name":"client_send_data","args":["{}"]}')
            async for message in connection:
                if isinstance(message, str):
                    reply = self.packet(connection, message, keys)
                    if reply:
                        await connection.send(reply)
        except ConnectionClosed:
            pass  # clients may go without a close frame; that is no error here
        finally:
            self.connections.discard(connection)
            for key in keys:
                group = self.subscribers.get(key)
                if group is not None:
                    group.discard(connection)
                    if not group:
                        del self.subscribers[key]

    def packet(self, connection, message, keys):
        """Handles one socket.io packet; returns the text to send back, if any."""
        kind, _, rest = message.partition(":")
        if kind in ("2", "8", "1"):
            return None
        if kind == "0":
            asyncio.ensure_future(connection.close())
            return None
        if kind != "5":
            return "7:::unsupported packet"
        packet_id, _, rest = rest.partition(":")
        _, _, data = rest.partition(":")
        try:
            event = json.loads(data)
            name = event["name"]
            if name in ("client_sub", "client_unsub"):
                request = json.loads(event["args"][0])
                if request.get("appKey") != self.app_id:
                    return "7:::unknown appKey"
                action = request["action"]
                unsubscribe = name == "client_unsub" or action.startswith("unsub_")
                key = (request["tableName"], action.removeprefix("unsub_"), request.get("objectId") or "")
                if unsubscribe:
                    keys.discard(key)
                    group = self.subscribers.get(key)
                    if group is not None:
                        group.discard(connection)
                elif len(keys) < 1000:
                    keys.add(key)
                    self.subscribers.setdefault(key, set()).add(connection)
                else:
                    return "7:::too many subscriptions on one connection"
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return "7:::malformed event"
        if packet_id.endswith("+"):
            return f"6:::{packet_id[:-1]}"
        return None

    async def heartbeats(self):
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            broadcast(list(self.connections), "2:::")

    # --- REST creates ----------------------------------------------------------------------------------

    async def serve_writes(self, reader, writer):
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, path, _ = lines[0].split(" ", 2)
                except ValueError:
                    return
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name:
                        headers[name.strip().lower()] = value.strip()
                try:
                    body = await reader.readexactly(int(headers.get("content-length", "0")))
                except (asyncio.IncompleteReadError, ConnectionError, ValueError):
                    return
                status, payload, publication = self.create(method, path, headers, body)
                writer.write(b"HTTP/1.1 " + status.encode() + b"\r\nContent-Type: application/json\r\n"
                             b"Content-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
                # The answer goes out first (bmob also answers at commit and publishes after).
                if publication is not None:
                    table, message = publication
                    group = self.subscribers.get((table, "updateTable", ""))
                    if group:
                        broadcast(group, message)
                await writer.drain()
        finally:
            writer.close()

    def create(self, method, path, headers, body):
        parts = path.split("?", 1)[0].split("/")
        if method != "POST" or len(parts) != 4 or parts[:3] != ["", "1", "classes"] or not parts[3]:
            return "404 Not Found", b'{"code":404,"error":"not found"}', None
        if (headers.get("x-bmob-application-id") != self.app_id
                or headers.get("x-bmob-rest-api-key") != self.rest_key):
            return "401 Unauthorized", b'{"code":401,"error":"unauthorized"}', None
        try:
            fields = json.loads(body)
            if not isinstance(fields, dict):
                raise ValueError
        except ValueError:
            return "400 Bad Request", b'{"code":107,"error":"invalid JSON"}', None
        table = parts[3]
        now = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        object_id = secrets.token_hex(5)
        row = {**fields, "objectId": object_id, "createdAt": now, "updatedAt": now}
        inner = json.dumps({"action": "updateTable", "appKey": self.app_id, "data": row, "objectId": "",
                            "tableName": table}, separators=(",", ":"), sort_keys=True)
        message = "5:::" + json.dumps({"name": "server_pub", "args": [inner]}, separators=(",", ":"))
        answer = json.dumps({"createdAt": now, "objectId": object_id}, separators=(",", ":")).encode()
        return "201 Created", answer, (table, message)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--write-port", type=int, required=True)
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--rest-key", required=True)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    reference = Reference(args.app_id, args.rest_key)
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stop.cancel)
    # The client offers no extension, so compression would not be negotiated anyway; the backlog matches
    # bmob's listener (1024) instead of asyncio's default of 100.
    async with serve(reference.session, args.host, args.port, process_request=reference.process_request,
                     compression=None, backlog=1024, max_size=64 * 1024):
        writes = await asyncio.start_server(reference.serve_writes, args.host, args.write_port, backlog=1024)
        heartbeats = asyncio.ensure_future(reference.heartbeats())
        print(f"listening on {args.port} (WebSocket) and {args.write_port} (writes)", flush=True)
        try:
            await stop
        except asyncio.CancelledError:
            pass
        heartbeats.cancel()
        writes.close()


if __name__ == "__main__":
    asyncio.run(main())
