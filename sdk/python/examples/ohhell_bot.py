"""An Oh Hell bot: bid what its high cards and trumps should take, then take exactly that many
tricks: no fewer, and no more.

* Bid: a trick for each ace, each king with a card beside it, each trump queen with two
  beside it and each trump past the fourth (``parlor_bot.sure_tricks``). The dealer, bidding
  last, may not make the bids add up to the tricks (the hook): ``view.nearest_bid`` steps to
  the closest bid allowed.
* While it still needs tricks, win them: lead a card nobody can beat (or low from the longest
  side suit), and follow with the cheapest card that wins.
* Once its bid is made, duck: follow with the highest card that loses, and lead low.

    python -m parlor_bot check examples/ohhell_bot.py --variant ohhell --matches 10
"""

import sys

from parlor_bot import Bot, sure_tricks


def is_top(view, card):
    """True when no card of its suit that the others may still hold beats ``card``."""
    return all(other.rank < card.rank for other in view.cards_out(card.suit))


def lowest(view, cards):
    """The least useful card: the lowest side card, or the lowest trump."""
    return min(cards, key=lambda c: (c.suit == view.trump, c.rank))


class OhHellBot(Bot):
    """Bids its sure tricks and plays to take exactly that many; see the module's
    documentation."""

    def bid(self, view):
        return view.nearest_bid(sure_tricks(view))

    def play_card(self, view):
        legal = sorted(view.legal)
        if view.my_bid > view.tricks_won[view.seat]:
            return self.take(view, legal)
        return self.duck(view, legal)

    def take(self, view, legal):
        if view.leading:
            winners = [c for c in legal if is_top(view, c)]
            if winners:
                return lowest(view, winners)
            side = [c for c in legal if c.suit != view.trump] or legal
            longest = max({c.suit for c in side}, key=lambda s: sum(c.suit == s for c in side))
            return min(c for c in side if c.suit == longest)
        winning = [c for c in legal if view.would_win(c)]
        if winning:
            return min(winning, key=lambda c: (c.suit == view.trump, c.rank))
        return lowest(view, legal)

    def duck(self, view, legal):
        if view.leading:
            return lowest(view, legal)
        losing = [c for c in legal if not view.would_win(c)]
        # The highest card that still loses: rid the hand of cards that could win later.
        return max(losing or legal)


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    options = {"players": 4, "schedule": "down"}
    result = OhHellBot().run(url, variant="ohhell", options=options, matches=1)
    print(f"won {result.wins} of {result.matches}")
