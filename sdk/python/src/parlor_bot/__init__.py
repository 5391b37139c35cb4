"""Write a Parlor bot as a few methods: ``play_card(view)``, and where the game asks for them
``pass_cards(view)``, ``bid(view)``, ``call(view)``, ``discard(view)`` and (Bridge)
``answer_claim(view)`` and ``claim(view)``.

    from parlor_bot import Bot

    class Lowest(Bot):
        def play_card(self, view):
            return min(view.legal)

    Lowest().run("http://127.0.0.1:8080", variant="hearts")
"""

from .cards import (
    ACE, CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, RANKS, SPADES, SUITS, Card, CardError,
    by_suit, euchre_deck, full_deck, left_bower, of_suit, parse_cards, suit_of, trick_winner,
    trump_rank,
)
from .view import HandResult, Play, Trick, View
from .bidding import simple_bid, simple_exchange, sure_tricks
from .calling import (
    DEFEND, DOUBLE, PASS, REDOUBLE, Call, Calling, TrumpMade, bid, name_trump, order_up,
    simple_call, simple_discard, trumps_in,
)
from .bridge import (
    NO_TRUMP, STRAINS, BoardResult, Bridge, Claim, Contract, ShownHand, high_card_points,
    simple_answer_claim, simple_bridge_call,
)
from .client import ParlorError, Problem, RunResult, Session, create_table
from .bot import Bot, LowestCardBot
from .serve import ServeResult

__version__ = "0.1.0"

__all__ = [
    "ACE", "CLUBS", "DIAMONDS", "HEARTS", "JACK", "KING", "QUEEN", "RANKS", "SPADES", "SUITS",
    "Card", "CardError", "by_suit", "full_deck", "of_suit", "parse_cards", "trick_winner",
    "HandResult", "Play", "Trick", "View", "ParlorError", "Problem", "RunResult", "Session",
    "create_table", "Bot", "LowestCardBot", "ServeResult", "simple_bid", "simple_exchange", "sure_tricks",
    "Call", "Calling", "TrumpMade", "PASS", "DEFEND", "order_up", "name_trump", "simple_call",
    "simple_discard", "trumps_in", "left_bower", "suit_of", "trump_rank", "euchre_deck",
    "DOUBLE", "REDOUBLE", "bid", "NO_TRUMP", "STRAINS", "BoardResult", "Bridge", "Claim",
    "Contract", "ShownHand", "high_card_points", "simple_answer_claim", "simple_bridge_call",
    "__version__",
]
