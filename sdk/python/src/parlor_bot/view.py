"""What your seat can see, in plain Python, kept up to date from the server's messages.

The server sends a complete ``state`` snapshot when you join (and after a reconnection), then one
``event`` per thing that happens. :class:`View` is built from the snapshot
(:meth:`View.from_state`) and follows the game with :meth:`View.apply_event`, exactly as the
server's ``PlayerView::apply`` (shared/src/view/apply.rs) defines it: the tests replay the same
recorded fixtures (tests/fixtures/views/) through both. What differs per variant (hand size, the
prize, who leads first, whether players bid) comes from the variant's
:class:`~parlor_bot.facts.Facts`, as ``GET /api/variants`` publishes them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .bridge import BoardResult, Bridge, Claim, Contract, ShownHand
from .calling import Call, Calling, TrumpMade, calls_allowed
from .cards import Card, HEARTS, by_suit, euchre_deck, full_deck, suit_of, trick_winner
from .facts import DEALER_LEFT, DECLARERS_LEFT, Facts

#: The phases of a match, as the server names them.
PASSING = "passing"
CALLING = "calling"
DISCARDING = "discarding"
BIDDING = "bidding"
PLAYING = "playing"
MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Play:
    """One card on the table and who played it."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in play order (the leader's first), who took it."""

    leader: int
    cards: List[Card]
    winner: int
    players: int = 4
    #: Seats that sat the hand out (Euchre), and so played no card to it.
    out: Tuple[int, ...] = ()

    @property
    def plays(self) -> List[Play]:
        """The cards with the seat that played each."""
        seats = [(self.leader + i) % self.players for i in range(self.players)]
        seats = [s for s in seats if s not in self.out]
        return [Play(s, c) for s, c in zip(seats, self.cards)]

    def card_of(self, seat: int) -> Optional[Card]:
        """The card ``seat`` played to this trick."""
        for p in self.plays:
            if p.seat == seat:
                return p.card
        return None


