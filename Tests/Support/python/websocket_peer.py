"""An independent WebSocket server (the `websockets` library) for BmobRealtime's transport tests.

Usage: websocket_peer.py [--cert CERT --key KEY]

Listens on 127.0.0.1, port 0, and prints "PORT <n>" as its first line. What a connection does depends on
its path; events the client cannot see are printed as one line each ("CLOSED <path> <code> <reason>"), so
the test reads them from stdout. It exits when stdin closes.
"""

import argparse
import asyncio
import json
import ssl
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


def report(*parts):
    print(" ".join(str(part) for part in parts), flush=True)


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def handler(ws):
    path = ws.request.path
    try:
        if path == "/echo":
            await echo(ws)
        elif path.startswith("/headers"):
            headers = {name.lower(): value for name, value in ws.request.headers.raw_items()}
            await ws.send(json.dumps({"path": path, "headers": headers}))
            await echo(ws)
        elif path == "/fragments":
            # Fragmented messages to the client, both kinds.
            await ws.send(["frag", "mented ", "text ✓"])
            await ws.send([b"\x00\x01", b"\x02", b"\x03\x04"])
            # Then report how the client's next two messages arrived: frame by frame.
            for _ in range(2):
                fragments = []
                async for fragment in ws.recv_streaming():
                    fragments.append(fragment)
                kind = "text" if isinstance(fragments[0], str) else "binary"
                joined = "".join(fragments) if kind == "text" else b"".join(fragments).hex()
                await ws.send(json.dumps({"kind": kind, "fragments": len(fragments), "content": joined}))
            await echo(ws)
        elif path == "/ping":
            waiter = await ws.ping(b"are you there")
            await asyncio.wait_for(waiter, timeout=20)
            await ws.send("pong received")
            await echo(ws)
        elif path.startswith("/close-by-server"):
            await ws.send("closing")
            await ws.close(4001, "server says bye")
        elif path == "/big":
            await ws.send("x" * 300_000)
            await ws.send(bytes(range(256)) * 1000)
            await echo(ws)
        else:
            await echo(ws)
    except ConnectionClosed:
        pass
    finally:
        await ws.wait_closed()
        report("CLOSED", path, ws.close_code, ws.close_reason or "-")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    arguments = parser.parse_args()
    context = None
    if arguments.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.cert, arguments.key)
    async with serve(handler, "127.0.0.1", 0, ssl=context, ping_interval=None, max_size=2**24, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        report("PORT", port)
        loop = asyncio.get_running_loop()
        # Exit when the test closes our stdin (or dies).
        await loop.run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
