"""A Spades bot: bid what its high cards and spades should take, then play to make the side's
bid and no more (every overtrick is a bag, and ten bags cost 100 points).

* Bid: a trick for each ace, each king with a card beside it, each spade queen with two
  beside it and each spade past the fourth (``parlor_bot.sure_tricks``); nil (0) with a hand
  of low cards and few low spades, unless partner has bid nil already.
* While the side still needs tricks, win them: lead a card nobody can beat (or low from the
  longest side suit), and follow with the cheapest card that wins, unless partner is already
  winning.
* Once the side's bid is made, or when bidding nil, duck: follow with the highest card that
  loses, and lead low.

    python -m parlor_bot check examples/spades_bot.py --variant spades --matches 10
"""

import sys

from parlor_bot import SPADES, Bot, sure_tricks


def is_top(view, card):
    """True when no card of its suit that the others may still hold beats ``card``."""
    return all(other.rank < card.rank for other in view.cards_out(card.suit))


def lowest(view, cards):
    """The least useful card: the lowest side card, or the lowest spade."""
    return min(cards, key=lambda c: (c.suit == view.trump, c.rank))


def tricks_needed(view):
    """Tricks the side still needs for its bid; a nil bid (0) and its tricks count apart."""
    need = 0
    for seat in (view.seat, view.partner):
        if view.bids[seat]:
            need += view.bids[seat] - view.tricks_won[seat]
    return need


def nil_hand(hand):
    """Nothing that is likely to win: no card above a ten, at most three spades, all low."""
    spades = [c for c in hand if c.suit == SPADES]
    return all(c.rank <= 10 for c in hand) and len(spades) <= 3 and all(c.rank <= 7 for c in spades)


class SpadesBot(Bot):
    """Bids its sure tricks and plays to its side's bid; see the module's documentation."""

    def bid(self, view):
        partner_nil = view.bids[view.partner] == 0
        if 0 in view.legal_bids and nil_hand(view.hand) and not partner_nil:
            return 0
        return view.nearest_bid(max(1, sure_tricks(view)))

    def play_card(self, view):
        legal = sorted(view.legal)
        if view.my_bid == 0 or tricks_needed(view) <= 0:
            return self.duck(view, legal)
        return self.take(view, legal)

    def take(self, view, legal):
        if view.leading:
            winners = [c for c in legal if is_top(view, c)]
            if winners:
                return lowest(view, winners)
            side = [c for c in legal if c.suit != view.trump] or legal
            longest = max({c.suit for c in side}, key=lambda s: sum(c.suit == s for c in side))
            return min(c for c in side if c.suit == longest)
        best = view.winning_play()
        last = len(view.trick) == view.players - 1
        if best.seat == view.partner and (last or is_top(view, best.card)):
            return lowest(view, legal)  # partner has it: keep our winners
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
    result = SpadesBot().run(url, variant="spades", options={"target": 200}, matches=1)
    print(f"won {result.wins} of {result.matches}")
