"""Independent peers of the channels door: `pysher` 1.0.8 (a Pusher WebSocket client, protocol 6) and `pusher`
3.3.4 (Pusher's server library for the HTTP API), against a running Bmob server.

One pysher client subscribes to a public channel and to its user's private channel, authorized by the server's
built-in endpoint (/1/channels/auth) with a Bmob session; another joins a presence channel signed locally with the
secret (pysher serializes channel_data with Python's spacing). The server library then triggers, batches, reads
channel info and users, and terminates a user's connections. Prints one JSON report; the Swift test asserts on it.

Usage: pusher_channels_peer.py <json> with {"host", "port", "appId", "key", "secret", "applicationId",
"restKey", "sessionToken", "userId"}.
"""
import json
import logging
import os
import sys
import threading
import time

import pusher
import pysher

WAIT_SECONDS = 20


def wait_for(condition):
    deadline = time.time() + WAIT_SECONDS
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def main(spec):
    report = {}
    received = []
    lock = threading.Lock()
    connected = {"a": threading.Event(), "b": threading.Event()}

    def record(name):
        def handler(*args, **kwargs):
            with lock:
                received.append({"client": name, "data": args[0] if args else None})
        return handler

    auth_headers = {
        "X-Bmob-Application-Id": spec["applicationId"],
        "X-Bmob-REST-API-Key": spec["restKey"],
        "X-Bmob-Session-Token": spec["sessionToken"],
    }
    a = pysher.Pusher(
        spec["key"], secure=False, custom_host=spec["host"], port=spec["port"],
        auth_endpoint=f'http://{spec["host"]}:{spec["port"]}/1/channels/auth', auth_endpoint_headers=auth_headers,
        log_level=logging.WARNING)
    b = pysher.Pusher(
        spec["key"], secure=False, custom_host=spec["host"], port=spec["port"], secret=spec["secret"],
        user_data={"user_id": "py-b", "user_info": {"name": "B"}}, log_level=logging.WARNING)
    private_channel = f'private-user-{spec["userId"]}'
    subscribed = {}

    def on_a(data):
        for name in ["news", private_channel]:
            channel = a.subscribe(name)
            channel.bind("headline", record("a:" + name))
            channel.bind("pusher_internal:subscription_succeeded", lambda *_, n=name: subscribed.setdefault(n, True))
        connected["a"].set()

    def on_b(data):
        channel = b.subscribe("presence-py")
        channel.bind("pusher_internal:subscription_succeeded", lambda d: subscribed.setdefault("presence-py", d))
        connected["b"].set()

    a.connection.bind("pusher:connection_established", on_a)
    b.connection.bind("pusher:connection_established", on_b)
    a.connect()
    b.connect()
    report["connected"] = connected["a"].wait(WAIT_SECONDS) and connected["b"].wait(WAIT_SECONDS)
    report["subscribed"] = wait_for(lambda: len(subscribed) == 3)
    presence = subscribed.get("presence-py")
    report["presence"] = json.loads(presence)["presence"] if isinstance(presence, str) else presence

    server = pusher.Pusher(
        app_id=spec["appId"], key=spec["key"], secret=spec["secret"], ssl=False, host=spec["host"], port=spec["port"])
    report["trigger"] = server.trigger(["news", private_channel], "headline", {"n": 1})
    report["batch"] = server.trigger_batch([{"channel": "news", "name": "headline", "data": "two"}])
    report["received"] = wait_for(lambda: len(received) >= 3)
    with lock:
        report["events"] = sorted(f'{item["client"]}={item["data"]}' for item in received)
    report["channels"] = server.channels_info(prefix_filter="presence-", attributes=["user_count"])
    report["channel"] = server.channel_info("presence-py", ["user_count", "subscription_count"])
    report["users"] = server.users_info("presence-py")
    report["terminate"] = server.terminate_user_connections("nobody")
    print(json.dumps(report), flush=True)
    # pysher's disconnect joins its threads without a bound, and a websocket-client thread can outlive the close;
    # the report is out, so the process ends here.
    a.disconnect(timeout=1)
    b.disconnect(timeout=1)
    os._exit(0)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
