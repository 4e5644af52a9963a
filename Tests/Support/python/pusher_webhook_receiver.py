"""A receiver of channel webhooks for the server's tests, checking each call with Pusher's own server library
(`pusher` 3.3.4, `validate_webhook`: the key, the HMAC-SHA256 signature of the body, and a `time_ms` within 300 s).
Records every call; `GET /calls` answers {"calls": [{"valid": bool, "events": [...]}]}. `POST /fail-first` answers
HTTP 500 to its first call and 200 after, for the retry test.

Prints "PORT <n>" once listening on 127.0.0.1. Usage: pusher_webhook_receiver.py APP_ID KEY SECRET
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pusher

CLIENT = pusher.Pusher(app_id=sys.argv[1], key=sys.argv[2], secret=sys.argv[3])
CALLS = []
LOCK = threading.Lock()
FAILED_ONCE = set()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with LOCK:
            self.answer(200, {"calls": CALLS})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        if self.path == "/fail-first":
            with LOCK:
                first = body not in FAILED_ONCE
                FAILED_ONCE.add(body)
            if first:
                self.answer(500, {"error": "try again"})
                return
        validated = CLIENT.validate_webhook(
            key=self.headers.get("X-Pusher-Key", ""), signature=self.headers.get("X-Pusher-Signature", ""), body=body)
        with LOCK:
            CALLS.append({"path": self.path, "valid": validated is not None, "events": json.loads(body).get("events", [])})
        self.answer(200, {})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
