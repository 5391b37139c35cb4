"""Run a Whist player written for the classic CS 101 assignment interface unchanged:
a ``Player`` class with ``PlayCard(hand, trick, trump, position, tricks, score)``.

    from parlor_bot.compat import AssignmentBot
    from Player import Player

    AssignmentBot(Player()).run("http://127.0.0.1:8080", variant="whist")

The checker does this by itself for a file whose class has ``PlayCard`` and no ``play_card``.
"""

from __future__ import annotations

from typing import Any

from .bot import Bot
from .cards import Card
from .view import View

#: Seats as compass points: North and South (0, 2) play against East and West (1, 3).
POSITIONS = "NESW"


def assignment_arguments(view: View):
    """The six arguments of ``PlayCard`` for this view: the hand (a tuple of cards), the cards
    played so far this trick in order, the trump letter, your position ("N", "E", "S", "W"),
    the tricks played this hand as ``(cards, leader, winner)`` and the score ``(NS, EW)``."""
    if view.players != 4:
        raise ValueError("the PlayCard interface is for four-player Whist")
    scores = view.scores or [0, 0, 0, 0]
    return (
        tuple(view.hand),
        [p.card for p in view.trick],
        view.trump,
        POSITIONS[view.seat],
        [(tuple(t.cards), POSITIONS[t.leader], POSITIONS[t.winner]) for t in view.tricks],
        (scores[0], scores[1]),
    )


class AssignmentBot(Bot):
    """Wraps an object with a ``PlayCard`` method so it plays at a Parlor table."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = type(player).__name__

    def play_card(self, view: View) -> Card:
        """Asks the wrapped player."""
        return self.player.PlayCard(*assignment_arguments(view))
