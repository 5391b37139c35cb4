"""A Bridge bot: a few natural bids, plain card play for itself and for dummy, and an honest
look at a claim.

* Calls: with no bid yet and 12 or more high-card points it opens one of its longest suit
  (1NT with 15-17 and no five-card suit); after partner's opening, with 6 or more points, it
  raises partner's suit with four of it, else bids 1NT; else it passes. It never doubles.
* Play, for itself and (as declarer) for dummy: second hand low, third hand high enough to take
  the trick, and when partner is already taking it the lowest card. Leading, the highest card
  of its longest side suit (trumps kept for ruffing).
* Claims: as declarer, when every card it and dummy hold is a top winner it claims the rest
  (once a board: after a rejection it plays the cards out).
  As a defender it accepts a claim only when declarer's side holds that many top winners.

    python -m parlor_bot check examples/bridge_bot.py --variant bridge --matches 2
"""

import sys

from parlor_bot import Bot, simple_answer_claim, simple_bridge_call
from parlor_bot.bridge import top_winners


class BridgeBot(Bot):
    """Bids a little, plays plainly, claims only what is sure; see the module's documentation."""

    def call(self, view):
        return simple_bridge_call(view)

    def play_card(self, view):
        legal = list(view.legal)
        # On dummy's turn the cards are dummy's, and "partner" is declarer (this seat).
        me = view.bridge.dummy.seat if view.playing_dummy else view.seat
        partner = (me + 2) % 4
        lowest = min(legal, key=lambda c: (c.suit == view.trump, c.rank))
        if view.leading:
            side = [c for c in legal if c.suit != view.trump] or legal
            longest = max({c.suit for c in side}, key=lambda s: sum(1 for c in side if c.suit == s))
            return max(c for c in side if c.suit == longest)
        winning = view.winning_play()
        if winning is not None and winning.seat == partner:
            return lowest
        if len(view.trick) == 1:
            return lowest  # second hand low
        takers = [c for c in legal if view.would_win(c)]
        if takers:
            return min(takers, key=lambda c: (c.suit == view.trump, c.rank))
        return lowest

    def answer_claim(self, view):
        return simple_answer_claim(view)

    def claim(self, view):
        """Claims the rest when all of its and dummy's cards are top winners, and not again
        once a claim was rejected this board (it then plays the cards out)."""
        dummy = view.bridge.dummy
        if dummy is None or view.trick or view.bridge.claims_rejected:
            return None
        ours = list(view.hand) + list(dummy.cards)
        known = set(ours) | set(view.played_cards())
        theirs = [c for c in view.deck() if c not in known]
        left = len(view.hand)
        if left >= 2 and top_winners(ours, theirs, view.trump) >= len(ours):
            return left
        return None


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    result = BridgeBot().run(url, variant="bridge", options={"hands": 4}, matches=1)
    print(f"won {result.wins} of {result.matches}")
