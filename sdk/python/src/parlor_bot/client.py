"""Talking to a Parlor server: creating a table over HTTP, playing over the WebSocket protocol.

A :class:`Session` connects one bot to one seat. It keeps the bot's :class:`~parlor_bot.View`
up to date, asks the bot for a move on every ``your_turn`` prompt (a card, a pass, a bid, a
call, a discard or an answer to a claim; Bridge's declarer may claim instead of a card),
reports refused moves in words (then makes a legal move so the game goes on), and reconnects
with the seat token when the connection drops.
"""

from __future__ import annotations

import json
import math
import socket
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any, Callable, Dict, List, Optional, Sequence

from .backoff import backoff_delay
from .bidding import simple_bid, simple_exchange
from .bridge import simple_answer_claim
from .calling import as_call, simple_call, simple_discard
from .cards import Card, CardError
from .facts import Facts, facts_by_variant
from .view import MATCH_OVER, View

#: The protocol version this package speaks.
PROTOCOL_VERSION = 1

#: Messages a second this client allows itself: `parlor serve` refuses more than 100 a second
#: from one connection (`--rate-limit`), and a bot against instant built-in bots can go faster.
SEND_RATE = 80.0

#: Server error codes meaning "your move came too late or at the wrong moment", not "that card
#: is illegal": nothing to fall back on, the game has moved on.
#: Errors that end the session: the seat is no longer this connection's.
SEAT_LOST = {"replaced", "kicked"}

STALE_CODES = {
    "stale_move", "not_your_turn", "match_over", "passing_now", "not_passing_now",
    "already_passed", "no_match", "unknown_prompt", "bidding_now", "not_bidding_now",
    "calling_now", "not_calling_now", "discarding_now", "not_discarding_now", "claim_pending",
    "no_claim_to_answer",
}

#: The events that answer a move of this seat: its card, its pass, its bid, its call, its
#: discard, its card's penalty, its claim or its answer to one.
MOVE_EVENTS = (
    "played", "pass_chosen", "bid", "bad_card", "cards_seen", "exchanged", "called", "discarded",
    "claimed", "claim_answered",
)


def describe_move(msg: Dict[str, Any]) -> str:
    """A move message in a few words: ``QS``, ``2C 3D 4H``, ``bid 3``, ``order up``,
    ``discard 9C``."""
    if msg.get("type") == "bid":
        return f"bid {msg.get('tricks')}"
    if msg.get("type") == "call":
        try:
            return str(as_call(msg))
        except (TypeError, ValueError, KeyError):
            return f"call {msg.get('call')}"
    if msg.get("type") == "discard":
        return f"discard {msg.get('card')}"
    if msg.get("type") == "claim":
        return f"claim {msg.get('tricks')}"
    if msg.get("type") == "answer_claim":
        return "accept the claim" if msg.get("accept") else "reject the claim"
    if msg.get("type") in ("blind_nil", "see_cards"):
        return msg["type"].replace("_", " ")
    return msg.get("card") or " ".join(msg.get("cards", []))


class ParlorError(Exception):
    """The server refused something the bot cannot recover from (no such table, seat taken...)."""


# ---- addresses -----------------------------------------------------------------------------


@dataclass
class Address:
    """Where the server is: its HTTP base (``http://host:port``) and its WebSocket URL."""

    http: str
    ws: str
    table: Optional[str] = None


def parse_url(url: str) -> Address:
    """Accepts ``http://host:port``, ``ws://host:port/ws``, ``host:port`` or an invite link
    ``http://host:port/t/TABLE`` (which also names the table)."""
    if "://" not in url:
        url = "http://" + url
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    secure = scheme in ("https", "wss")
    http = f"{'https' if secure else 'http'}://{parts.netloc}"
    ws = f"{'wss' if secure else 'ws'}://{parts.netloc}/ws"
    table = None
    path = parts.path.rstrip("/")
    if path.startswith("/t/"):
        table = urllib.parse.unquote(path[3:]) or None
    return Address(http, ws, table)


