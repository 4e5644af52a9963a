"""A raw-socket WebSocket server that breaks the protocol on purpose, for BmobRealtime's transport tests.

Usage: raw_websocket_peer.py

Listens on 127.0.0.1, port 0, and prints "PORT <n>" first. Each connection completes the opening
handshake by hand, then misbehaves as its path says:

  /masked       a text frame with the mask bit set (servers must not mask)
  /reserved     a text frame with RSV1 set and no extension
  /bad-utf8     a text frame whose payload is not UTF-8
  /big-control  a ping frame with a 126-byte payload (control frames carry at most 125)
  /drop         closes TCP without a close frame
  /silent       never answers the upgrade request
  /no-upgrade   answers 403 instead of 101
  /bad-accept   answers 101 with a wrong Sec-WebSocket-Accept

Then it reads the client's close frame, unmasks it and prints "CLOSE <path> <code>" (or "NOCLOSE <path>").
It exits when stdin closes.
"""

import base64
import hashlib
import socket
import struct
import sys
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def report(*parts):
    print(" ".join(str(part) for part in parts), flush=True)


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(4096)
        if not chunk:
            return None, None
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode()
    lines = head.split("\r\n")
    path = lines[0].split(" ")[1]
    headers = {}
    for line in lines[1:]:
        name, value = line.split(":", 1)
        headers[name.strip().lower()] = value.strip()
    return path, headers


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_close_code(connection):
    """Reads client frames until a close frame; returns its code, or None."""
    connection.settimeout(20)
    try:
        while True:
            header = read_exactly(connection, 2)
            if header is None:
                return None
            opcode = header[0] & 0x0F
            length = header[1] & 0x7F
            if length == 126:
                length = struct.unpack("!H", read_exactly(connection, 2))[0]
            elif length == 127:
                length = struct.unpack("!Q", read_exactly(connection, 8))[0]
            mask = read_exactly(connection, 4) if header[1] & 0x80 else b"\0\0\0\0"
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read_exactly(connection, length)))
            if opcode == 0x8:
                return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    except (socket.timeout, OSError):
        return None


def serve(connection):
    with connection:
        path, headers = read_request(connection)
        if path is None:
            return
        if path == "/silent":
            # Never answer; wait for the client to give up.
            connection.settimeout(30)
            try:
                connection.recv(1)
            except OSError:
                pass
            report("GAVEUP", path)
            return
        if path == "/no-upgrade":
            connection.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            return
        accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + GUID).encode()).digest()).decode()
        if path == "/bad-accept":
            accept = base64.b64encode(b"0" * 20).decode()
        connection.sendall(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").encode())
        if path == "/bad-accept":
            read_close_code(connection)
            return
        if path == "/masked":
            payload = b"hello"
            mask = b"\x01\x02\x03\x04"
            masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            connection.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        elif path == "/reserved":
            connection.sendall(bytes([0x81 | 0x40, 5]) + b"hello")
        elif path == "/bad-utf8":
            connection.sendall(bytes([0x81, 4]) + b"\xff\xfe\xfd\xfc")
        elif path == "/big-control":
            connection.sendall(bytes([0x89, 126]) + struct.pack("!H", 126) + b"p" * 126)
        elif path == "/drop":
            connection.sendall(bytes([0x81, 2]) + b"hi")
            connection.shutdown(socket.SHUT_RDWR)
            return
        code = read_close_code(connection)
        if code is None:
            report("NOCLOSE", path)
        else:
            report("CLOSE", path, code)


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    report("PORT", listener.getsockname()[1])

    def accept_loop():
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
