"""A first bid for the games where players bid their tricks (Spades, Oh Hell).

:func:`simple_bid` is what :meth:`parlor_bot.Bot.bid` answers unless a bot says otherwise, and
what a session bids for a bot whose own bid failed: one trick for each ace, for each king
with a card beside it, for each trump queen with two beside it, and for each trump past the
fourth. It is rough (it sees neither the other bids nor voids), always legal, and in Spades
never nil.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import ACE, KING, QUEEN

if TYPE_CHECKING:
    from .view import View


def sure_tricks(view: "View") -> int:
    """The tricks your hand should take on its own, counted roughly from its high cards and
    trumps (see the module's documentation)."""
    count = 0
    for suit in {c.suit for c in view.hand}:
        ranks = {c.rank for c in view.hand if c.suit == suit}
        length = len(ranks)
        # The jokers are spades above the ace: each is a trick like an ace.
        count += ACE in ranks
        count += sum(1 for r in ranks if r > ACE)
        count += KING in ranks and length >= 2
        if suit == view.trump:
            count += QUEEN in ranks and length >= 3
            count += max(0, length - 4)
    return count


def simple_exchange(view: "View") -> list:
    """The cards to give in a blind nil exchange: the lowest (spades last) to a partner who bid
    blind nil, the highest (spades first) back to the partner, who can use them."""
    bidder = view.blind is not None and view.exchange_to in view.blind.bid

    def strength(card):
        return (card.suit == "S", card.rank)

    cards = sorted(view.legal, key=strength, reverse=not bidder)
    return cards[: view.pass_count]


def simple_bid(view: "View") -> int:
    """A legal bid from :func:`sure_tricks`: the allowed bid nearest the count, at least one
    in Spades (where 0 is nil, a bid to make only on purpose)."""
    tricks = sure_tricks(view)
    if view.variant == "spades":
        tricks = max(tricks, 1)
    return view.nearest_bid(tricks)
