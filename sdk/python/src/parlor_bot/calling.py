"""Calls: making trump (Euchre) and the auction (Bridge); how trump was made, and a first
choice of call and discard.

In turn from the dealer's left each seat may **order up** the turned-up card (its suit becomes
trump; the dealer picks the card up and discards one face down) or **pass**; if all pass, each
may **name** another suit or pass. The maker may go **alone** (their partner sits the hand out);
at a table with ``defend_alone`` a defender may then do the same. A :class:`Call` is one such
call, written on the wire beside its message's ``type``::

    {"type": "call", "call": "trump", "suit": "H", "alone": true}

Bridge's auction has calls of its own: a bid of a level and a strain (``bid(3, "NT")``), a
double and a redouble (see :mod:`parlor_bot.bridge`)::

    {"type": "call", "call": "bid", "level": 3, "strain": "NT"}

:func:`simple_call` and :func:`simple_discard` are what :meth:`parlor_bot.Bot.call` and
:meth:`parlor_bot.Bot.discard` answer unless a bot says otherwise, and what a session answers
for a bot whose own answer failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from .cards import ACE, JACK, SUITS, Card, left_bower, suit_of, trump_rank

if TYPE_CHECKING:
    from .view import View

#: The kinds of call, as the server names them.
PASS_CALL = "pass"
ORDER_UP = "order_up"
TRUMP = "trump"
DEFEND_ALONE = "defend_alone"
BID = "bid"
DOUBLE_CALL = "double"
REDOUBLE_CALL = "redouble"

#: Bridge's strains, lowest first.
_STRAINS = ("C", "D", "H", "S", "NT")


@dataclass(frozen=True)
class Call:
    """One call: ``kind`` is ``"pass"``, ``"order_up"``, ``"trump"`` (naming ``suit``) or
    ``"defend_alone"``; ``alone`` says the maker plays alone (order up or trump only). In
    Bridge's auction ``kind`` is ``"pass"``, ``"bid"`` (with ``level`` and ``strain``),
    ``"double"`` or ``"redouble"``."""

    kind: str
    suit: Optional[str] = None
    alone: bool = False
    #: A bid's level, 1 to 7 (Bridge).
    level: Optional[int] = None
    #: A bid's strain: ``"C"``, ``"D"``, ``"H"``, ``"S"`` or ``"NT"`` (Bridge).
    strain: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        """As the server writes it (the fields beside a message's ``type`` or an event's
        ``kind``)."""
        if self.kind == ORDER_UP:
            return {"call": ORDER_UP, "alone": self.alone}
        if self.kind == TRUMP:
            return {"call": TRUMP, "suit": self.suit, "alone": self.alone}
        if self.kind == BID:
            return {"call": BID, "level": self.level, "strain": self.strain}
        return {"call": self.kind}

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Call":
        """From a ``called`` event, a view's ``calls`` or a move's fields."""
        kind = d["call"]
        if kind not in (PASS_CALL, ORDER_UP, TRUMP, DEFEND_ALONE, BID, DOUBLE_CALL, REDOUBLE_CALL):
            raise ValueError(
                f"`{kind}` is not a call: pass, order_up, trump, defend_alone, bid, double or "
                "redouble"
            )
        if kind == TRUMP and d.get("suit") not in SUITS:
            raise ValueError("a trump call names a suit: C, D, H or S")
        if kind == BID:
            level, strain = d.get("level"), d.get("strain")
            if isinstance(level, bool) or level not in range(1, 8) or strain not in _STRAINS:
                raise ValueError("a bid names a level (1 to 7) and a strain: C, D, H, S or NT")
            return cls(BID, level=level, strain=strain)
        return cls(kind, d.get("suit") if kind == TRUMP else None,
                   bool(d.get("alone", False)) if kind in (ORDER_UP, TRUMP) else False)

    def __str__(self) -> str:
        if self.kind == BID:
            return f"{self.level}{self.strain}"
        words = {
            PASS_CALL: "pass", ORDER_UP: "order up", DEFEND_ALONE: "defend alone",
            DOUBLE_CALL: "double", REDOUBLE_CALL: "redouble",
        }
        text = words.get(self.kind) or f"name {self.suit}"
        return text + " alone" if self.alone else text


#: Pass, defend alone, double and redouble: the calls without arguments.
PASS = Call(PASS_CALL)
DEFEND = Call(DEFEND_ALONE)
DOUBLE = Call(DOUBLE_CALL)
REDOUBLE = Call(REDOUBLE_CALL)


def bid(level: int, strain: str) -> Call:
    """A bid of Bridge's auction: ``bid(1, "S")``, ``bid(3, "NT")``."""
    return Call.from_json({"call": BID, "level": level, "strain": strain})