def http_json(method: str, url: str, body: Any = None, timeout: float = 10.0) -> Any:
    """One JSON request; a JSON error answer becomes a :class:`ParlorError` with its message."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.loads(resp.read().decode() or "null")
    except urllib.error.HTTPError as err:
        text = err.read().decode(errors="replace")
        try:
            detail = json.loads(text)
            message = f"{detail.get('message')} ({detail.get('code')})"
        except ValueError:
            message = text.strip() or err.reason
        raise ParlorError(f"{method} {url} failed with {err.code}: {message}") from None
    except urllib.error.URLError as err:
        raise ParlorError(f"cannot reach the Parlor server at {url}: {err.reason}") from None


def variants(url: str) -> List[Dict[str, Any]]:
    """``GET /api/variants``: every variant with its options and built-in bot strategies."""
    return http_json("GET", parse_url(url).http + "/api/variants")


def create_table(
    url: str,
    variant: str,
    options: Optional[Dict[str, Any]] = None,
    table_options: Optional[Dict[str, Any]] = None,
    seed: Optional[int] = None,
) -> str:
    """``POST /api/tables``; returns the new table's id."""
    body: Dict[str, Any] = {"variant": variant}
    if options:
        body["options"] = options
    if table_options:
        body["table_options"] = table_options
    if seed is not None:
        body["seed"] = seed
    answer = http_json("POST", parse_url(url).http + "/api/tables", body)
    return answer["id"]


# ---- what happened ---------------------------------------------------------------------------


@dataclass
class Problem:
    """Something the bot did wrong: an illegal move, an exception, a slow answer."""

    kind: str  # "illegal", "exception", "slow"
    message: str
    situation: str
    match: int
    hand: int

    def __str__(self) -> str:
        where = f"match {self.match + 1}, hand {self.hand + 1}"
        body = "\n    ".join(self.situation.splitlines())
        return f"[{self.kind}] {where}: {self.message}\n    {body}"


@dataclass
class RunResult:
    """What one :meth:`Session.run` did: the matches, the scores and every problem."""

    table: Optional[str] = None
    seat: Optional[int] = None
    variant: Optional[str] = None
    #: The variant's rules, as the server published them.
    facts: Optional[Facts] = None
    matches: int = 0
    wins: int = 0
    #: One list per finished hand: the points every seat scored that hand.
    hand_points: List[List[int]] = field(default_factory=list)
    #: Final totals of every match.
    match_totals: List[List[int]] = field(default_factory=list)
    winners: List[List[int]] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)
    moves: int = 0
    reconnects: int = 0
    #: The longest the bot took to answer, in seconds.
    slowest: float = 0.0
    #: Seats rotated (``check --rotate``): every seat is counted from the bot's, which is 0,
    #: and each deal was played with the bot in every seat.
    rotated: bool = False
    #: The seats the bot played from, in order (one per table).
    seats_played: List[int] = field(default_factory=list)
    #: The tables played at, in the same order.
    tables: List[str] = field(default_factory=list)

    def absorb(self, other: "RunResult", seat: int) -> None:
        """Adds ``other`` (the bot played ``seat`` there) to this rotated result, turning its
        seats round so that the bot's is 0 and the others follow clockwise."""
        turn = lambda row: list(row[seat:]) + list(row[:seat])  # noqa: E731
        self.rotated = True
        self.seat = 0
        self.table = self.table or other.table
        self.variant = other.variant
        self.facts = self.facts or other.facts
        self.matches += other.matches
        self.wins += other.wins
        self.hand_points.extend(turn(h) for h in other.hand_points)
        self.match_totals.extend(turn(t) for t in other.match_totals)
        n = len(other.match_totals[0]) if other.match_totals else 0
        self.winners.extend([(w - seat) % n for w in ws] if n else list(ws) for ws in other.winners)
        self.problems.extend(other.problems)
        self.moves += other.moves
        self.reconnects += other.reconnects
        self.slowest = max(self.slowest, other.slowest)
        self.seats_played.append(seat)
        if other.table:
            self.tables.append(other.table)

    def of_kind(self, kind: str) -> List[Problem]:
        """The problems of one kind."""
        return [p for p in self.problems if p.kind == kind]

    @property
    def illegal(self) -> List[Problem]:
        """Moves the server refused (or penalised)."""
        return self.of_kind("illegal")

    @property
    def exceptions(self) -> List[Problem]:
        """Exceptions raised by the bot."""
        return self.of_kind("exception")

    @property
    def slow(self) -> List[Problem]:
        """Answers slower than the limit."""
        return self.of_kind("slow")

    def points(self, seat: Optional[int] = None) -> List[int]:
        """The points ``seat`` (default: the bot's) scored in each hand."""
        seat = self.seat if seat is None else seat
        return [h[seat] for h in self.hand_points if seat is not None and seat < len(h)]