@dataclass
class HandResult:
    """The score sheet line of one finished hand (all lists are indexed by seat)."""

    hand: int
    points: List[int]
    penalties: List[int]
    tricks: List[int]
    totals: List[int]
    pool_carried: int = 0
    moon: Optional[int] = None
    #: Each seat's bid this hand (Spades, Oh Hell); None where nobody bids.
    bids: Optional[List[int]] = None
    #: Spades: each partnership's bags (overtricks) after this hand, once any penalty has taken
    #: its count off; per seat, partners alike.
    bags: Optional[List[int]] = None
    #: Spades: what bags cost each partnership this hand (negative), per seat; None when
    #: bags cost nothing this hand.
    bag_penalty: Optional[List[int]] = None
    #: Spades: each nil bid's outcome per seat (True made, False failed, None for a seat that
    #: did not bid nil); None when nobody bid nil.
    nil: Optional[List[Optional[bool]]] = None
    #: Spades: the seats whose nil was bid blind (worth 200); None when nobody bid blind nil.
    blind_nil: Optional[List[int]] = None
    #: Euchre: how trump was made; None when the hand was thrown in, and in other variants.
    trump_made: Optional[TrumpMade] = None
    #: Bridge: the board, its contract, declarer's tricks and North-South's score.
    board: Optional[BoardResult] = None

    def to_json(self) -> Dict[str, Any]:
        """As the server writes it."""
        out: Dict[str, Any] = {
            "hand": self.hand, "points": list(self.points), "penalties": list(self.penalties),
            "tricks": list(self.tricks), "totals": list(self.totals),
            "pool_carried": self.pool_carried, "moon": self.moon,
        }
        for name in ("bids", "bags", "bag_penalty", "nil", "blind_nil"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        if self.trump_made is not None:
            out["trump_made"] = self.trump_made.to_json()
        if self.board is not None:
            out["board"] = self.board.to_json()
        return out

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "HandResult":
        """From the server's ``hand_scored`` event or a ``history`` line."""
        return cls(
            hand=d["hand"],
            points=list(d["points"]),
            penalties=list(d.get("penalties") or [0] * len(d["points"])),
            tricks=list(d["tricks"]),
            totals=list(d["totals"]),
            pool_carried=d.get("pool_carried", 0),
            moon=d.get("moon"),
            bids=_optional_list(d.get("bids")),
            bags=_optional_list(d.get("bags")),
            bag_penalty=_optional_list(d.get("bag_penalty")),
            nil=_optional_list(d.get("nil")),
            blind_nil=_optional_list(d.get("blind_nil")),
            trump_made=TrumpMade.from_json(d["trump_made"]) if d.get("trump_made") else None,
            board=BoardResult.from_json(d["board"]) if d.get("board") else None,
        )


@dataclass
class Blind:
    """Blind nil this hand (Spades with the ``blind_nil`` option)."""

    #: Seats whose cards are face down: they may bid blind nil and have not looked. While
    #: yours are, your ``hand`` is empty.
    face_down: List[int] = field(default_factory=list)
    #: Seats that bid blind nil this hand.
    bid: List[int] = field(default_factory=list)
    #: The cards you gave your partner and received from them in the exchange.
    given: List[Card] = field(default_factory=list)
    received: List[Card] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {
            "face_down": list(self.face_down), "bid": list(self.bid),
            "given": _names(self.given), "received": _names(self.received),
        }

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Blind":
        return cls(
            face_down=list(d.get("face_down", [])), bid=list(d.get("bid", [])),
            given=_cards(d.get("given")), received=_cards(d.get("received")),
        )


def _optional_list(values) -> Optional[List[Any]]:
    return None if values is None else list(values)


def _cards(values) -> List[Card]:
    return by_suit(Card(v) for v in (values or []))


def _names(cards) -> List[str]:
    """Cards as the server writes a set: in the engine's order (by suit, then rank)."""
    return [str(c) for c in by_suit(cards)]


#: Seats to the left that passed cards travel, at a table of ``n``.
_PASS_STEPS = {"left": lambda n: 1, "right": lambda n: n - 1, "across": lambda n: n // 2}


@dataclass
class View:
    """The table as your seat sees it. Seats are numbers ``0..players-1``, clockwise; in Whist
    seats 0 and 2 are partners against 1 and 3. Every list "per seat" is indexed by seat."""

    variant: str
    options: Dict[str, Any]
    seat: Optional[int]
    players: int
    phase: str = PLAYING
    hand_number: int = 0
    dealer: int = 0
    #: Your cards, sorted by suit then rank.
    hand: List[Card] = field(default_factory=list)
    #: How many cards each seat holds.
    hand_sizes: List[int] = field(default_factory=list)
    #: The trump suit (``"C"``, ``"D"``, ``"H"``, ``"S"``) or None.
    trump: Optional[str] = None
    #: Cards shown to everyone that are not on the table (the whist dealer's trump card,
    #: hearts5's undealt pair).
    face_up: List[Card] = field(default_factory=list)
    #: Who leads the trick on the table (None when not known yet: Hearts before 2C is led).
    trick_leader: Optional[int] = None
    #: The trick on the table, in play order.
    trick: List[Play] = field(default_factory=list)
    #: The tricks finished this hand, in order.
    tricks: List[Trick] = field(default_factory=list)
    #: Tricks taken this hand per seat.
    tricks_won: List[int] = field(default_factory=list)
    #: Each seat's bid this hand, None until made (Spades, Oh Hell; in Spades 0 is nil). The
    #: whole list is None in the variants where nobody bids.
    bids: Optional[List[Optional[int]]] = None
    hearts_broken: bool = False
    #: Where cards are passed this hand ("left", "right", "across"), or None.
    pass_direction: Optional[str] = None
    #: The cards you passed and received this hand.
    passed: List[Card] = field(default_factory=list)
    received: List[Card] = field(default_factory=list)
    #: Seats that have not chosen their pass yet.
    pass_waiting: List[int] = field(default_factory=list)
    #: Blind nil this hand, at a table that plays it (Spades' ``blind_nil``); None elsewhere.
    blind: Optional[Blind] = None
    #: The making of trump this hand, where players make it (Euchre): the calls, trump as
    #: made, who sits out, the card picked up and your discard; Bridge's auction (its
    #: ``calls``). None elsewhere.
    calling: Optional[Calling] = None
    #: Bridge: the board, its contract, dummy's hand once shown and a claim being answered.
    #: None elsewhere.
    bridge: Optional[Bridge] = None
    #: Match totals per seat (Whist: both partners show their side's points; Filippa: the
    #: positive totals).
    scores: List[int] = field(default_factory=list)
    #: Filippa's negative totals.
    negatives: List[int] = field(default_factory=list)
    #: Filippa's prize pool for this hand.
    pool: int = 0
    #: One line per finished hand.
    history: List[HandResult] = field(default_factory=list)
    #: Who has to act now.
    to_act: List[int] = field(default_factory=list)
    #: The moves you may make now: the cards you may play, or (passing) the cards you may pass.
    #: Empty when you are asked to bid: see :attr:`legal_bids`.
    legal: List[Card] = field(default_factory=list)
    #: "play", "pass", "bid", "blind" (your cards are face down: bid blind nil or look),
    #: "exchange" (give your partner cards after a blind nil), "call" (Euchre: make trump or
    #: pass; Bridge: a call of the auction; see :meth:`legal_calls`), "discard" (Euchre's
    #: dealer: one card of ``legal``), "answer_claim" (Bridge's defender: accept or reject
    #: declarer's claim of ``claim_tricks``) or "wait". On dummy's turn declarer's "play"
    #: ``legal`` holds dummy's cards.
    legal_kind: str = "wait"
    #: When ``legal_kind == "answer_claim"``: the tricks declarer claims of those left.
    claim_tricks: int = 0
    #: Cards to pass (or give in an exchange), when ``legal_kind`` is "pass" or "exchange".
    pass_count: int = 0
    #: When ``legal_kind == "exchange"``: the partner who receives the cards.
    exchange_to: Optional[int] = None
    #: When ``legal_kind == "bid"``: the lowest and highest bids allowed, and the one bid
    #: between them that is not (Oh Hell's dealer under the hook), if any.
    bid_min: int = 0
    bid_max: int = 0
    bid_forbidden: Optional[int] = None
    #: When ``legal_kind == "call"``: the prompt's ``legal`` as the server sent it (which
    #: calls are open); :meth:`legal_calls` lists them.
    call_prompt: Optional[Dict[str, Any]] = None
    #: The winners, once the match is over.
    winners: List[int] = field(default_factory=list)
    #: The server's event counter this view is current with.
    seq: int = 0
    #: The variant's rules as ``/api/variants`` publishes them; needed to follow events.
    facts: Optional[Facts] = None

    # ---- building -------------------------------------------------------------------------

    @classmethod
    def from_state(cls, msg: Dict[str, Any], facts: Optional[Facts] = None) -> "View":
        """From a ``state`` message (or its ``view`` object). ``facts`` (the variant's entry of
        ``/api/variants``) are needed to follow events afterwards; a :class:`Session` passes
        them."""
        v = msg.get("view", msg)
        n = v["players"]
        trick = v.get("trick") or {}
        pass_info = v.get("pass")
        out = tuple((v.get("calling") or {}).get("out") or ())
        view = cls(
            variant=v["variant"],
            options=dict(v.get("options") or {}),
            seat=v.get("seat"),
            players=n,
            phase=v.get("phase", PLAYING),
            hand_number=v.get("hand_number", 0),
            dealer=v.get("dealer", 0),
            hand=_cards(v.get("hand")),
            hand_sizes=list(v.get("hand_sizes") or [0] * n),
            trump=v.get("trump"),
            face_up=_cards(v.get("face_up")),
            trick_leader=trick.get("leader"),
            trick=[Play(p["seat"], Card(p["card"])) for p in trick.get("plays", [])],
            tricks=[
                Trick(t["leader"], [Card(c) for c in t["cards"]], t["winner"], n, out)
                for t in v.get("tricks", [])
            ],
            tricks_won=list(v.get("tricks_won") or [0] * n),
            bids=_optional_list(v.get("bids")),
            hearts_broken=bool(v.get("hearts_broken", False)),
            pass_direction=pass_info["direction"] if pass_info else None,
            passed=_cards(pass_info.get("given")) if pass_info else [],
            received=_cards(pass_info.get("received")) if pass_info else [],
            pass_waiting=list(pass_info.get("waiting", [])) if pass_info else [],
            blind=Blind.from_json(v["blind"]) if v.get("blind") else None,
            calling=Calling.from_json(v["calling"]) if v.get("calling") else None,
            bridge=Bridge.from_json(v["bridge"]) if v.get("bridge") else None,
            scores=list(v.get("totals") or [0] * n),
            negatives=list(v.get("negatives") or [0] * n),
            pool=v.get("pool", 0),
            history=[HandResult.from_json(h) for h in v.get("history", [])],
            to_act=list(v.get("to_act", [])),
            winners=list(v.get("winners", [])),
            seq=msg.get("seq", 0) if "view" in msg else 0,
            facts=facts,
        )
        view.set_legal(v.get("legal"))
        return view

    def copy(self) -> "View":
        """A deep copy, safe to hand to a bot that might change it."""
        return copy.deepcopy(self)

    def set_legal(self, legal: Optional[Dict[str, Any]]) -> None:
        """Takes the legal moves of a ``your_turn`` prompt (or a snapshot's ``legal``)."""
        legal = legal or {"type": "wait"}
        kind = legal.get("type", "wait")
        self.legal_kind = kind
        self.bid_min, self.bid_max, self.bid_forbidden = 0, 0, None
        self.call_prompt = None
        self.claim_tricks = 0
        if kind == "call":
            self.legal = []
            self.pass_count = 0
            self.call_prompt = dict(legal)
        elif kind == "discard":
            self.legal = _cards(legal.get("from"))
            self.pass_count = 0
        elif kind == "bid":
            self.legal = []
            self.pass_count = 0
            self.bid_min = int(legal["min"])
            self.bid_max = int(legal["max"])
            self.bid_forbidden = legal.get("forbidden")
        elif kind == "play":
            self.legal = _cards(legal.get("cards"))
            self.pass_count = 0
        elif kind == "pass":
            self.legal = _cards(legal.get("from"))
            self.pass_count = int(legal["count"])
            if legal.get("direction"):
                self.pass_direction = legal["direction"]
        elif kind == "exchange":
            self.legal = _cards(legal.get("from"))
            self.pass_count = int(legal["count"])
            self.exchange_to = legal.get("to")
        elif kind == "answer_claim":
            self.legal = []
            self.pass_count = 0
            self.claim_tricks = int(legal["tricks"])
        else:
            self.legal = []
            self.pass_count = 0

    # ---- following the game ---------------------------------------------------------------

    def apply_event(self, event: Dict[str, Any], seq: Optional[int] = None) -> None:
        """Updates the view with one event (the ``event`` object of an ``event`` message)."""
        kind = event.get("kind")
        if kind != "pass_chosen" or event.get("seat") == self.seat:
            # The game moved on: an earlier prompt is stale; the next `your_turn` brings
            # fresh moves.
            self.set_legal(None)
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is not None:
            handler(event)
        if seq is not None:
            self.seq = seq

    def apply_legal(self, legal: Optional[Dict[str, Any]]) -> None:
        """Takes the ``legal`` of a ``your_turn`` prompt: what you may do now."""
        self.set_legal(legal)
        if self.legal_kind == "play" and self.seat is not None:
            # Asked to play: it is our turn (or, for Bridge's declarer, dummy's: the cards
            # asked for are dummy's), and if the trick is empty that seat leads it.
            self.to_act = [self.seat]
            dummy = self.bridge.dummy if self.bridge is not None else None
            plays_for = self.seat
            if (
                dummy is not None and dummy.seat != self.seat and self.legal
                and set(self.legal) <= set(dummy.cards)
            ):
                plays_for = dummy.seat
            if not self.trick:
                self.trick_leader = plays_for

    def apply_message(self, msg: Dict[str, Any]) -> bool:
        """Applies a server message if it concerns the game (``state``, ``event``,
        ``your_turn``); returns True when it did."""
        t = msg.get("type")
        if t == "event":
            self.apply_event(msg["event"], msg.get("seq"))
        elif t == "your_turn":
            self.apply_legal(msg.get("legal"))
        elif t == "state":
            fresh = View.from_state(msg, self.facts)
            self.__dict__.update(fresh.__dict__)
        else:
            return False
        return True

    def _facts(self) -> Facts:
        if self.facts is None:
            raise ValueError(
                "this view has no facts about its variant: build it with "
                "View.from_state(msg, facts) (facts from GET /api/variants)"
            )
        return self.facts

    def _on_hand_started(self, e: Dict[str, Any]) -> None:
        n = self.players
        facts = self._facts()
        if e["hand"] == 0:
            # Hands count from 0 in each match: a new match, with a clean score sheet.
            self.history = []
            self.scores = [0] * n
            self.negatives = [0] * n
            self.winners = []
            if facts.prize:
                self.pool = facts.prize
        self.hand_number = e["hand"]
        self.dealer = e["dealer"]
        self.pass_direction = e.get("pass")
        self.hand = []
        # Where hands change size (Oh Hell) the event says how many cards each seat gets.
        size = e.get("hand_size")
        self.hand_sizes = [facts.hand_size if size is None else size] * n
        self.bids = [None] * n if facts.bidding else None
        self.trump = None
        self.face_up = []
        self.trick = []
        self.trick_leader = None
        self.tricks = []
        self.tricks_won = [0] * n
        self.hearts_broken = False
        self.passed = []
        self.received = []
        self.blind = Blind() if self.options.get("blind_nil") is True else None
        calls = facts.trump in ("called", "contract")
        self.calling = Calling() if calls else None
        self.bridge = None
        if self.pass_direction:
            self.phase = PASSING
            self.pass_waiting = list(range(n))
            self.to_act = list(range(n))
        elif calls:
            # Bridge's auction starts with the dealer, Euchre's calls at the dealer's left.
            first = self.dealer if facts.trump == "contract" else (self.dealer + 1) % n
            self.pass_waiting = []
            self.phase = CALLING
            self.trick_leader = first
            self.to_act = [first]
        else:
            self.pass_waiting = []
            self._bidding_or_play()

    def _bidding_or_play(self) -> None:
        """After the deal and any passing: the dealer's left bids first where players bid,
        else play starts."""
        if self.bids is not None:
            self.phase = BIDDING
            self.to_act = [(self.dealer + 1) % self.players]
        else:
            self.phase = PLAYING
            self._find_first_leader()

    def _on_bid(self, e: Dict[str, Any]) -> None:
        # A bid in a variant without bidding (no server sends one) changes nothing.
        if self.bids is None:
            return
        seat = e["seat"]
        self.bids[seat] = e["tricks"]
        if all(b is not None for b in self.bids):
            if self.blind is not None and self.blind.bid:
                # After a blind nil the bidder's partner gives cards first.
                self.phase = "exchanging"
                self.to_act = [(self.blind.bid[0] + 2) % self.players]
                return
            # The last bid (the dealer's): play starts.
            self.phase = PLAYING
            self._find_first_leader()
        else:
            self.to_act = [(seat + 1) % self.players]

    def _find_first_leader(self) -> None:
        """Before the first card of a hand: who leads, as far as we can know."""
        if self.phase != PLAYING or self.trick or self.tricks:
            return
        first_lead = self._facts().first_lead
        if first_lead == DEALER_LEFT:
            self.trick_leader = self._next_playing(self.dealer)
        elif first_lead == DECLARERS_LEFT:
            contract = self.bridge.contract if self.bridge is not None else None
            self.trick_leader = contract.opening_leader if contract is not None else None
        else:
            self.trick_leader = self._two_of_clubs_holder()
        self.to_act = [self.trick_leader] if self.trick_leader is not None else []

    def _two_of_clubs_holder(self) -> Optional[int]:
        """Who holds 2C, if we can know: we do, or the seat we passed it to."""
        two = Card("2C")
        if self.seat is None:
            return None
        if two in self.hand:
            return self.seat
        if self.pass_direction and two in self.passed:
            return (self.seat + _PASS_STEPS[self.pass_direction](self.players)) % self.players
        return None

    def _on_dealt(self, e: Dict[str, Any]) -> None:
        if e["seat"] == self.seat:
            self.hand = _cards(e["cards"])
        self.hand_sizes[e["seat"]] = len(e["cards"])
        self._find_first_leader()

    def _on_trump_shown(self, e: Dict[str, Any]) -> None:
        self.trump = e["trump"]
        self.face_up = _cards(e.get("cards"))

    def _on_pass_chosen(self, e: Dict[str, Any]) -> None:
        seat = e["seat"]
        if seat in self.to_act:
            self.to_act.remove(seat)
        if not self.pass_direction:
            return
        if seat in self.pass_waiting:
            self.pass_waiting.remove(seat)
        if self.phase == PASSING and not self.pass_waiting:
            # Everyone has chosen: the cards change hands and bidding or play starts.
            self._bidding_or_play()

    def _on_cards_passed(self, e: Dict[str, Any]) -> None:
        cards = [Card(c) for c in e["cards"]]
        exchange = self.blind is not None and not self.pass_direction
        if e["from"] == self.seat:
            if exchange:
                self.blind.given = by_suit(cards)
            else:
                self.passed = by_suit(cards)
            self.hand = by_suit(c for c in self.hand if c not in cards)
        if e["to"] == self.seat:
            if exchange:
                self.blind.received = by_suit(cards)
            else:
                self.received = by_suit(cards)
            self.hand = by_suit(self.hand + [c for c in cards if c not in self.hand])
        self._find_first_leader()

    def _on_dealt_face_down(self, e: Dict[str, Any]) -> None:
        if self.blind is not None:
            self.blind.face_down = list(e["seats"])

    def _on_cards_seen(self, e: Dict[str, Any]) -> None:
        if self.blind is not None and e["seat"] in self.blind.face_down:
            self.blind.face_down.remove(e["seat"])

    def _on_blind_nil(self, e: Dict[str, Any]) -> None:
        if self.blind is not None:
            self.blind.bid.append(e["seat"])

    def _on_exchanged(self, e: Dict[str, Any]) -> None:
        """Cards went to a partner: the blind nil bidder gives back next, then play starts."""
        frm, to, count = e["from"], e["to"], e["count"]
        self.hand_sizes[frm] = max(0, self.hand_sizes[frm] - count)
        self.hand_sizes[to] += count
        if self.blind is not None and to in self.blind.bid:
            self.to_act = [to]
        else:
            self.phase = PLAYING
            self._find_first_leader()

    # ---- Euchre: making trump ------------------------------------------------------------

    def _next_playing(self, seat: int) -> int:
        """The next seat to the left of ``seat`` that does not sit this hand out."""
        out = self.sitting_out
        nxt = (seat + 1) % self.players
        for _ in range(self.players):
            if nxt not in out:
                break
            nxt = (nxt + 1) % self.players
        return nxt

    def _on_turned_up(self, e: Dict[str, Any]) -> None:
        self.face_up = _cards(e.get("cards"))

    def _on_called(self, e: Dict[str, Any]) -> None:
        """A seat called. Until trump is made the next seat calls; once it is (where a
        defender may defend alone) the defender after the maker, then their partner. A
        ``trump_made`` follows a call that makes trump, and says what comes next."""
        if self.calling is None:
            return
        seat, call = e["seat"], Call.from_json(e)
        n = self.players
        self.calling.calls.append((seat, call))
        made = self.calling.made
        if call.kind in ("pass", "bid", "double", "redouble") and made is None:
            # Bridge's auction goes round until a `contract` (or `thrown_in`) ends it.
            self.to_act = [(seat + 1) % n]
        elif call.kind == "pass" and seat == (made.maker + 1) % n:
            self.to_act = [(seat + 2) % n]
        elif call.kind == "defend_alone" and made is not None:
            self.calling.made = TrumpMade(made.trump, made.maker, made.alone, seat)
            self._calls_done()
        elif call.kind == "pass":
            self._calls_done()

    def _on_trump_made(self, e: Dict[str, Any]) -> None:
        self.trump = e["trump"]
        if self.calling is None:
            return
        maker = e["maker"]
        self.calling.made = TrumpMade(e["trump"], maker, bool(e.get("alone", False)))
        if self.options.get("defend_alone") is True:
            # The defenders may still defend alone, the seat after the maker first.
            self.to_act = [(maker + 1) % self.players]
        else:
            self._calls_done()

    def _calls_done(self) -> None:
        """The calls are over: play starts, unless a ``picked_up`` that follows starts the
        dealer's discard first."""
        self.phase = PLAYING
        self._find_first_leader()

    def _on_sits_out(self, e: Dict[str, Any]) -> None:
        if self.calling is not None and e["seat"] not in self.calling.out:
            self.calling.out = sorted(self.calling.out + [e["seat"]])
        self._find_first_leader()

    def _on_picked_up(self, e: Dict[str, Any]) -> None:
        seat, card = e["seat"], Card(e["card"])
        if card in self.face_up:
            self.face_up.remove(card)
        self.hand_sizes[seat] += 1
        if seat == self.seat and card not in self.hand:
            self.hand = by_suit(self.hand + [card])
        if self.calling is not None:
            self.calling.picked_up = card
        self.phase = DISCARDING
        self.to_act = [seat]
        # Nobody leads until the discard.
        self.trick_leader = (self.dealer + 1) % self.players

    def _on_discarded(self, e: Dict[str, Any]) -> None:
        seat = e["seat"]
        self.hand_sizes[seat] = max(0, self.hand_sizes[seat] - 1)
        self.phase = PLAYING
        self._find_first_leader()

    def _on_discarded_card(self, e: Dict[str, Any]) -> None:
        if e["seat"] != self.seat:
            return
        card = Card(e["card"])
        if card in self.hand:
            self.hand.remove(card)
        if self.calling is not None:
            self.calling.discarded = card

    def _on_thrown_in(self, e: Dict[str, Any]) -> None:
        self.to_act = []

    # ---- Bridge: the board, dummy and claims -------------------------------------------------

    def _player_of(self, seat: int) -> int:
        """The seat that acts for ``seat``'s cards: declarer for Bridge's dummy."""
        contract = self.bridge.contract if self.bridge is not None else None
        if contract is not None and contract.dummy == seat:
            return contract.declarer
        return seat

    def _on_board(self, e: Dict[str, Any]) -> None:
        self.bridge = Bridge(e["board"], e["vulnerability"])

    def _on_contract(self, e: Dict[str, Any]) -> None:
        contract = Contract.from_json(e["contract"])
        if self.bridge is not None:
            self.bridge.contract = contract
        self.trump = contract.trump
        self._calls_done()

    def _on_dummy_shown(self, e: Dict[str, Any]) -> None:
        if self.bridge is not None:
            self.bridge.dummy = ShownHand(e["seat"], _cards(e["cards"]))

    def _on_claimed(self, e: Dict[str, Any]) -> None:
        """Declarer claimed: the defenders answer, lowest seat first."""
        seat = e["seat"]
        if self.bridge is not None:
            self.bridge.claim = Claim(seat, e["tricks"], _cards(e["cards"]))
        self.to_act = sorted([(seat + 1) % self.players, (seat + 3) % self.players])

    def _on_claim_answered(self, e: Dict[str, Any]) -> None:
        """A defender answered: a rejection withdraws the claim and play goes on."""
        if self.bridge is None:
            return
        seat = e["seat"]
        if e["accept"]:
            if self.bridge.claim is not None:
                self.bridge.claim.accepted.append(seat)
                if len(self.bridge.claim.accepted) == 2:
                    self.bridge.claim = None  # both accepted: settled, the board ends
            if seat in self.to_act:
                self.to_act.remove(seat)
            return
        self.bridge.claim = None
        self.bridge.claims_rejected += 1
        if self.trick:
            nxt = (self.trick[-1].seat + 1) % self.players
        else:
            nxt = self.trick_leader if self.trick_leader is not None else 0
        self.to_act = [self._player_of(nxt)]

    def _on_played(self, e: Dict[str, Any]) -> None:
        seat, card = e["seat"], Card(e["card"])
        if not self.trick:
            self.trick_leader = seat
        self.trick.append(Play(seat, card))
        if self.hand_sizes[seat] > 0:
            self.hand_sizes[seat] -= 1
        if seat == self.seat and card in self.hand:
            self.hand.remove(card)
        # The whist dealer's trump card is face up only until it is played.
        if card in self.face_up:
            self.face_up.remove(card)
        if card.suit == HEARTS:
            self.hearts_broken = True
        self.phase = PLAYING
        if self.bridge is not None and self.bridge.dummy is not None and card in self.bridge.dummy.cards:
            self.bridge.dummy.cards.remove(card)
        playing = self.players - len(self.sitting_out)
        self.to_act = (
            [self._player_of(self._next_playing(seat))] if len(self.trick) < playing else []
        )

    def _on_trick_won(self, e: Dict[str, Any]) -> None:
        winner = e["winner"]
        cards_set = {Card(c) for c in e["cards"]}
        plays = self.trick
        if plays and {p.card for p in plays} == cards_set:
            leader, cards = plays[0].seat, [p.card for p in plays]
        else:
            # Our trick is out of step (we joined mid-trick): keep what the event says.
            leader = self.trick_leader if self.trick_leader is not None else winner
            cards = sorted(cards_set, key=lambda c: c.index)
        self.tricks.append(Trick(leader, cards, winner, self.players, tuple(self.sitting_out)))
        self.tricks_won[winner] += 1
        self.trick = []
        self.trick_leader = winner
        if self._facts().trick_points:
            # A trick is a point the moment it is won: the totals keep count as they go.
            self.scores[winner] += 1
        self.to_act = [self._player_of(winner)] if self.hand_sizes[winner] > 0 else []

    def _on_bad_card(self, e: Dict[str, Any]) -> None:
        self.scores[e["seat"]] += e["penalty"]
        self.to_act = []

    def _on_hand_scored(self, e: Dict[str, Any]) -> None:
        result = HandResult.from_json(e)
        for s, p in enumerate(result.penalties):
            self.negatives[s] += p
        self.scores = list(result.totals)
        prize = self._facts().prize
        if prize:
            self.pool = prize + result.pool_carried
        self.history.append(result)
        self.tricks_won = list(result.tricks)
        self.to_act = []

    def _on_match_over(self, e: Dict[str, Any]) -> None:
        self.phase = MATCH_OVER
        if self.bridge is not None:
            self.bridge.dummy = None
        self.winners = list(e["winners"])
        self.scores = list(e["totals"])
        self.to_act = []

    def to_json(self) -> Dict[str, Any]:
        """The view as the server writes a ``PlayerView`` (the ``view`` of a ``state``
        message). Where we cannot know who leads the trick, ``trick.leader`` is the dealer's
        left, as the server's own followed view has it."""
        n = self.players
        leader = self.trick_leader
        if leader is None:
            leader = (self.dealer + 1) % n
        if self.legal_kind == "play":
            legal: Dict[str, Any] = {"type": "play", "cards": _names(self.legal)}
        elif self.legal_kind == "pass":
            legal = {
                "type": "pass", "count": self.pass_count, "direction": self.pass_direction,
                "from": _names(self.legal),
            }
        elif self.legal_kind == "bid":
            legal = {
                "type": "bid", "min": self.bid_min, "max": self.bid_max,
                "forbidden": self.bid_forbidden,
            }
        elif self.legal_kind == "blind":
            legal = {"type": "blind"}
        elif self.legal_kind == "call" and self.call_prompt is not None:
            legal = dict(self.call_prompt)
        elif self.legal_kind == "discard":
            legal = {"type": "discard", "from": _names(self.legal)}
        elif self.legal_kind == "exchange":
            legal = {
                "type": "exchange", "count": self.pass_count, "to": self.exchange_to,
                "from": _names(self.legal),
            }
        elif self.legal_kind == "answer_claim":
            legal = {"type": "answer_claim", "tricks": self.claim_tricks}
        else:
            legal = {"type": "wait"}
        out: Dict[str, Any] = {
            "variant": self.variant,
            "options": dict(self.options),
            "seat": self.seat,
            "players": n,
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "hand": _names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "trump": self.trump,
            "face_up": _names(self.face_up),
            "trick": {
                "leader": leader,
                "plays": [{"seat": p.seat, "card": str(p.card)} for p in self.trick],
            },
            "tricks": [
                {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "hearts_broken": self.hearts_broken,
            "pass": None if not self.pass_direction else {
                "direction": self.pass_direction,
                "given": _names(self.passed),
                "received": _names(self.received),
                "waiting": list(self.pass_waiting),
            },
            "totals": list(self.scores),
            "negatives": list(self.negatives),
            "pool": self.pool,
            "history": [h.to_json() for h in self.history],
            "to_act": list(self.to_act),
            "legal": legal,
            "winners": list(self.winners),
        }
        if self.bids is not None:
            out["bids"] = list(self.bids)
        if self.blind is not None:
            out["blind"] = self.blind.to_json()
        if self.calling is not None:
            out["calling"] = self.calling.to_json()
        if self.bridge is not None:
            out["bridge"] = self.bridge.to_json()
        return out

    # ---- questions bots ask ---------------------------------------------------------------

    @property
    def partner(self) -> Optional[int]:
        """Your partner's seat, across the table (Whist only; None elsewhere)."""
        # A view built by hand without facts is taken to be Whist's when it says so.
        partners = self.facts.partnerships if self.facts else self.variant == "whist"
        if not partners or self.seat is None:
            return None
        return (self.seat + 2) % 4

    @property
    def opponents(self) -> List[int]:
        """The other seats (Whist: the other side)."""
        return [s for s in range(self.players) if s != self.seat and s != self.partner]

    @property
    def team_scores(self) -> Optional[List[int]]:
        """Whist: the points of your side and of the other side, in that order."""
        if self.partner is None or not self.scores:
            return None
        return [self.scores[self.seat], self.scores[(self.seat + 1) % 4]]

    @property
    def bowers(self) -> bool:
        """True where the jacks of trump's colour are its two highest trumps (Euchre): the
        jack of trump (right bower) above the jack of the same colour (left bower), which
        plays as a trump for following suit too."""
        if self.facts is not None:
            return self.facts.trump == "called"
        return self.variant == "euchre"

    def suit_of(self, card: Card) -> str:
        """The suit ``card`` plays as this hand: its own, but trump for Euchre's left bower."""
        return suit_of(Card(card), self.trump, self.bowers)

    @property
    def sitting_out(self) -> List[int]:
        """Seats sitting this hand out (Euchre: a lone player's partner): they play no card,
        and a trick has one card fewer for each."""
        return list(self.calling.out) if self.calling is not None else []

    @property
    def turned_card(self) -> Optional[Card]:
        """Euchre: this hand's turned-up card, face up or (once ordered up) picked up by the
        dealer; None elsewhere."""
        if self.calling is None:
            return None
        if self.calling.picked_up is not None:
            return self.calling.picked_up
        return self.face_up[0] if self.face_up else None

    @property
    def trump_made(self) -> Optional[TrumpMade]:
        """Euchre: how trump was made this hand (trump, maker, alone, a lone defender), once
        it is."""
        return self.calling.made if self.calling is not None else None

    def legal_calls(self) -> List[Call]:
        """The calls you may make now (empty unless ``legal_kind == "call"``), in the
        server's order: pass first, then order up or each suit you may name, not alone then
        alone, then defend alone."""
        if self.legal_kind != "call":
            return []
        return calls_allowed(self.call_prompt)

    @property
    def led_suit(self) -> Optional[str]:
        """The suit of the trick's first card (the left bower leads trump), or None when you
        lead."""
        return self.suit_of(self.trick[0].card) if self.trick else None

    @property
    def leading(self) -> bool:
        """True when the trick on the table is empty, so you lead it."""
        return not self.trick

    @property
    def trick_cards(self) -> List[Card]:
        """The cards on the table, in play order."""
        return [p.card for p in self.trick]

    def winning_play(self) -> Optional[Play]:
        """The card taking the trick on the table so far, and who played it."""
        if not self.trick:
            return None
        return self.trick[trick_winner(self.trick_cards, self.trump, self.bowers)]

    def would_win(self, card: Card) -> bool:
        """True when ``card``, played now, would take the trick so far (you lead: always).
        A card that would not win never can: the cards after it only raise the bar."""
        cards = self.trick_cards + [Card(card)]
        return trick_winner(cards, self.trump, self.bowers) == len(cards) - 1

    def played_cards(self) -> List[Card]:
        """Every card played this hand, in finished tricks or on the table."""
        done = [c for t in self.tricks for c in t.cards]
        return done + self.trick_cards

    def deck(self) -> List[Card]:
        """The cards this variant deals: Euchre's 24 (nine to ace), Spades' with jokers, or
        all 52."""
        if self.variant == "euchre":
            return euchre_deck()
        return full_deck(jokers=bool(self.options.get("jokers")))

    def unseen_cards(self) -> List[Card]:
        """Cards whose place you cannot know: not yours, not played, not face up, not your
        own discard."""
        known = set(self.hand) | set(self.played_cards()) | set(self.face_up)
        if self.calling is not None and self.calling.discarded is not None:
            known.add(self.calling.discarded)
        known |= set(self.shown_cards())
        return [c for c in self.deck() if c not in known]

    def shown_cards(self) -> List[Card]:
        """Cards laid face up for everyone: Bridge's dummy once the opening lead is made, and
        declarer's hand with a claim."""
        if self.bridge is None:
            return []
        shown = list(self.bridge.dummy.cards) if self.bridge.dummy is not None else []
        if self.bridge.claim is not None:
            shown += self.bridge.claim.cards
        return by_suit(shown)

    @property
    def contract(self) -> Optional[Contract]:
        """Bridge: the contract, once the auction ends in one."""
        return self.bridge.contract if self.bridge is not None else None

    @property
    def declaring(self) -> bool:
        """Bridge: True when you are declarer (and so play dummy's cards too)."""
        contract = self.contract
        return contract is not None and contract.declarer == self.seat

    @property
    def playing_dummy(self) -> bool:
        """Bridge: True when the card asked of you now is dummy's (declarer on dummy's
        turn)."""
        dummy = self.bridge.dummy if self.bridge is not None else None
        return (
            self.legal_kind == "play" and dummy is not None and dummy.seat != self.seat
            and bool(self.legal) and set(self.legal) <= set(dummy.cards)
        )

    def cards_out(self, suit: str) -> List[Card]:
        """The cards of ``suit`` still held by the others (that you have not seen played);
        in Euchre the left bower counts as trump."""
        return sorted(c for c in self.unseen_cards() if self.suit_of(c) == suit) + sorted(
            c for c in self.face_up if self.suit_of(c) == suit and c not in self.hand
        )

    @property
    def legal_bids(self) -> List[int]:
        """The bids you may make now, lowest first (empty unless ``legal_kind == "bid"``)."""
        if self.legal_kind != "bid":
            return []
        return [b for b in range(self.bid_min, self.bid_max + 1) if b != self.bid_forbidden]

    def nearest_bid(self, tricks: float) -> int:
        """The allowed bid closest to ``tricks`` (the lower one on a tie): an estimate made
        legal, clear of the range's ends and of the forbidden bid."""
        bids = self.legal_bids
        if not bids:
            raise ValueError("no bid is asked for now")
        return min(bids, key=lambda b: (abs(b - tricks), b))

    @property
    def my_bid(self) -> Optional[int]:
        """Your bid this hand, once made (None before, and where nobody bids)."""
        if self.bids is None or self.seat is None:
            return None
        return self.bids[self.seat]

    def has_suit(self, suit: str) -> bool:
        """True when your hand holds a card of ``suit`` (in Euchre the left bower is a
        trump)."""
        return any(self.suit_of(c) == suit for c in self.hand)

    def summary(self) -> str:
        """One readable paragraph about the situation, for error reports."""
        lines = [
            f"{self.variant}, hand {self.hand_number + 1}, trick {len(self.tricks) + 1}, "
            f"seat {self.seat}",
            "hand: " + " ".join(str(c) for c in self.hand),
        ]
        if self.trump:
            lines.append(f"trump: {self.trump}")
        if self.calling is not None:
            if self.turned_card is not None and self.calling.made is None:
                lines.append(f"turned up: {self.turned_card}")
            if self.calling.calls:
                lines.append("calls: " + ", ".join(
                    f"seat {s} {c}" for s, c in self.calling.calls))
            if self.calling.out:
                lines.append("sitting out: " + ", ".join(map(str, self.calling.out)))
        if self.bridge is not None:
            lines.append(f"board {self.bridge.board}, vulnerable: {self.bridge.vulnerability}")
            if self.bridge.contract is not None:
                lines.append(f"contract: {self.bridge.contract}")
            if self.bridge.dummy is not None:
                lines.append(f"dummy (seat {self.bridge.dummy.seat}): "
                             + " ".join(str(c) for c in self.bridge.dummy.cards))
            if self.bridge.claim is not None:
                lines.append(f"claim: seat {self.bridge.claim.seat} claims "
                             f"{self.bridge.claim.tricks} with "
                             + " ".join(str(c) for c in self.bridge.claim.cards))
        if self.trick:
            lines.append("on the table: " + ", ".join(f"seat {p.seat} {p.card}" for p in self.trick))
        elif self.phase == PLAYING:
            lines.append("on the table: nothing (you lead)")
        if self.bids is not None and any(b is not None for b in self.bids):
            lines.append("bids: " + ", ".join(
                f"seat {s} {'-' if b is None else b}" for s, b in enumerate(self.bids)))
        if self.legal_kind == "pass":
            lines.append(f"to do: pass {self.pass_count} cards {self.pass_direction}")
        elif self.legal_kind == "bid":
            but = "" if self.bid_forbidden is None else f", not {self.bid_forbidden}"
            lines.append(f"to do: bid {self.bid_min} to {self.bid_max} tricks{but}")
        elif self.legal_kind == "call":
            lines.append("to do: call: " + ", ".join(str(c) for c in self.legal_calls()))
        elif self.legal_kind == "discard":
            lines.append("to do: discard one of " + " ".join(str(c) for c in self.legal))
        elif self.legal_kind == "answer_claim":
            lines.append(f"to do: accept or reject a claim of {self.claim_tricks} tricks")
        else:
            lines.append("legal: " + " ".join(str(c) for c in self.legal))
        return "\n".join(lines)
