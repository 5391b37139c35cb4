"""Cards, suits and ranks, written as on the wire: ``"QS"``, ``"TD"``, ``"2C"``.

There is one card syntax, the protocol's ``^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$``:
a rank (``T`` or ``10`` for ten) then a suit, or ``LJ`` / ``BJ`` for the little / big joker, in
either case, nothing around them. ``Card`` accepts exactly what the server accepts, and
``str(card)`` is always the canonical form the server writes: two capitals with ``T`` for ten.

A :class:`Card` has a ``rank`` (2 to 14, ace high) and a ``suit`` (one of ``"C"``, ``"D"``,
``"H"``, ``"S"``). The jokers (Spades with the option ``jokers``) are spades of rank 15 (little)
and 16 (big), above the ace, so following suit and :func:`trick_winner` need nothing special.
Cards compare by rank first, then by suit (clubs < diamonds < hearts < spades), so
``min(view.legal)`` is the lowest card you may play and ``max(cards)`` the highest.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Union

CLUBS = "C"
DIAMONDS = "D"
HEARTS = "H"
SPADES = "S"

#: The suits, lowest first (the order Parlor sorts hands in).
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)

SUIT_NAMES = {CLUBS: "clubs", DIAMONDS: "diamonds", HEARTS: "hearts", SPADES: "spades"}
SUIT_SYMBOLS = {CLUBS: "\u2663", DIAMONDS: "\u2666", HEARTS: "\u2665", SPADES: "\u2660"}

JACK = 11
QUEEN = 12
KING = 13
ACE = 14

#: The jokers' ranks: spades above the ace.
LITTLE_JOKER = 15
BIG_JOKER = 16

#: Ranks from the two (2) to the ace (14).
RANKS = tuple(range(2, 15))

#: The jokers as the server writes them, by rank.
JOKERS = {LITTLE_JOKER: "LJ", BIG_JOKER: "BJ"}
JOKER_NAMES = {LITTLE_JOKER: "little joker", BIG_JOKER: "big joker"}

RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)

#: The protocol's card syntax, shared with the server and the web client.
CARD_PATTERN = re.compile(r"^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$")

#: The refusal's advice, word for word the server's.
_ADVICE = (
    "is not a card: write a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S), "
    "like QS, TD or 10H, or LJ / BJ for the little / big joker (either case)"
)


class CardError(ValueError):
    """A piece of text that is not a card."""


class Card:
    """One playing card. Immutable and hashable, so it can go in sets and dict keys.

    ``Card("QS")``, ``Card(12, "S")`` and ``Card("Q", "S")`` are the queen of spades;
    so are ``Card("qs")``; ``Card("10H")`` is ``Card("TH")``; ``Card("BJ")`` is
    ``Card(BIG_JOKER, "S")``. ``str(card)`` is the canonical two-letter form the server writes.
    """

    __slots__ = ("_rank", "_suit")

    def __init__(self, rank: Union[str, int, "Card"], suit: Optional[str] = None) -> None:
        if isinstance(rank, Card) and suit is None:
            r, s = rank.rank, rank.suit
        elif isinstance(rank, str) and suit is None:
            r, s = _parse(rank)
        else:
            if isinstance(rank, str):
                if len(rank) != 1 or rank not in RANK_LETTERS:
                    raise CardError(f"`{rank}` is not a rank: use 2-9, T, J, Q, K or A")
                rank = RANK_LETTERS.index(rank) + 2
            if not isinstance(rank, int) or not 2 <= rank <= 16:
                raise CardError(f"`{rank}` is not a rank: use 2 to 14 (ace), or 15 / 16 (jokers)")
            if suit not in SUITS:
                raise CardError(f"`{suit}` is not a suit: use C, D, H or S")
            if rank in JOKERS and suit != SPADES:
                raise CardError("the jokers are spades")
            s = suit
            r = rank
        object.__setattr__(self, "_rank", r)
        object.__setattr__(self, "_suit", s)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    @property
    def rank(self) -> int:
        """2 to 10, jack 11, queen 12, king 13, ace 14; little joker 15, big joker 16."""
        return self._rank

    @property
    def is_joker(self) -> bool:
        """True for the little and the big joker."""
        return self._rank in JOKERS

    @property
    def suit(self) -> str:
        """``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return self._suit

    @property
    def index(self) -> int:
        """0..53 as the server numbers cards: clubs 2..A, then diamonds, hearts, spades, then
        the little and the big joker."""
        return SUITS.index(self._suit) * 13 + self._rank - 2

    @property
    def name(self) -> str:
        """How people say it: ``"queen of spades"``, ``"big joker"``."""
        if self.is_joker:
            return JOKER_NAMES[self._rank]
        return f"{RANK_NAMES[self._rank - 2]} of {SUIT_NAMES[self._suit]}"

    @property
    def symbol(self) -> str:
        """With a suit symbol, for people: ``"Q\u2660"`` (a joker: ``"BJ"``)."""
        if self.is_joker:
            return JOKERS[self._rank]
        return RANK_LETTERS[self._rank - 2] + SUIT_SYMBOLS[self._suit]

    def _key(self):
        return (self._rank, SUITS.index(self._suit))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                other = Card(other)
            except CardError:
                return False
        if not isinstance(other, Card):
            return NotImplemented
        return self._rank == other._rank and self._suit == other._suit

    def __hash__(self) -> int:
        return hash((self._rank, self._suit))

    def __lt__(self, other: "Card") -> bool:
        return self._key() < Card(other)._key()

    def __le__(self, other: "Card") -> bool:
        return self._key() <= Card(other)._key()

    def __gt__(self, other: "Card") -> bool:
        return self._key() > Card(other)._key()

    def __ge__(self, other: "Card") -> bool:
        return self._key() >= Card(other)._key()

    def __str__(self) -> str:
        if self.is_joker:
            return JOKERS[self._rank]
        return RANK_LETTERS[self._rank - 2] + self._suit

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self):
        return (Card, (str(self),))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self  # immutable: copies of views share their cards

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parses the protocol's form, ``"QS"``, ``"TD"`` or ``"BJ"``, and nothing else."""
        return cls(text)


