"""A Euchre bot: make trump only with a bower behind it, and play the bowers as the trumps
they are.

* Calls: order up the turned card (or, in the second round, name a suit) when it holds two
  or more trumps of that suit including a bower (the jack of that suit or of its colour);
  otherwise pass. A dealer who must name a suit names the one it holds most trumps of.
  Never alone, never defending alone.
* Discard (as dealer, after picking up): its lowest card that is not a trump.
* Play, with the left bower counted as a trump throughout: when its partner is taking the
  trick, throw the lowest card; otherwise take the trick as cheaply as it can, and when it
  cannot, throw the lowest card. Leading, it leads its highest trump when it holds the right
  bower, else its highest side card.

    python -m parlor_bot check examples/euchre_bot.py --variant euchre --matches 10
"""

import sys

from parlor_bot import PASS, Bot, name_trump, order_up, suit_of, trump_rank, trumps_in


def strength(view, card):
    """How high ``card`` is this hand: trumps above every side card, the bowers on top."""
    trump = view.trump
    is_trump = suit_of(card, trump, True) == trump
    return (is_trump, trump_rank(card, trump, True))


def good_trump(cards, suit):
    """Two or more trumps of ``suit`` with a bower among them."""
    trumps = trumps_in(cards, suit)
    return len(trumps) >= 2 and any(c.rank == 11 for c in trumps)


class EuchreBot(Bot):
    """Makes trump with a bower and a second trump; see the module's documentation."""

    def call(self, view):
        allowed = view.legal_calls()
        hand = list(view.hand)
        if order_up() in allowed:
            if good_trump(hand, view.turned_card.suit):
                return order_up()
        named = [c for c in allowed if c.kind == "trump" and not c.alone]
        good = [c for c in named if good_trump(hand, c.suit)]
        if good:
            return max(good, key=lambda c: len(trumps_in(hand, c.suit)))
        if PASS in allowed:
            return PASS
        # The dealer is stuck: the suit it holds most trumps of.
        return max(named, key=lambda c: len(trumps_in(hand, c.suit)))

    def discard(self, view):
        side = [c for c in view.legal if view.suit_of(c) != view.trump]
        return min(side or view.legal, key=lambda c: strength(view, c))

    def play_card(self, view):
        legal = list(view.legal)
        lowest = min(legal, key=lambda c: strength(view, c))
        if view.leading:
            trumps = [c for c in legal if view.suit_of(c) == view.trump]
            right = [c for c in trumps if trump_rank(c, view.trump, True) == 20]
            if right:
                return max(trumps, key=lambda c: strength(view, c))
            side = [c for c in legal if view.suit_of(c) != view.trump] or legal
            return max(side, key=lambda c: strength(view, c))
        winning = view.winning_play()
        if winning is not None and winning.seat == view.partner:
            return lowest
        takers = [c for c in legal if view.would_win(c)]
        if takers:
            return min(takers, key=lambda c: strength(view, c))
        return lowest


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    result = EuchreBot().run(url, variant="euchre", options={"target": 10}, matches=1)
    print(f"won {result.wins} of {result.matches}")
