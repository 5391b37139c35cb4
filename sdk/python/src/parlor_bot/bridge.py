"""Contract Bridge: the board, the contract, dummy's hand, claims, and first choices of call
and answer.

Seats are 0 North, 1 East, 2 South, 3 West; partners sit two apart. Each board is bid in an
**auction** from the dealer: a call is a pass, a bid (a level 1-7 and a strain ``"C"``, ``"D"``,
``"H"``, ``"S"`` or ``"NT"``, higher than any bid before it), a double or a redouble, written on
the wire beside its message's ``type``::

    {"type": "call", "call": "bid", "level": 3, "strain": "NT"}

Three passes after a bid end the auction in a **contract**; its **declarer** is the first of the
winning side to have named the strain, declarer's partner is **dummy**, and declarer's left leads.
After that opening lead dummy's cards go face up (:attr:`Bridge.dummy`) and declarer plays them:
on dummy's turn declarer's ``your_turn`` asks for one of dummy's cards. Declarer may **claim**
some of the tricks still to play (``{"type": "claim", "tricks": n}``), facing their hand; each
defender then answers (``{"type": "answer_claim", "accept": true}``): one rejection and play goes
on, two acceptances end the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .cards import SUITS, Card

if TYPE_CHECKING:
    from .calling import Call
    from .view import View

#: The strains, lowest first: the four suits, then no trump.
NO_TRUMP = "NT"
STRAINS = SUITS + (NO_TRUMP,)

#: The seats' names, by seat.
SEAT_NAMES = ("North", "East", "South", "West")

#: ``vulnerability`` values, as the server writes them.
VULNERABILITIES = ("None", "NorthSouth", "EastWest", "Both")


def bid_rank(level: int, strain: str) -> int:
    """A bid's place in the auction's order: 1C lowest, 7NT highest."""
    return (level - 1) * len(STRAINS) + STRAINS.index(strain)


def bids_from(level: int, strain: str) -> List[tuple]:
    """Every bid from ``level strain`` up to 7NT, lowest first, as ``(level, strain)``."""
    start = bid_rank(level, strain)
    every = [(lv, st) for lv in range(1, 8) for st in STRAINS]
    return every[start:]


@dataclass(frozen=True)
class Contract:
    """The auction's outcome: a bid, doubled or not, and who plays it."""

    level: int
    strain: str
    #: ``"undoubled"``, ``"doubled"`` or ``"redoubled"``.
    doubled: str
    declarer: int

    @property
    def dummy(self) -> int:
        """Declarer's partner, whose cards declarer plays."""
        return (self.declarer + 2) % 4

    @property
    def opening_leader(self) -> int:
        """Declarer's left, who leads the first trick."""
        return (self.declarer + 1) % 4

    @property
    def trump(self) -> Optional[str]:
        """The trump suit; None in no trump."""
        return None if self.strain == NO_TRUMP else self.strain

    def to_json(self) -> Dict[str, Any]:
        return {
            "bid": {"level": self.level, "strain": self.strain},
            "doubled": self.doubled,
            "declarer": self.declarer,
        }

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Contract":
        return cls(d["bid"]["level"], d["bid"]["strain"], d["doubled"], d["declarer"])

    def __str__(self) -> str:
        marks = {"doubled": "X", "redoubled": "XX"}.get(self.doubled, "")
        return f"{self.level}{self.strain}{marks} by {SEAT_NAMES[self.declarer]}"


@dataclass
class Claim:
    """Declarer's claim while the defenders answer it."""

    seat: int
    #: The tricks claimed of those still to play.
    tricks: int
    #: Declarer's remaining cards, faced with the claim.
    cards: List[Card] = field(default_factory=list)
    #: The defenders who accepted so far.
    accepted: List[int] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {
            "seat": self.seat, "tricks": self.tricks,
            "cards": [str(c) for c in sorted(self.cards, key=lambda c: c.index)],
            "accepted": list(self.accepted),
        }

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Claim":
        return cls(d["seat"], d["tricks"], _cards(d.get("cards")), list(d.get("accepted", [])))


@dataclass
class ShownHand:
    """A hand laid face up: dummy's, once the opening lead is made."""

    seat: int
    cards: List[Card] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {"seat": self.seat, "cards": [str(c) for c in sorted(self.cards, key=lambda c: c.index)]}

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "ShownHand":
        return cls(d["seat"], _cards(d.get("cards")))


@dataclass
class Bridge:
    """The board as everyone at the table sees it (the auction's calls are in
    :attr:`View.calling`)."""

    #: The board's number: 1 to 16, then again. It sets the dealer and who is vulnerable.
    board: int
    #: ``"None"``, ``"NorthSouth"``, ``"EastWest"`` or ``"Both"``.
    vulnerability: str
    #: The contract, once the auction ends in one.
    contract: Optional[Contract] = None
    #: Dummy's hand, face up once the opening lead is made.
    dummy: Optional[ShownHand] = None
    #: Declarer's claim while the defenders answer it.
    claim: Optional[Claim] = None
    #: Claims the defenders rejected this board.
    claims_rejected: int = 0

    def vulnerable(self, seat: int) -> bool:
        """True when ``seat``'s side is vulnerable on this board."""
        side = "NorthSouth" if seat % 2 == 0 else "EastWest"
        return self.vulnerability in (side, "Both")

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "board": self.board, "vulnerability": self.vulnerability,
            "contract": self.contract.to_json() if self.contract else None,
            "dummy": self.dummy.to_json() if self.dummy else None,
            "claim": self.claim.to_json() if self.claim else None,
        }
        if self.claims_rejected:
            out["claims_rejected"] = self.claims_rejected
        return out

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Bridge":
        return cls(
            board=d["board"], vulnerability=d["vulnerability"],
            contract=Contract.from_json(d["contract"]) if d.get("contract") else None,
            dummy=ShownHand.from_json(d["dummy"]) if d.get("dummy") else None,
            claim=Claim.from_json(d["claim"]) if d.get("claim") else None,
            claims_rejected=d.get("claims_rejected", 0),
        )