def _parse(text: str):
    if not isinstance(text, str) or not CARD_PATTERN.fullmatch(text):
        raise CardError(f"`{text}` {_ADVICE}")
    if text.upper() in ("LJ", "BJ"):
        return (LITTLE_JOKER if text.upper() == "LJ" else BIG_JOKER), SPADES
    rank, suit = ("T", text[2]) if text.startswith("10") else (text[0], text[1])
    return RANK_LETTERS.index(rank.upper()) + 2, suit.upper()


def parse_cards(text: Union[str, Iterable[str]]) -> List[Card]:
    """Cards from ``"QS 2C TD"`` (spaces or commas) or from a list of strings."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return [Card(p) for p in parts]


def full_deck(jokers: bool = False) -> List[Card]:
    """All 52 cards, in the server's order (clubs 2..A, diamonds, hearts, spades); with
    ``jokers`` (Spades' option) the little and big joker replace the 2 of clubs and the 2 of
    diamonds, last."""
    cards = [Card(r, s) for s in SUITS for r in RANKS]
    if not jokers:
        return cards
    plain = [c for c in cards if str(c) not in ("2C", "2D")]
    return plain + [Card(LITTLE_JOKER, SPADES), Card(BIG_JOKER, SPADES)]


def by_suit(cards: Iterable[Card]) -> List[Card]:
    """Sorted the way a hand is shown: by suit, then rank."""
    return sorted(cards, key=lambda c: c.index)


def of_suit(cards: Iterable[Card], suit: str) -> List[Card]:
    """The cards of one suit, lowest first."""
    return sorted(c for c in cards if c.suit == suit)


def euchre_deck() -> List[Card]:
    """Euchre's 24 cards, nine to ace of each suit, in the server's order."""
    return [Card(r, s) for s in SUITS for r in range(9, ACE + 1)]


def same_colour(suit: str) -> str:
    """The other suit of the same colour: clubs and spades, diamonds and hearts."""
    return {CLUBS: SPADES, SPADES: CLUBS, DIAMONDS: HEARTS, HEARTS: DIAMONDS}[suit]


def left_bower(trump: str) -> Card:
    """Euchre's left bower: the jack of the suit of trump's colour, the second highest trump."""
    return Card(JACK, same_colour(trump))


def suit_of(card: Card, trump: Optional[str] = None, bowers: bool = False) -> str:
    """The suit ``card`` plays as: with ``bowers`` (Euchre) the left bower is a trump, for
    following suit as for winning; every other card is of its own suit."""
    if bowers and trump is not None and card == left_bower(trump):
        return trump
    return card.suit


def trump_rank(card: Card, trump: Optional[str] = None, bowers: bool = False) -> int:
    """A card's order within the suit it plays as: with ``bowers`` the jack of trump (right
    bower, 20) and the left bower (19) are above the ace; otherwise its rank."""
    if bowers and trump is not None:
        if card == Card(JACK, trump):
            return 20
        if card == left_bower(trump):
            return 19
    return card.rank


def trick_winner(cards: List[Card], trump: Optional[str] = None, bowers: bool = False) -> int:
    """The position (0 = the lead) of the card taking a trick: the highest trump if any was
    played, else the highest card of the suit led. With ``bowers`` (Euchre) the two jacks of
    trump's colour are its two highest trumps (:func:`trump_rank`)."""
    if not cards:
        raise ValueError("an empty trick has no winner")
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        suit, top_suit = suit_of(card, trump, bowers), suit_of(top, trump, bowers)
        if suit == top_suit:
            if trump_rank(card, trump, bowers) > trump_rank(top, trump, bowers):
                best = i
        elif trump is not None and suit == trump:
            best = i
    return best


def filippa_penalty(card: Card) -> int:
    """Filippa's penalty for taking a card: Q\u2660 -13, A\u2665 -5, K\u2665 -4, Q\u2665 -3,
    J\u2665 -2, any other heart -1."""
    if card == Card(QUEEN, SPADES):
        return -13
    if card.suit != HEARTS:
        return 0
    return {ACE: -5, KING: -4, QUEEN: -3, JACK: -2}.get(card.rank, -1)


def hearts_points(card: Card) -> int:
    """Hearts' points for taking a card: 1 per heart, 13 for the queen of spades."""
    if card == Card(QUEEN, SPADES):
        return 13
    return 1 if card.suit == HEARTS else 0
