"""Available mode against a real `parlor serve`: a registered bot is invited to two tables by
their hosts and plays both matches at the same time."""

import contextlib
import json
import os
import pathlib
import subprocess
import threading
import time

from websockets.sync.client import connect

from parlor_bot import Bot, ServeResult, create_table
from parlor_bot.client import http_json
from conftest import REPO


def parlor_bin():
    return pathlib.Path(os.environ.get("PARLOR_BIN", REPO / "target" / "debug" / "parlor"))


def register(data, name):
    out = subprocess.run(
        [str(parlor_bin()), "bots", "add", name, "--owner", "tests", "--data", str(data)],
        check=True, capture_output=True, text=True,
    ).stdout
    return next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("token: "))


def recv_until(ws, kind):
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def host_a_table(url, name, stack):
    """Creates a hearts table, seats built-in bots in seats 1 and 2 and invites `name` to
    seat 3; returns the host's connection once the bot has taken the seat."""
    table = create_table(url, "hearts", {"target": 20})
    ws = stack.enter_context(connect(url.replace("http://", "ws://") + "/ws"))
    ws.send(json.dumps({"type": "join", "table": table, "name": "Ann"}))
    assert recv_until(ws, "welcome")["host"]
    for seat in (1, 2):
        ws.send(json.dumps({"type": "add_bot", "seat": seat, "strategy": "random"}))
    ws.send(json.dumps({"type": "invite_bot", "seat": 3, "bot": name}))
    statuses = []
    while "accepted" not in statuses:
        statuses.append(recv_until(ws, "invite_status")["status"])
        assert statuses[-1] in ("sent", "accepted"), statuses
    return table, ws


class Lowest(Bot):
    """Plays the lowest legal card."""

    def play_card(self, view):
        return min(view.legal)


def test_a_registered_bot_serves_two_tables_at_once(start_server, tmp_path):
    data = tmp_path / "data"
    token = register(data, "Py Bee")
    with start_server("--data", str(data)) as url, contextlib.ExitStack() as stack:
        results = []
        logged = []
        serving = threading.Thread(
            target=lambda: results.append(
                Lowest().serve(url, token, variants=["hearts"], max_tables=2, tables=2,
                                 log=logged.append)
            ),
            daemon=True,
        )
        serving.start()
        # Wait until it is online.
        for _ in range(600):
            if http_json("GET", url + "/api/bots?variant=hearts"):
                break
            time.sleep(0.05)
        listed = http_json("GET", url + "/api/bots?variant=hearts")
        assert [b["name"] for b in listed] == ["Py Bee"], logged
        assert listed[0]["free"] == 2 and listed[0]["rating"] is None

        hosts = [host_a_table(url, "Py Bee", stack) for _ in range(2)]
        for table, ws in hosts:
            seats = http_json("GET", f"{url}/api/tables/{table}")["seats"]
            assert seats[3]["account"] == "Py Bee"
            # The host starts the match and leaves it to the server's stand-in.
            ws.send(json.dumps({"type": "start"}))
            recv_until(ws, "state")
            ws.send(json.dumps({"type": "leave"}))
        serving.join(timeout=300)
        assert not serving.is_alive(), logged
    result: ServeResult = results[0]
    assert result.name == "Py Bee"
    assert result.failed == [], result.failed
    assert len(result.tables) == 2
    assert sorted(r.table for r in result.tables) == sorted(t for t, _ in hosts)
    assert all(r.matches == 1 and r.seat == 3 and not r.problems for r in result.tables)
    assert result.most_at_once == 2