def mean_interval(values: Sequence[float]):
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    mean = sum(values) / n
    if n == 1:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def wilson_interval(wins: int, n: int):
    """The 95% Wilson score interval of a rate of ``wins`` in ``n`` (honest near 0 and 1)."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---- the session -----------------------------------------------------------------------------


def _default_log(text: str) -> None:
    print(f"[parlor_bot] {text}", file=sys.stderr, flush=True)


class Session:
    """One bot in one seat of one table, for as many matches as asked.

    Most people call :meth:`parlor_bot.Bot.run`, which builds a session and runs it.
    """

    def __init__(
        self,
        bot: Any,
        url: str,
        table: Optional[str] = None,
        seat: Optional[int] = None,
        *,
        variant: str = "hearts",
        options: Optional[Dict[str, Any]] = None,
        opponents: Optional[str] = None,
        table_options: Optional[Dict[str, Any]] = None,
        seed: Optional[int] = None,
        matches: Optional[int] = 1,
        name: Optional[str] = None,
        token: Optional[str] = None,
        slow_ms: Optional[int] = None,
        log: Optional[Callable[[str], None]] = _default_log,
        verbose: bool = False,
        reconnect_for: float = 60.0,
        autostart: Optional[bool] = None,
        invitation: Optional[str] = None,
        bot_token: Optional[str] = None,
    ) -> None:
        address = parse_url(url)
        self.bot = bot
        self.url = url
        self.address = address
        self.table = table or address.table
        self.seat = seat
        self.variant = variant
        self.options = options or {}
        self.opponents = opponents
        self.table_options = table_options
        self.seed = seed
        self.matches = matches
        self.name = name or getattr(bot, "name", None) or type(bot).__name__
        self.token = token
        self.slow_ms = slow_ms
        self.log = log or (lambda text: None)
        self.verbose = verbose
        self.reconnect_for = reconnect_for
        self.autostart = autostart
        #: An invitation to take up (`accept`, with the registered bot's token ``bot_token``:
        #: only the bot invited may) instead of joining; later reconnections use the seat
        #: token as usual.
        self.invitation = invitation
        self.bot_token = bot_token
        self.host = False
        self.view: Optional[View] = None
        #: ``GET /api/variants``, read once when first needed.
        self._variants: Optional[List[Dict[str, Any]]] = None
        self.table_info: Optional[Dict[str, Any]] = None
        self.result = RunResult()
        self._ws = None
        self._done = False
        self._want_start = False
        self._bots_asked: set = set()
        self._answered_seq: Optional[int] = None
        # Moves sent and not yet answered, oldest first: the server answers each one, in
        # order, with our `played`/`pass_chosen`/`bid` event (or `bad_card`) or with an `error`.
        self._inflight: deque = deque()
        # Messages received while the bot was thinking, to handle before reading more.
        self._inbox: deque = deque()
        self._prompt_seq: Optional[int] = None
        self._last_error: Optional[str] = None
        self._resyncs = 0
        # Where this seat last claimed (hand, tricks done): the bot is not asked again there.
        self._claimed_at: Optional[tuple] = None
        #: A `sync` was sent for a missed event, and its snapshot has not come yet.
        self._gap_synced = False
        self._in_match = False
        self._welcomed = False
        self._ever_welcomed = False
        self._last_drop = ""
        self._start_sent = False
        self._hands_this_match = 0
        self._rate = SEND_RATE
        self._tokens = SEND_RATE
        self._refilled = time.monotonic()

    # ---- public ------------------------------------------------------------------------

    def run(self) -> RunResult:
        """Plays until ``matches`` matches are over (forever with ``matches=None``)."""
        if self.table is None:
            self.table = create_table(
                self.url, self.variant, self.options, self.table_options, self.seed
            )
            self.log(f"created a {self.variant} table: {self.address.http}/t/{self.table}")
            if self.autostart is None:
                self.autostart = True
        self._want_start = bool(self.autostart)
        self.result.table = self.table
        lost_at = None
        failures = 0
        while not self._done:
            self._welcomed = False
            try:
                self._connect_and_play()
            except ParlorError:
                raise
            except (OSError, EOFError, TimeoutError) as err:
                self._on_drop(err)
            except Exception as err:  # noqa: BLE001 - websockets' ConnectionClosed and kin
                if type(err).__module__.startswith("websockets"):
                    self._on_drop(err)
                else:
                    raise
            if self._done:
                break
            if not self._ever_welcomed:
                raise ParlorError(
                    f"cannot play at {self.address.ws}: {self._last_drop} (is `parlor serve` "
                    "running there?)"
                )
            if self._welcomed:
                # This connection had worked: count the time without one from now.
                lost_at, failures = None, 0
            now = time.monotonic()
            lost_at = lost_at or now
            if now - lost_at > self.reconnect_for:
                raise ParlorError(
                    f"lost the connection to {self.address.ws} and could not get back "
                    f"within {self.reconnect_for:.0f} s"
                )
            time.sleep(backoff_delay(failures))
            failures += 1
            self.result.reconnects += 1
            self.log(f"reconnecting to table {self.table} (seat {self.seat}) with the seat token")
        return self.result

    def drop_connection(self) -> None:
        """Cuts the connection without a goodbye, as a network failure would (for tests and
        for trying out reconnection)."""
        ws = self._ws
        if ws is None:
            return
        try:
            ws.socket.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass

    def send(self, msg: Dict[str, Any]) -> None:
        """Sends one protocol message, pacing them to stay under the server's rate limit."""
        now = time.monotonic()
        self._tokens = min(self._rate, self._tokens + (now - self._refilled) * self._rate)
        self._refilled = now
        if self._tokens < 1:
            time.sleep((1 - self._tokens) / self._rate)
            self._tokens = 1.0
            self._refilled = time.monotonic()
        self._tokens -= 1
        if self.verbose:
            self.log(f"-> {json.dumps(msg)}")
        self._ws.send(json.dumps(msg))

    # ---- the connection ----------------------------------------------------------------

    def _on_drop(self, err: BaseException) -> None:
        self._ws = None
        if self._done:
            return
        self._last_drop = f"{type(err).__name__}: {err}"
        if self._ever_welcomed:
            self.log(f"connection lost ({self._last_drop})")
        # The move in flight may or may not have arrived; the next snapshot and prompt say.
        self._inflight.clear()
        self._inbox.clear()
        self._answered_seq = None

    def _connect_and_play(self) -> None:
        from websockets.sync.client import connect

        with connect(self.address.ws, open_timeout=10, max_size=2**22) as ws:
            self._ws = ws
            join: Dict[str, Any] = {"type": "join", "table": self.table, "name": self.name, "bot": True}
            if self.seat is not None:
                join["seat"] = self.seat
            if self.token is not None:
                join["token"] = self.token
            elif self.invitation is not None:
                join = {"type": "accept", "invitation": self.invitation, "token": self.bot_token}
            self.send(join)
            while not self._done:
                if self._inbox:
                    self._handle(self._inbox.popleft())
                    continue
                try:
                    text = ws.recv(timeout=30)
                except TimeoutError:
                    self.send({"type": "ping"})
                    continue
                self._handle(self._decode(text))
            try:
                self.send({"type": "leave"})
            except Exception:  # noqa: BLE001 - leaving is a courtesy
                pass
        self._ws = None

    # ---- messages ----------------------------------------------------------------------

    def _decode(self, text: Any) -> Dict[str, Any]:
        if self.verbose:
            self.log(f"<- {str(text)[:300]}")
        msg = json.loads(text)
        if msg.get("type") == "error" and msg.get("code") in SEAT_LOST:
            # Another connection holds the seat now, or the operator emptied it: coming back
            # with the token would take the seat from them (or fail), so the session ends,
            # at once (the close that follows must not look like a network failure).
            raise ParlorError(f"the bot lost its seat: {msg.get('message', '')} ({msg['code']})")
        return msg

    def _moved_meanwhile(self) -> bool:
        """Reads what arrived while the bot was thinking (keeping it for later) and tells
        whether the server has already moved for this seat (the bot took too long)."""
        while True:
            try:
                text = self._ws.recv(timeout=0.001)
            except TimeoutError:
                break
            self._inbox.append(self._decode(text))
        return self._moved_in_inbox()

    def _moved_in_inbox(self) -> bool:
        for msg in self._inbox:
            event = msg.get("event") or {}
            if (
                msg.get("type") == "event"
                and event.get("kind") in MOVE_EVENTS
                and self._mover(event) == self.seat
            ):
                return True
        return False

    def _mover(self, event: Dict[str, Any]) -> Optional[int]:
        """The seat whose move an event answers: Bridge's declarer for a card of dummy's."""
        seat = event.get("seat", event.get("from"))
        contract = self.view.contract if self.view is not None else None
        if event.get("kind") == "played" and contract is not None and seat == contract.dummy:
            return contract.declarer
        return seat

    def _handle(self, msg: Dict[str, Any]) -> None:
        kind = msg.get("type")
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: Dict[str, Any]) -> None:
        if msg.get("protocol") != PROTOCOL_VERSION:
            self.log(
                f"the server speaks protocol {msg.get('protocol')}, this package "
                f"{PROTOCOL_VERSION}: things may go wrong"
            )
        if msg.get("seat") is None:
            raise ParlorError("the server gave no seat (joined as a spectator?)")
        if self.seat is not None and msg["seat"] != self.seat and self.token is not None:
            self.log(f"asked for seat {self.seat} but got seat {msg['seat']}")
        self.seat = msg["seat"]
        self.token = msg.get("token") or self.token
        self.host = bool(msg.get("host"))
        self.result.seat = self.seat
        self._welcomed = True
        self._ever_welcomed = True
        if self.verbose:
            self.log(f"seated at seat {self.seat} of table {self.table}{' as host' if self.host else ''}")

    def _on_table(self, msg: Dict[str, Any]) -> None:
        self.table_info = msg.get("table") or {}
        info = self.table_info
        self.result.variant = info.get("variant", self.result.variant)
        if info.get("host") is not None:
            self.host = info.get("host") == self.seat
        if not self.host:
            return
        seats = info.get("seats", [])
        empty = [s["seat"] for s in seats if s.get("occupant") == "empty" and s["seat"] != self.seat]
        if self._want_start:
            for seat in empty:
                if seat not in self._bots_asked:
                    self._bots_asked.add(seat)
                    self.send({"type": "add_bot", "seat": seat, "strategy": self._opponent()})
            if not empty and info.get("status") != "playing":
                self._start()

    def _start(self) -> None:
        self._want_start = False
        self._start_sent = True
        self.send({"type": "start"})

    def _variant_list(self) -> List[Dict[str, Any]]:
        if self._variants is None:
            self._variants = variants(self.url)
        return self._variants

    def _facts_for(self, variant: str) -> Facts:
        """The variant's facts from ``/api/variants``: what the view needs to follow events."""
        facts = facts_by_variant(self._variant_list()).get(variant)
        if facts is None:
            raise ParlorError(
                f"{self.address.http}/api/variants says nothing about the rules of {variant}: "
                "is the server older than this package?"
            )
        return facts

    def _opponent(self) -> str:
        if self.opponents is None:
            try:
                listed = {v["name"]: v for v in self._variant_list()}
                names = listed.get(self.result.variant or self.variant, {}).get("strategies") or []
                self.opponents = names[-1] if names else "random"
            except (ParlorError, KeyError, TypeError):
                self.opponents = "random"
            self.log(f"built-in opponents: {self.opponents}")
        return self.opponents

    def _on_state(self, msg: Dict[str, Any]) -> None:
        self._gap_synced = False
        was_playing = self._in_match
        variant = msg["view"]["variant"]
        self.view = View.from_state(msg, self._facts_for(variant))
        self.result.variant = self.view.variant
        self.result.facts = self.view.facts
        # Scores of hands that ended while the connection was down.
        if not self.view.history:
            self._hands_this_match = 0
        for line in self.view.history[self._hands_this_match:]:
            self.result.hand_points.append(list(line.points))
        self._hands_this_match = len(self.view.history)
        self._in_match = self.view.phase != MATCH_OVER
        if self._in_match:
            self._start_sent = False
        elif was_playing:
            # The match ended while the connection was down.
            self._match_over({"winners": self.view.winners, "totals": self.view.scores})

    def _on_event(self, msg: Dict[str, Any]) -> None:
        if self.view is None:
            return
        seq = msg.get("seq")
        if seq is not None and seq <= self.view.seq:
            return  # already in the snapshot
        prev = msg.get("prev")
        if prev is not None and prev > self.view.seq:
            # `prev` names the last event sent to this seat: one newer than the view was
            # missed. The server's snapshot puts it right; events until then are in it.
            if not self._gap_synced:
                self._gap_synced = True
                self.log(f"missed an event (seq {prev}): asking for a fresh snapshot")
                self.send({"type": "sync"})
            return
        event = msg.get("event") or {}
        self.view.apply_event(event, seq)
        kind = event.get("kind")
        blind_bid = kind == "bid" and self.view.blind is not None and self.seat in self.view.blind.bid
        if kind in MOVE_EVENTS and self._mover(event) == self.seat and not blind_bid:
            self._resyncs = 0
            mine = self._inflight[0] if self._inflight else None
            if mine is not None and (
                (kind != "played" or mine["msg"].get("card") == event.get("card"))
                and (kind != "bid" or mine["msg"].get("tricks") == event.get("tricks"))
                and (kind != "called" or mine["msg"].get("call") == event.get("call"))
            ):
                self._inflight.popleft()
            else:
                mine = None
                if kind == "played":
                    self.log(f"the server played {event.get('card')} for this seat")
                elif kind == "bid":
                    self.log(f"the server bid {event.get('tricks')} for this seat")
                elif kind == "called":
                    self.log(f"the server called {event.get('call')} for this seat")
        if kind == "hand_started":
            self._in_match = True
            self._start_sent = False
            if event.get("hand") == 0:
                self._hands_this_match = 0
        elif kind == "hand_scored":
            self.result.hand_points.append(list(event.get("points", [])))
            self._hands_this_match += 1
        elif kind == "bad_card" and event.get("seat") == self.seat:
            self._problem(
                "illegal",
                f"{event.get('card')} was an illegal card: a penalty of "
                f"{event.get('penalty')} points, and the hand was redealt",
                (mine or {}).get("situation", ""),
            )
        if self._overrides("on_event"):
            self._call_hook("on_event", event, self.view.copy())
        if kind == "match_over":
            self._match_over(event)

    def _match_over(self, event: Dict[str, Any]) -> None:
        winners = list(event.get("winners", []))
        self.result.matches += 1
        self.result.winners.append(winners)
        self.result.match_totals.append(list(event.get("totals", [])))
        if self.seat in winners:
            self.result.wins += 1
        self._in_match = False
        outcome = "won" if self.seat in winners else "lost"
        self.log(
            f"match {self.result.matches} over: seat {self.seat} {outcome} "
            f"(winners {', '.join(map(str, winners))}; totals {event.get('totals')})"
        )
        self._call_hook("on_match_over", self.view.copy())
        if self.matches is not None and self.result.matches >= self.matches:
            self._done = True
        elif self.host and self.autostart:
            self._want_start = True
            seats = (self.table_info or {}).get("seats", [])
            if seats and all(s.get("occupant") != "empty" for s in seats):
                self._start()

    def _on_your_turn(self, msg: Dict[str, Any]) -> None:
        if self.view is None:
            return
        seq = msg.get("seq")
        if seq is not None and seq == self._answered_seq:
            return  # a repeat of a prompt already answered
        if self._moved_in_inbox():
            return  # a prompt the server already answered for us while the bot was slow
        if msg.get("view") is not None:
            # The prompt carries the seat's view: decide from it, no `sync` needed. Its seq
            # stays the newest seen (a repeated prompt names the seq it was first sent at).
            newest = max(self.view.seq, seq or 0)
            self.view = View.from_state({"seq": newest, "view": msg["view"]}, self.view.facts)
        self.view.set_legal(msg.get("legal"))
        if self.view.legal_kind == "wait":
            return
        if not self._consistent():
            return
        self._answered_seq = seq
        self._prompt_seq = seq
        self._decide(msg.get("timeout_ms"))

    def _consistent(self) -> bool:
        """Checks that the prompt fits the view; if it does not, asks for a fresh snapshot
        (and the prompt again) with `sync`."""
        view = self.view
        if view.legal_kind == "blind":
            return True  # the hand is face down: nothing to check
        if view.legal_kind == "answer_claim":
            return True  # the claim names no cards of ours
        if view.playing_dummy:
            return True  # declarer asked for one of dummy's cards, face up for all
        if view.legal_kind in ("bid", "call"):
            # A bid or call prompt names no cards: the hand's size is what can be checked.
            ok = view.seat is None or len(view.hand) == view.hand_sizes[view.seat]
            if ok or self._resyncs >= 2:
                return True
            self._resyncs += 1
            self.log("the view is out of step with the server: asking for a fresh snapshot")
            self.send({"type": "sync"})
            return False
        hand = set(view.hand)
        legal = set(view.legal)
        ok = legal <= hand if view.legal_kind == "play" else legal == hand
        if ok or self._resyncs >= 2:
            if not ok:
                view.hand = sorted(hand | legal, key=lambda c: c.index)
            return True
        self._resyncs += 1
        self.log("the view is out of step with the server: asking for a fresh snapshot")
        self.send({"type": "sync"})
        return False

    def _wants_to_claim(self, view: View) -> Optional[int]:
        """Bridge's declarer, asked for a card: the tricks the bot's ``claim`` hook claims, if
        it has one and claims (once at each point of the hand)."""
        if view.legal_kind != "play" or not view.declaring or not self._overrides("claim"):
            return None
        here = (view.hand_number, len(view.tricks))
        if self._claimed_at == here:
            return None
        try:
            tricks = self.bot.claim(view.copy())
        except Exception as err:  # noqa: BLE001 - a bot's bug must not stop the game
            self._problem("exception", f"claim raised {type(err).__name__}: {err}", view.summary())
            return None
        if tricks is None:
            return None
        self._claimed_at = here
        return int(tricks)

    def _decide(self, timeout_ms: Optional[int]) -> None:
        view = self.view
        situation = view.summary()
        claim = self._wants_to_claim(view)
        if claim is not None:
            self._send_move({"type": "claim", "tricks": claim}, situation, fallback=False)
            return
        mine = view.copy()
        method = {
            "pass": "pass_cards", "bid": "bid", "blind": "blind_nil", "exchange": "exchange_cards",
            "call": "call", "discard": "discard", "answer_claim": "answer_claim",
        }.get(view.legal_kind, "play_card")
        # A bot written before bidding (or without a `bid`) gets the simple bid; one without
        # `blind_nil` looks at its cards, one without `exchange_cards` gives the simple exchange;
        # one written before Euchre gets the simple call and discard.
        defaults = {
            "bid": simple_bid, "blind_nil": lambda v: False, "exchange_cards": simple_exchange,
            "call": simple_call, "discard": simple_discard, "answer_claim": simple_answer_claim,
        }
        choose = getattr(self.bot, method, None) or defaults.get(method)
        start = time.perf_counter()
        try:
            if choose is None:
                raise AttributeError(f"the bot has no {method} method")
            answer = choose(mine)
        except Exception as err:  # noqa: BLE001 - a bot's bug must not stop the game
            elapsed = time.perf_counter() - start
            self._problem(
                "exception",
                f"{method} raised {type(err).__name__}: {err}",
                situation + "\n" + traceback.format_exc(limit=6).rstrip(),
            )
            self._fallback()
            return
        elapsed = time.perf_counter() - start
        self.result.moves += 1
        self.result.slowest = max(self.result.slowest, elapsed)
        limit = self._slow_limit(timeout_ms)
        if limit is not None and elapsed * 1000 > limit:
            self._problem(
                "slow",
                f"{method} took {elapsed * 1000:.0f} ms (limit {limit:.0f} ms)",
                situation,
            )
        try:
            msg = self._move_message(view, answer)
        except (CardError, TypeError, ValueError) as err:
            self._problem("illegal", f"{method} returned {answer!r}: {err}", situation)
            self._fallback()
            return
        if self._moved_meanwhile():
            what = describe_move(msg)
            self.log(f"{what} not sent: the server moved for this seat while {method} was thinking")
            if limit is None or elapsed * 1000 <= limit:
                self._problem("slow", f"{method} answered after the server had moved for it "
                              f"({elapsed * 1000:.0f} ms)", situation)
            return
        self._send_move(msg, situation, fallback=False)

    def _send_move(self, msg: Dict[str, Any], situation: str, fallback: bool) -> None:
        if self._prompt_seq is not None:
            # Names the prompt answered: a late answer is refused (`stale_move`), never taken
            # for the seat's next turn.
            msg = {**msg, "seq": self._prompt_seq}
        self._inflight.append(
            {"msg": msg, "situation": situation, "fallback": fallback, "prompt": self._prompt_seq}
        )
        if msg["type"] == "pass":
            self.view.passed = sorted((Card(c) for c in msg["cards"]), key=lambda c: c.index)
        self.send(msg)

    def _slow_limit(self, timeout_ms: Optional[int]) -> Optional[float]:
        if self.slow_ms is not None:
            return float(self.slow_ms)
        if timeout_ms:
            return timeout_ms / 2
        return None

    @staticmethod
    def _move_message(view: View, answer: Any) -> Dict[str, Any]:
        if view.legal_kind == "blind":
            return {"type": "blind_nil" if answer is True else "see_cards"}
        if view.legal_kind == "exchange":
            if isinstance(answer, (str, Card)) or answer is None:
                raise TypeError(f"exchange_cards must return a list of {view.pass_count} cards")
            return {"type": "exchange", "cards": [str(Card(c)) for c in answer]}
        if view.legal_kind == "bid":
            if isinstance(answer, bool) or not isinstance(answer, Integral):
                raise TypeError(f"bid must return a number of tricks, one of {view.legal_bids}")
            return {"type": "bid", "tricks": int(answer)}
        if view.legal_kind == "call":
            return {"type": "call", **as_call(answer).to_json()}
        if view.legal_kind == "answer_claim":
            if not isinstance(answer, bool):
                raise TypeError("answer_claim must return True (accept) or False (reject)")
            return {"type": "answer_claim", "accept": answer}
        if view.legal_kind == "discard":
            if answer is None or not isinstance(answer, (str, Card)):
                raise TypeError("discard must return a Card")
            return {"type": "discard", "card": str(Card(answer))}
        if view.legal_kind == "pass":
            if isinstance(answer, (str, Card)) or answer is None:
                raise TypeError(f"pass_cards must return a list of {view.pass_count} cards")
            cards = [str(Card(c)) for c in answer]
            return {"type": "pass", "cards": cards}
        if answer is None or not isinstance(answer, (str, Card)):
            raise TypeError("play_card must return a Card")
        return {"type": "play", "card": str(Card(answer))}

    def _fallback(self) -> None:
        """Plays a legal move for the bot: the lowest legal card, the lowest cards to pass, the
        simple bid, or the simple call or discard."""
        view = self.view
        if self._moved_meanwhile():
            return
        if view.legal_kind == "bid":
            if not view.legal_bids:
                return
            msg = {"type": "bid", "tricks": simple_bid(view)}
            chosen = f"bid {msg['tricks']}"
        elif view.legal_kind == "pass":
            msg = {"type": "pass", "cards": [str(c) for c in sorted(view.legal)[: view.pass_count]]}
            chosen = msg["cards"]
        elif view.legal_kind == "blind":
            msg = {"type": "see_cards"}
            chosen = "see cards"
        elif view.legal_kind == "exchange":
            msg = {"type": "exchange", "cards": [str(c) for c in simple_exchange(view)]}
            chosen = msg["cards"]
        elif view.legal_kind == "call":
            if not view.legal_calls():
                return
            call = simple_call(view)
            msg = {"type": "call", **call.to_json()}
            chosen = str(call)
        elif view.legal_kind == "discard":
            if not view.legal:
                return
            msg = {"type": "discard", "card": str(simple_discard(view))}
            chosen = f"discard {msg['card']}"
        elif view.legal_kind == "answer_claim":
            msg = {"type": "answer_claim", "accept": simple_answer_claim(view)}
            chosen = describe_move(msg)
        elif view.legal:
            msg = {"type": "play", "card": str(min(view.legal))}
            chosen = msg["card"]
        else:
            return
        self.log(f"playing {chosen if isinstance(chosen, str) else ' '.join(chosen)} instead")
        self._send_move(msg, "", fallback=True)

    def _on_error(self, msg: Dict[str, Any]) -> None:
        code, message = msg.get("code", "error"), msg.get("message", "")
        self._last_error = f"{message} ({code})"
        if not self._welcomed:
            raise ParlorError(f"the server refused to seat the bot: {message} ({code})")
        if code == "rate_limited":
            # Nothing happened: say it again a little later.
            self.log(f"the server asks to slow down: {message}")
            self._rate = max(1.0, self._rate / 2)
            self._tokens = 0.0
            time.sleep(0.1)
            if self._inflight:
                pending = self._inflight.popleft()
                self._inflight.append(pending)  # its answer now comes after the others'
                self.send(pending["msg"])
            elif self._start_sent and not self._in_match:
                self.send({"type": "start"})
            return
        if code == "unknown_type" and self._resyncs:
            # A server without `sync`: a new connection brings a snapshot too.
            self.drop_connection()
            return
        if not self._inflight:
            if (self._want_start or self._start_sent) and not self._in_match:
                raise ParlorError(f"could not set the table up: {message} ({code})")
            self.log(f"the server says: {message} ({code})")
            return
        pending = self._inflight.popleft()
        what = describe_move(pending["msg"])
        current = pending["prompt"] == self._prompt_seq
        if code in STALE_CODES or not current:
            # The game had moved on (the server played for a slow bot): not the bot's fault.
            self.log(f"{what} came too late: {message} ({code})")
            return
        self.log(f"the server refused {what}: {message} ({code})")
        if pending["fallback"]:
            return
        self._problem("illegal", f"{what}: {message} ({code})", pending["situation"])
        if self.view.legal_kind != "wait":
            self._fallback()

    def _on_pong(self, msg: Dict[str, Any]) -> None:
        pass

    def _on_goodbye(self, msg: Dict[str, Any]) -> None:
        self.log(f"the server is going away: {msg.get('reason')}")

    # ---- bookkeeping -------------------------------------------------------------------

    def _problem(self, kind: str, message: str, situation: str) -> None:
        hand = self.view.hand_number if self.view else 0
        problem = Problem(kind, message, situation, self.result.matches, hand)
        self.result.problems.append(problem)
        self.log(str(problem))

    def _overrides(self, name: str) -> bool:
        """True when the bot has a hook `name` that does something (not the base class's)."""
        method = getattr(type(self.bot), name, None)
        return method is not None and not getattr(method, "does_nothing", False)

    def _call_hook(self, name: str, *args: Any) -> None:
        hook = getattr(self.bot, name, None)
        if hook is None:
            return
        try:
            hook(*args)
        except Exception as err:  # noqa: BLE001
            self._problem("exception", f"{name} raised {type(err).__name__}: {err}",
                          traceback.format_exc(limit=6).rstrip())
