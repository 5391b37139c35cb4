#!/usr/bin/env python3
"""Plays Parlor through a published port, as a person would, with nothing but Python's stdlib.

    play.py play  BASE_URL STATE_FILE   waits for /livez, creates a one-trick `tricks` table,
                                        sits down, adds three computer players, starts, and
                                        plays the first legal card of each turn to match_over;
                                        writes the table's id to STATE_FILE.
    play.py check BASE_URL STATE_FILE   the table of STATE_FILE is still there (after a restart):
                                        GET /api/tables/{id} answers 200 with the match played,
                                        and its finished hand can be replayed.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEADLINE_S = 120


def http(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def wait_live(base):
    """Waits up to 60 s for /livez: the container may still be starting."""
    end = time.monotonic() + 60
    last = None
    while time.monotonic() < end:
        try:
            status, _ = http("GET", base + "/livez")
            if status == 200:
                return
            last = f"HTTP {status}"
        except OSError as err:
            last = str(err)
        time.sleep(0.5)
    sys.exit(f"{base}/livez did not answer 200 within 60 s (last: {last})")


class WebSocket:
    """A client WebSocket (RFC 6455): text frames, masked; answers pings."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname, parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                sys.exit(f"{url}: the connection closed during the handshake: {head!r}")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            sys.exit(f"{url}: no WebSocket upgrade: {lines[0]}")
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
        if headers.get("sec-websocket-accept") != accept:
            sys.exit(f"{url}: bad Sec-WebSocket-Accept: {headers}")

    def _frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, message):
        print(">>", json.dumps(message))
        self._frame(0x1, json.dumps(message).encode())

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                sys.exit("the server closed the WebSocket")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:  # ping
                self._frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                sys.exit(f"the server closed the WebSocket: {code} {payload[2:].decode(errors='replace')}")
            message += payload
            if fin:
                return json.loads(message)

    def close(self):
        try:
            self._frame(0x8, struct.pack("!H", 1000))
        finally:
            self.sock.close()


def brief(message):
    text = json.dumps(message)
    return text if len(text) < 200 else text[:197] + "..."


def play(base, state_file):
    wait_live(base)
    status, body = http("POST", base + "/api/tables", {"variant": "tricks", "options": {"target": 1}})
    if status not in (200, 201):
        sys.exit(f"POST /api/tables: HTTP {status}: {body[:500]!r}")
    table = json.loads(body)["id"]
    print(f"table {table} created")
    ws = WebSocket(base.replace("http://", "ws://", 1) + "/ws")
    ws.send({"type": "join", "table": table, "name": "Ann"})
    for seat in (1, 2, 3):
        ws.send({"type": "add_bot", "seat": seat, "strategy": "random"})
    ws.send({"type": "start"})
    end = time.monotonic() + DEADLINE_S
    turns = 0
    while True:
        if time.monotonic() > end:
            sys.exit(f"no match_over within {DEADLINE_S} s")
        msg = ws.recv()
        kind = msg.get("type")
        if kind == "welcome":
            print("<<", brief(msg))
            if msg.get("seat") != 0 or not msg.get("host"):
                sys.exit("expected seat 0 as the host")
        elif kind == "error":
            sys.exit(f"the server refused a message: {msg}")
        elif kind == "your_turn":
            legal, seq = msg["legal"], msg["seq"]
            turns += 1
            if legal["type"] == "play":
                ws.send({"type": "play", "card": legal["cards"][0], "seq": seq})
            elif legal["type"] == "pass":
                ws.send({"type": "pass", "cards": legal["from"][: legal["count"]], "seq": seq})
            else:
                sys.exit(f"a prompt this player cannot answer: {legal}")
        elif kind == "event" and msg["event"]["kind"] == "match_over":
            print("<<", brief(msg))
            print(f"match over after {turns} turns of ours: winners {msg['event']['winners']}, totals {msg['event']['totals']}")
            break
    ws.close()
    status, body = http("GET", f"{base}/api/tables/{table}")
    if status != 200:
        sys.exit(f"GET /api/tables/{table}: HTTP {status}")
    described = json.loads(body)
    print(f"GET /api/tables/{table}: {brief(described)}")
    if described.get("matches_played") != 1:
        sys.exit(f"expected one match played: {described}")
    with open(state_file, "w") as f:
        f.write(table)


def check(base, state_file):
    with open(state_file) as f:
        table = f.read().strip()
    wait_live(base)
    status, body = http("GET", f"{base}/api/tables/{table}")
    if status != 200:
        sys.exit(f"after the restart, GET /api/tables/{table}: HTTP {status}: {body[:300]!r}")
    described = json.loads(body)
    print(f"after the restart, GET /api/tables/{table}: {brief(described)}")
    if described.get("matches_played") != 1:
        sys.exit(f"after the restart the table lost its match: {described}")
    status, body = http("GET", f"{base}/api/tables/{table}/hands")
    hands = json.loads(body) if status == 200 else None
    if not hands:
        sys.exit(f"after the restart, GET /api/tables/{table}/hands: HTTP {status}: {body[:300]!r}")
    print(f"after the restart, the table has {len(hands)} finished hand(s) to replay")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("play", "check"):
        sys.exit(__doc__)
    (play if sys.argv[1] == "play" else check)(sys.argv[2].rstrip("/"), sys.argv[3])