@dataclass(frozen=True)
class BoardResult:
    """How a board went, on its score sheet line."""

    board: int
    vulnerability: str
    #: None when the board was passed out.
    contract: Optional[Contract]
    #: Tricks declarer's side took (0 for a board passed out).
    declarer_tricks: int
    #: The board's score for North-South; East-West score the opposite.
    score: int

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"board": self.board, "vulnerability": self.vulnerability}
        if self.contract is not None:
            out["contract"] = self.contract.to_json()
        out["declarer_tricks"] = self.declarer_tricks
        out["score"] = self.score
        return out

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "BoardResult":
        return cls(
            d["board"], d["vulnerability"],
            Contract.from_json(d["contract"]) if d.get("contract") else None,
            d["declarer_tricks"], d["score"],
        )


def _cards(values) -> List[Card]:
    return sorted((Card(v) for v in (values or [])), key=lambda c: c.index)


# ---- first choices ------------------------------------------------------------------------

#: High-card points: ace 4, king 3, queen 2, jack 1.
_HCP = {14: 4, 13: 3, 12: 2, 11: 1}


def high_card_points(cards: List[Card]) -> int:
    """The usual count of a hand's strength: 4 for an ace, 3 a king, 2 a queen, 1 a jack."""
    return sum(_HCP.get(c.rank, 0) for c in cards)


def simple_bridge_call(view: "View") -> "Call":
    """A legal call of a plain natural kind: with 12 or more high-card points and no bid yet
    from anyone, open one of the longest suit (the higher of two as long), or 1NT with 15-17
    and no suit of five; with 6 or more after partner opened, raise partner's suit with four
    of it, else bid 1NT if it is still open; otherwise pass. Never doubles."""
    from .calling import PASS, bid

    allowed = view.legal_calls()
    if not allowed:
        raise ValueError("no call is asked for now")
    hand = list(view.hand)
    points = high_card_points(hand)
    lengths = {s: sum(1 for c in hand if c.suit == s) for s in SUITS}
    calls = view.calling.calls if view.calling is not None else []
    bids = [(seat, call) for seat, call in calls if call.kind == "bid"]
    partner = None if view.seat is None else (view.seat + 2) % 4

    def legal(level: int, strain: str):
        wanted = bid(level, strain)
        return wanted if wanted in allowed else None

    choice = None
    if not bids and points >= 12:
        longest = max(SUITS, key=lambda s: (lengths[s], SUITS.index(s)))
        balanced = 15 <= points <= 17 and max(lengths.values()) < 5 and min(lengths.values()) >= 2
        choice = legal(1, NO_TRUMP) if balanced else legal(1, longest)
    elif len(bids) == 1 and bids[0][0] == partner and points >= 6:
        opened = bids[0][1]
        if opened.strain in SUITS and lengths[opened.strain] >= 4:
            choice = legal(opened.level + 1, opened.strain)
        if choice is None:
            choice = legal(1, NO_TRUMP)
    return choice or (PASS if PASS in allowed else allowed[0])


def top_winners(ours: List[Card], theirs: List[Card], trump: Optional[str]) -> int:
    """Tricks ``ours`` (declarer's and dummy's cards together) take off the top, card for card,
    against ``theirs`` (the defenders'): in each suit the cards above every card of theirs in
    it. Where a trump suit is named and they hold trumps, only our trumps above all theirs
    count (their trumps could ruff the rest)."""

    def winners(suit: str) -> int:
        mine = sorted((c.rank for c in ours if c.suit == suit), reverse=True)
        best_theirs = max((c.rank for c in theirs if c.suit == suit), default=0)
        return sum(1 for rank in mine if rank > best_theirs)

    if trump is not None and any(c.suit == trump for c in theirs):
        return winners(trump)
    return sum(winners(s) for s in SUITS)


def simple_answer_claim(view: "View") -> bool:
    """A defender's answer to a claim: accept when declarer's side holds at least as many
    top winners (:func:`top_winners`) as it claims, else reject. With declarer's hand faced
    a defender knows every card: its own, dummy's, declarer's, and so its partner's."""
    bridge = view.bridge
    if bridge is None or bridge.claim is None or bridge.dummy is None:
        return False
    claim = bridge.claim
    ours = list(claim.cards) + list(bridge.dummy.cards)
    seen = set(ours) | set(view.hand) | set(view.played_cards())
    partners = [c for c in view.deck() if c not in seen]
    return top_winners(ours, list(view.hand) + partners, view.trump) >= claim.tricks


__all__ = [
    "NO_TRUMP", "STRAINS", "SEAT_NAMES", "VULNERABILITIES", "Bridge", "BoardResult", "Claim",
    "Contract", "ShownHand", "bid_rank", "bids_from", "high_card_points", "simple_bridge_call",
    "simple_answer_claim", "top_winners",
]