def order_up(alone: bool = False) -> Call:
    """Order the turned-up card up (its suit is trump), alone or not."""
    return Call(ORDER_UP, None, alone)


def name_trump(suit: str, alone: bool = False) -> Call:
    """Name ``suit`` trump (the second round), alone or not."""
    return Call(TRUMP, suit, alone)


def as_call(answer: Union[Call, Dict[str, Any], str]) -> Call:
    """A bot's answer as a :class:`Call`: a Call, its wire form (``{"call": "pass"}``), or
    the words ``"pass"``, ``"order_up"``, ``"defend_alone"``, ``"double"``, ``"redouble"``."""
    if isinstance(answer, Call):
        return answer
    if isinstance(answer, dict):
        return Call.from_json(answer)
    simple = (PASS_CALL, ORDER_UP, DEFEND_ALONE, DOUBLE_CALL, REDOUBLE_CALL)
    if isinstance(answer, str) and answer in simple:
        return Call(answer)
    raise TypeError(
        "call must return a Call (parlor_bot.PASS, order_up(), name_trump(suit), bid(1, 'NT')...)"
    )


def calls_allowed(legal: Optional[Dict[str, Any]]) -> List[Call]:
    """Every call a ``call`` prompt's ``legal`` allows, in the server's order: pass first,
    then ordering up and naming each suit, not alone then alone, then defending alone; in
    Bridge's auction pass, double, redouble, then every bid from ``bid_from`` up to 7NT."""
    if not legal or legal.get("type") != "call":
        return []
    calls = [PASS] if legal.get("pass") else []
    for alone in (False, True):
        if alone and not legal.get("alone"):
            break
        if legal.get("order_up"):
            calls.append(order_up(alone))
        if legal.get("name"):
            calls += [name_trump(s, alone) for s in SUITS if s != legal.get("except")]
    if legal.get("defend_alone"):
        calls.append(DEFEND)
    if legal.get("double"):
        calls.append(DOUBLE)
    if legal.get("redouble"):
        calls.append(REDOUBLE)
    low = legal.get("bid_from")
    if low:
        start = _STRAINS.index(low["strain"]) + (low["level"] - 1) * len(_STRAINS)
        every = [bid(lv, st) for lv in range(1, 8) for st in _STRAINS]
        calls += every[start:]
    return calls


@dataclass(frozen=True)
class TrumpMade:
    """How trump was made this hand."""

    trump: str
    maker: int
    #: The maker plays alone (their partner sits out).
    alone: bool = False
    #: A defender who defends alone, if one does.
    defender_alone: Optional[int] = None

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"trump": self.trump, "maker": self.maker, "alone": self.alone}
        if self.defender_alone is not None:
            out["defender_alone"] = self.defender_alone
        return out

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "TrumpMade":
        return cls(d["trump"], d["maker"], bool(d.get("alone", False)), d.get("defender_alone"))


