"""A webhook receiver for the server's tests, independent of the server's code: checks each call's signature
(HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret) and that its timestamp is within 300 s, records the
calls, and answers by path:

  /echo            {"result": {"params": …, "user": …, "master": …}}
  /text            {"result": "plain text"}
  /refuse          {"error": {"code": 142, "message": "refused by the receiver"}}
  /garbage         not JSON
  /slow            waits 5 s, then {"result": "late"}
  /status500       HTTP 500
  /before-save     {"object": {"checked": true}}, or an error when object.points < 0
  /before-find     {"where": {"hidden": {"$ne": true}}}
  /data-hook       {"msg": "ok"}
  /record          {"msg": "ok"} (after-triggers)
  /sync-echo       {"result": {"function": …, "kind": …, "args": …, "user": …}} (sync functions)
  /sync-counter    {"result": n}, n counting this path's calls (a sync query whose result changes each run)
  /calls           GET: every call so far, as JSON lines' array (with "path" and "verified")

Prints "PORT <n>" once listening on 127.0.0.1 (port 0: any free port). Usage: webhook_receiver.py SECRET
"""
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1].encode()
CALLS = []
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/calls":
            with LOCK:
                self.answer(200, {"calls": CALLS})
        else:
            self.answer(404, {"error": {"code": 404, "message": "no such path"}})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        stamp = self.headers.get("X-Bmob-Webhook-Timestamp", "")
        signature = self.headers.get("X-Bmob-Webhook-Signature", "")
        expected = hmac.new(SECRET, stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        fresh = stamp.isdigit() and abs(time.time() - int(stamp)) < 300
        verified = hmac.compare_digest(expected, signature) and fresh
        try:
            payload = json.loads(body)
        except ValueError:
            payload = None
        with LOCK:
            CALLS.append({"path": self.path, "verified": verified, "payload": payload})
        if not verified:
            self.answer(401, {"error": {"code": 401, "message": "bad signature"}})
            return
        path = self.path
        if path == "/echo":
            self.answer(200, {"result": {"params": payload.get("params"), "user": payload.get("user"),
                                         "master": payload.get("master")}})
        elif path == "/text":
            self.answer(200, {"result": "plain text"})
        elif path == "/refuse":
            self.answer(200, {"error": {"code": 142, "message": "refused by the receiver"}})
        elif path == "/garbage":
            self.answer(200, b"<html>not json</html>")
        elif path == "/slow":
            time.sleep(5)
            self.answer(200, {"result": "late"})
        elif path == "/status500":
            self.answer(500, {"oops": True})
        elif path == "/before-save":
            points = (payload.get("object") or {}).get("points")
            if isinstance(points, int) and points < 0:
                self.answer(200, {"error": {"code": 142, "message": "negative points"}})
            else:
                self.answer(200, {"object": {"checked": True}})
        elif path == "/sync-echo":
            self.answer(200, {"result": {key: payload.get(key) for key in ("function", "kind", "args", "user")}})
        elif path == "/sync-counter":
            with LOCK:
                count = sum(1 for call in CALLS if call["path"] == "/sync-counter")
            self.answer(200, {"result": count})
        elif path == "/before-find":
            self.answer(200, {"where": {"hidden": {"$ne": True}}})
        else:
            self.answer(200, {"msg": "ok"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
