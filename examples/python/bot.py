#!/usr/bin/env python3
"""A small Parlor bot written from the documented WebSocket protocol alone.

It plays any variant legally: the server says which moves are legal in every `your_turn`,
so the bot plays the lowest legal card and passes its highest cards; where players bid
(spades, ohhell) it bids its aces and trumps, within the prompt's range. It reconnects with
its seat token if the connection drops, and exits when the match is over.

    pip install websockets
    python3 bot.py ws://127.0.0.1:8080/ws TABLE_ID [SEAT]
"""
import asyncio
import json
import sys

import websockets

RANKS = "23456789TJQKA"
# Errors after which retrying cannot help.
FATAL = {"no_such_table", "seat_taken", "table_full", "no_such_seat", "bad_token"}


def rank(card):
    """A card is rank + suit, e.g. "TD" (ten of diamonds) or "QS"."""
    return RANKS.index(card[0])


def bid(legal, view):
    """A bid prompt's answer: one trick for each ace and each trump in the hand, kept between
    the prompt's `min` and `max` and off its `forbidden` bid (the Oh Hell dealer's)."""
    trump = view.get("trump")
    tricks = sum(1 for card in view["hand"] if card[0] == "A" or card[-1] == trump)
    tricks = max(legal["min"], min(legal["max"], tricks))
    if tricks == legal.get("forbidden"):
        tricks = tricks - 1 if tricks > legal["min"] else tricks + 1
    return tricks


def choose(legal, view):
    """The message answering a `your_turn` prompt, from its `legal` moves and its `view` of
    the table (the hand, the trump...)."""
    if legal["type"] == "play":
        return {"type": "play", "card": min(legal["cards"], key=rank)}
    if legal["type"] == "pass":
        highest = sorted(legal["from"], key=rank, reverse=True)
        return {"type": "pass", "cards": highest[: legal["count"]]}
    if legal["type"] == "bid":
        return {"type": "bid", "tricks": bid(legal, view)}
    return None  # "wait": nothing to do


async def play(url, table, seat=None):
    token = None
    while True:
        try:
            async with websockets.connect(url) as ws:
                join = {"type": "join", "table": table, "name": "python example", "bot": True}
                if token:
                    join["token"] = token  # take our own seat back
                elif seat is not None:
                    join["seat"] = seat
                await ws.send(json.dumps(join))
                async for frame in ws:
                    msg = json.loads(frame)
                    kind = msg["type"]
                    if kind == "welcome":
                        token = msg.get("token") or token
                        seat = msg["seat"]
                        print(f"seated at {seat}", flush=True)
                    elif kind == "your_turn":
                        move = choose(msg["legal"], msg["view"])
                        if move:
                            await ws.send(json.dumps(move))
                    elif kind == "event" and msg["event"]["kind"] == "match_over":
                        winners = msg["event"]["winners"]
                        print("match over:", "won" if seat in winners else "lost", flush=True)
                        return seat in winners
                    elif kind == "error":
                        print(f"refused: {msg['code']}: {msg['message']}", file=sys.stderr)
                        if msg["code"] in FATAL:
                            raise SystemExit(2)
        except (OSError, websockets.ConnectionClosed) as err:
            if token is None:
                raise
            print(f"connection lost ({err}); reconnecting", file=sys.stderr)
            await asyncio.sleep(1)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    seat_arg = int(sys.argv[3]) if len(sys.argv) > 3 else None
    asyncio.run(play(sys.argv[1], sys.argv[2], seat_arg))
