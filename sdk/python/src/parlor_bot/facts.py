"""What a bot needs to know about a variant's rules, as the server publishes it.

``GET /api/variants`` lists every variant with its ``facts`` (hand size, cards passed, the prize
pool, partnerships, who leads first, the bad-card penalty, whether players bid...). The SDK reads them from there
rather than writing the numbers again, so it follows the server's engine exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

#: ``first_lead`` values.
TWO_OF_CLUBS = "two_of_clubs"
DEALER_LEFT = "dealer_left"
#: Bridge: the seat on declarer's left leads the first trick.
DECLARERS_LEFT = "declarers_left"


@dataclass(frozen=True)
class Facts:
    """One variant's ``facts`` entry of ``GET /api/variants``."""

    #: Cards dealt to each seat.
    hand_size: int
    #: Cards passed in a passing hand; 0 when the variant never passes.
    pass_count: int
    #: Points added to the prize pool each hand (Filippa), else 0.
    prize: int
    #: Seats 0 and 2 play against 1 and 3 (Whist).
    partnerships: bool
    #: Who leads a hand's first trick: ``"two_of_clubs"``, ``"dealer_left"`` or
    #: ``"declarers_left"`` (Bridge).
    first_lead: str
    #: Where trump comes from: ``"none"``, ``"undealt"``, ``"dealer_last"``,
    #: ``"always_spades"``, ``"called"`` (Euchre) or ``"contract"`` (Bridge: the auction's
    #: strain).
    trump: str
    #: What an illegal card costs (when the table's ``bad_card`` option is ``"penalty"``).
    bad_card_penalty: Optional[int]
    #: The lowest total wins.
    low_score_wins: bool
    #: Positive and negative totals are kept apart (Filippa).
    two_totals: bool
    #: A hand's points can be counted while it is played.
    points_in_hand: bool
    #: Each trick won adds a point to the taker's match total at once (tricks).
    trick_points: bool
    #: How a hand scores, in words.
    scoring: str
    #: What each scoring card is worth to whoever takes it (``{"QS": 13, "2H": 1, ...}``);
    #: empty where cards carry no points.
    card_points: Dict[str, int] = field(default_factory=dict)
    #: Every seat bids the tricks it expects before play, in turn from the dealer's left
    #: (Spades, Oh Hell).
    bidding: bool = False
    #: Hands change size from hand to hand (Oh Hell): each ``hand_started`` says how many cards
    #: each seat is dealt; ``hand_size`` is then the first hand's at the default table.
    hand_size_varies: bool = False
    #: The seat counts the ``players`` option allows, ``(min, max)`` (Oh Hell); None when the
    #: variant has one count of players.
    player_counts: Optional[Tuple[int, int]] = None

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Facts":
        """From the ``facts`` object of a ``/api/variants`` entry."""
        return cls(
            hand_size=int(d["hand_size"]),
            pass_count=int(d["pass_count"]),
            prize=int(d["prize"]),
            partnerships=bool(d["partnerships"]),
            first_lead=d["first_lead"],
            trump=d["trump"],
            bad_card_penalty=d.get("bad_card_penalty"),
            low_score_wins=bool(d["low_score_wins"]),
            two_totals=bool(d["two_totals"]),
            points_in_hand=bool(d["points_in_hand"]),
            trick_points=bool(d["trick_points"]),
            scoring=d.get("scoring", ""),
            card_points={str(k): int(v) for k, v in (d.get("card_points") or {}).items()},
            bidding=bool(d.get("bidding", False)),
            hand_size_varies=bool(d.get("hand_size_varies", False)),
            player_counts=(
                (int(d["player_counts"]["min"]), int(d["player_counts"]["max"]))
                if d.get("player_counts") else None
            ),
        )


def facts_by_variant(listed) -> Dict[str, Facts]:
    """The facts of every variant in a ``/api/variants`` answer, by variant name."""
    return {v["name"]: Facts.from_json(v["facts"]) for v in listed if "facts" in v}
