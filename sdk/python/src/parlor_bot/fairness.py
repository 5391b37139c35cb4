"""Check a hand's deal yourself: the recipe of ``docs/FAIRNESS.md``, in plain Python.

Parlor publishes ``commitment`` (SHA-256 of the hand's secret) in ``hand_started`` and reveals
``secret`` in ``hand_scored``. With this module (standard library only, its own ChaCha20) you
can check that the secret matches the commitment and recompute every seat's cards::

    from parlor_bot.fairness import verify_hand
    problems = verify_hand(variant="hearts", dealer=3, secret=..., commitment=..., dealt={0: [...]})
    assert not problems, problems

A table's options can change the deck (Spades' ``jokers``) and the hand sizes (Oh Hell's
``players`` and the hand's own size): pass ``jokers=True``, ``players=`` and ``hand_size=``.

It shares no code with the server: it is an independent reading of the documented recipe.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Dict, Iterable, List, Mapping, Optional

#: Seats and cards per seat of each variant (Oh Hell: its first hand at four seats).
VARIANTS = {
    "hearts": (4, 13),
    "hearts5": (5, 10),
    "filippa": (4, 13),
    "tricks": (4, 13),
    "whist": (4, 13),
    "spades": (4, 13),
    "ohhell": (4, 12),
    "bridge": (4, 13),
}

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def ordered_deck(jokers: bool = False) -> List[str]:
    """The deck in index order: clubs 2..A, diamonds, hearts, spades; with ``jokers``, no 2C
    or 2D and the little and big joker last."""
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    if jokers:
        cards = [c for c in cards if c not in ("2C", "2D")] + ["LJ", "BJ"]
    return cards


def hand_secret(master: bytes, hand: int) -> bytes:
    """The secret of hand ``hand`` of a match (from 0), from the match's master secret."""
    return hashlib.sha256(b"parlor hand v1" + master + struct.pack(">I", hand)).digest()


def practice_master(seed: int) -> bytes:
    """A practice table's master secret for a match whose seed is ``seed``."""
    return hashlib.sha256(b"parlor practice v1" + struct.pack(">Q", seed)).digest()


def commitment(secret: bytes) -> bytes:
    """What the server publishes when the hand starts."""
    return hashlib.sha256(secret).digest()


def _rotl(v: int, c: int) -> int:
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def _quarter(x: List[int], a: int, b: int, c: int, d: int) -> None:
    x[a] = (x[a] + x[b]) & 0xFFFFFFFF
    x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & 0xFFFFFFFF
    x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & 0xFFFFFFFF
    x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & 0xFFFFFFFF
    x[b] = _rotl(x[b] ^ x[c], 7)


def chacha20_keystream(key: bytes, length: int) -> bytes:
    """The ChaCha20 keystream (20 rounds) for ``key``, nonce 0, block counter from 0."""
    constants = struct.unpack("<4I", b"expand 32-byte k")
    key_words = struct.unpack("<8I", key)
    out = b""
    counter = 0
    while len(out) < length:
        state = list(constants) + list(key_words) + [counter & 0xFFFFFFFF, counter >> 32, 0, 0]
        x = state[:]
        for _ in range(10):
            _quarter(x, 0, 4, 8, 12)
            _quarter(x, 1, 5, 9, 13)
            _quarter(x, 2, 6, 10, 14)
            _quarter(x, 3, 7, 11, 15)
            _quarter(x, 0, 5, 10, 15)
            _quarter(x, 1, 6, 11, 12)
            _quarter(x, 2, 7, 8, 13)
            _quarter(x, 3, 4, 9, 14)
        out += struct.pack("<16I", *[(a + b) & 0xFFFFFFFF for a, b in zip(x, state)])
        counter += 1
    return out[:length]


def shuffle(cards: List[str], secret: bytes) -> List[str]:
    """``cards`` (N of them) shuffled by Fisher-Yates driven by N - 1 little-endian words of the
    keystream."""
    n = len(cards)
    words = struct.unpack(f"<{n - 1}I", chacha20_keystream(secret, (n - 1) * 4))
    cards = list(cards)
    for step, word in enumerate(words):
        i = n - 1 - step
        j = (word * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deck(secret: bytes, jokers: bool = False) -> List[str]:
    """The shuffled deck of a hand (with ``jokers``: Spades' deck with the jokers)."""
    return shuffle(ordered_deck(jokers), secret)


def deal(
    variant: str,
    dealer: int,
    secret: bytes,
    jokers: bool = False,
    players: Optional[int] = None,
    hand_size: Optional[int] = None,
) -> Dict[int, List[str]]:
    """Each seat's cards: one at a time from the dealer's left. Key ``-1``: cards left over.
    ``players`` and ``hand_size`` override the variant's (Oh Hell's change)."""
    seats, size = VARIANTS[variant]
    seats = players or seats
    size = hand_size or size
    cards = deck(secret, jokers)
    hands: Dict[int, List[str]] = {s: [] for s in range(seats)}
    seat = (dealer + 1) % seats
    for card in cards[: seats * size]:
        hands[seat].append(card)
        seat = (seat + 1) % seats
    hands[-1] = cards[seats * size :]
    return hands


def _canon(card: str) -> str:
    card = card.upper()
    return "T" + card[2:] if card.startswith("10") else card


def verify_hand(
    variant: str,
    dealer: int,
    secret: str,
    commitment_hex: str,
    dealt: Mapping[int, Iterable[str]],
    jokers: bool = False,
    players: Optional[int] = None,
    hand_size: Optional[int] = None,
) -> List[str]:
    """Checks one hand; returns what is wrong (an empty list when all is well).

    ``secret`` and ``commitment_hex`` are the hex strings of ``hand_scored`` and
    ``hand_started``; ``dealt`` maps seats to the cards they were dealt (any you know).
    ``jokers``, ``players`` and ``hand_size`` are the table's (see :func:`deal`).
    """
    problems = []
    raw = bytes.fromhex(secret)
    if commitment(raw).hex() != commitment_hex.lower():
        problems.append("the secret does not hash to the commitment")
    hands = deal(variant, dealer, raw, jokers, players, hand_size)
    for seat, cards in dealt.items():
        want = sorted(hands[int(seat)])
        got = sorted(_canon(c) for c in cards)
        if want != got:
            problems.append(f"seat {seat} was dealt {got}, the secret deals {want}")
    return problems
