"""Checks channel authorizations the server's built-in endpoint answered, with Pusher's own server library
(`pusher` 3.3.4, pusher-http-python) and Python's hmac, as independent implementations of the signatures.

Usage: pusher_auth_peer.py <json>, where json is {"appId", "key", "secret", "checks": [{"kind":
"private"|"presence"|"signin", "socket", "channel"?, "answer": {...}}]}. Prints one JSON array of booleans,
one per check.
"""
import hashlib
import hmac
import json
import sys

import pusher


def main(spec):
    client = pusher.Pusher(app_id=spec["appId"], key=spec["key"], secret=spec["secret"])
    secret = spec["secret"].encode()
    results = []
    for check in spec["checks"]:
        answer = check["answer"]
        socket = check["socket"]
        if check["kind"] == "private":
            # The library signs private channels exactly as the protocol says; its answer must be ours.
            expected = client.authenticate(channel=check["channel"], socket_id=socket)
            results.append(expected == answer)
        elif check["kind"] == "presence":
            # The library would sign its own serialization of the member; the signature must cover the exact
            # channel_data string the server answered, which clients forward unchanged.
            message = f'{socket}:{check["channel"]}:{answer["channel_data"]}'.encode()
            signature = hmac.new(secret, message, hashlib.sha256).hexdigest()
            member = json.loads(answer["channel_data"])
            results.append(answer["auth"] == f'{spec["key"]}:{signature}' and "user_id" in member)
        else:
            message = f'{socket}::user::{answer["user_data"]}'.encode()
            signature = hmac.new(secret, message, hashlib.sha256).hexdigest()
            results.append(answer["auth"] == f'{spec["key"]}:{signature}' and "id" in json.loads(answer["user_data"]))
    print(json.dumps(results))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
