"""An independent socket.io 0.9 client built on the `websockets` library, for the server's tests.

It talks to a running Bmob server as Bmob's clients do, with a strict RFC 6455 implementation on the other
end: the handshake, a fragmented client_sub asking for an ack, a server_pub after a REST create, a ping, the
closing handshake from each side. It prints one JSON object with what it saw; the Swift test asserts on it.

Usage: socketio_server_peer.py <base-url> <application-id> <rest-key>
"""
import asyncio
import json
import sys
import time
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

# Generous: the whole test suite runs at once on two cores, so an answer may wait seconds; a silent server still
# fails the run (the tests that expect silence do so on the Swift side).
RECEIVE_SECONDS = 20


def handshake(base):
    with urllib.request.urlopen(f"{base}/socket.io/1/?t={int(time.time() * 1000)}", timeout=20) as response:
        return response.read().decode()


def create(base, app, key, fields):
    request = urllib.request.Request(
        f"{base}/1/classes/PeerChat",
        data=json.dumps(fields).encode(),
        headers={"X-Bmob-Application-Id": app, "X-Bmob-REST-API-Key": key, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


async def main(base, app, key):
    report = {}
    ws_base = base.replace("http://", "ws://", 1)
    answer = handshake(base)
    report["handshake"] = answer
    sid = answer.split(":")[0]
    async with connect(f"{ws_base}/socket.io/1/websocket/{sid}", origin="http://io.bmob.cn") as ws:
        report["first"] = await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS)
        report["second"] = await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS)
        argument = json.dumps({"appKey": app, "tableName": "PeerChat", "objectId": "", "action": "updateTable"})
        packet = "5:1+::" + json.dumps({"name": "client_sub", "args": [argument]})
        # Three fragments: the server must reassemble them into one message.
        third = len(packet) // 3
        await ws.send([packet[:third], packet[third : 2 * third], packet[2 * third :]])
        report["ack"] = await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS)
        created = await asyncio.to_thread(create, base, app, key, {"name": "peer", "content": "héllo"})
        report["createdId"] = created.get("objectId")
        while True:
            message = await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS)
            if not message.startswith("2:"):
                report["event"] = message
                break
        pong = await ws.ping(b"peer-ping")
        await asyncio.wait_for(pong, RECEIVE_SECONDS)
        report["pong"] = True
        await ws.close(1000, "peer done")
        report["clientCloseCode"] = ws.close_code
    # The server starts the close: a disconnect packet.
    answer = handshake(base)
    async with connect(f"{ws_base}/socket.io/1/websocket/{answer.split(':')[0]}") as ws:
        await ws.recv()
        await ws.recv()
        await ws.send("0::")
        try:
            while True:
                await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS)
        except ConnectionClosed as closed:
            report["serverCloseCode"] = closed.rcvd.code if closed.rcvd else None
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