@dataclass
class Calling:
    """The making of trump this hand as your seat knows it."""

    #: The calls made so far, in order, with the seat that made each.
    calls: List[Tuple[int, Call]] = field(default_factory=list)
    #: How trump was made, once it is.
    made: Optional[TrumpMade] = None
    #: Seats sitting this hand out, lowest first: they play no card.
    out: List[int] = field(default_factory=list)
    #: The turned-up card the dealer picked up, once picked up (everyone saw it).
    picked_up: Optional[Card] = None
    #: The card you discarded, if you are the dealer and did: nobody else sees it.
    discarded: Optional[Card] = None

    def to_json(self) -> Dict[str, Any]:
        return {
            "calls": [{"seat": seat, **call.to_json()} for seat, call in self.calls],
            "made": self.made.to_json() if self.made else None,
            "out": list(self.out),
            "picked_up": None if self.picked_up is None else str(self.picked_up),
            "discarded": None if self.discarded is None else str(self.discarded),
        }

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Calling":
        return cls(
            calls=[(c["seat"], Call.from_json(c)) for c in d.get("calls", [])],
            made=TrumpMade.from_json(d["made"]) if d.get("made") else None,
            out=list(d.get("out", [])),
            picked_up=Card(d["picked_up"]) if d.get("picked_up") else None,
            discarded=Card(d["discarded"]) if d.get("discarded") else None,
        )


# ---- a first choice ---------------------------------------------------------------------


def trumps_in(cards: List[Card], trump: str) -> List[Card]:
    """The cards that would be trumps were ``trump`` made, the left bower included, highest
    first."""
    mine = [c for c in cards if suit_of(c, trump, True) == trump]
    return sorted(mine, key=lambda c: trump_rank(c, trump, True), reverse=True)


def _strength(cards: List[Card], trump: str) -> float:
    """A rough count of the tricks ``cards`` take with ``trump`` made: one per trump, a half
    more for each bower, a half per ace of another suit."""
    trumps = trumps_in(cards, trump)
    bowers = sum(1 for c in trumps if c.rank == JACK)
    aces = sum(1 for c in cards if c.rank == ACE and suit_of(c, trump, True) != trump)
    return len(trumps) + 0.5 * bowers + 0.5 * aces


def simple_call(view: "View") -> Call:
    """A legal call from the strength of the hand (:func:`_strength`): make trump (order up,
    or name the best suit) at 3.5 or more, counting the turned-up card for the dealer who would
    pick it up; alone with both bowers at 5.5 or more (four trumps and a side ace); otherwise
    pass, or (a dealer who must name a suit) name the best one. Never defends alone. In
    Bridge's auction: :func:`parlor_bot.bridge.simple_bridge_call`."""
    if view.bridge is not None or (view.call_prompt or {}).get("bid_from") is not None:
        from .bridge import simple_bridge_call

        return simple_bridge_call(view)
    allowed = view.legal_calls()
    if not allowed:
        raise ValueError("no call is asked for now")
    hand = list(view.hand)
    turned = view.turned_card
    best: Optional[Tuple[float, Call]] = None
    for call in allowed:
        if call.alone or call.kind in (PASS_CALL, DEFEND_ALONE):
            continue
        suit = call.suit if call.kind == TRUMP else (turned.suit if turned else None)
        if suit is None:
            continue
        cards = hand + [turned] if call.kind == ORDER_UP and view.seat == view.dealer else hand
        score = _strength(cards, suit)
        if best is None or score > best[0]:
            best = (score, call)
    if best is not None:
        score, call = best
        trumps = trumps_in(hand, call.suit or (turned.suit if turned else ""))
        alone = Call(call.kind, call.suit, True)
        if score >= 5.5 and sum(1 for c in trumps if c.rank == JACK) == 2 and alone in allowed:
            return alone
        if score >= 3.5 or PASS not in allowed:
            return call
    return PASS if PASS in allowed else allowed[0]


def simple_discard(view: "View") -> Card:
    """The dealer's discard: the lowest card that is not a trump (the left bower is one),
    else the lowest trump."""
    if not view.legal:
        raise ValueError("no discard is asked for now")
    trump = view.trump
    side = [c for c in view.legal if suit_of(c, trump, True) != trump]
    if side:
        return min(side, key=lambda c: (c.rank, c.index))
    return min(view.legal, key=lambda c: trump_rank(c, trump, True))


__all__ = [
    "Call", "Calling", "TrumpMade", "PASS", "DEFEND", "DOUBLE", "REDOUBLE", "bid", "order_up",
    "name_trump", "as_call",
    "calls_allowed", "trumps_in", "simple_call", "simple_discard",
]
