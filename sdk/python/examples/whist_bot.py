"""A Whist bot that follows the CS 101 assignment's strategy hints.

* Second hand low: the second player to a trick plays low and leaves the fight to partner.
* Third and fourth hand: win as cheaply as possible, or throw the lowest card.
* Do not trump a trick your partner is winning with the top card, unless an opponent still to
  play has shown out of the suit and may trump it (late in the hand that is often the case).
* Draw trumps: when you hold the highest trump still out, lead trumps until the opponents have
  none left.
* Count the trumps that are out: the view knows every card played this hand, so the bot knows
  when its trumps are the last ones, and which players have shown out of a suit.
* Otherwise lead a sure winner, or a singleton (to trump that suit later), or low from the
  longest side suit.

    python -m parlor_bot check examples/whist_bot.py --variant whist --matches 20
"""

import sys

from parlor_bot import Bot


def voids(view):
    """Seats that failed to follow a suit this hand, so hold none of it: {seat: {suits}}."""
    out = {seat: set() for seat in range(view.players)}
    tricks = [t.plays for t in view.tricks] + [view.trick]
    for plays in tricks:
        if not plays:
            continue
        led = plays[0].card.suit
        for play in plays[1:]:
            if play.card.suit != led:
                out[play.seat].add(led)
    return out


def outstanding(view, suit):
    """The cards of `suit` the other players may still hold."""
    return [c for c in view.cards_out(suit) if c not in view.hand]


def is_top(view, card):
    """True when no card still out in its suit beats `card`."""
    return all(other.rank < card.rank for other in outstanding(view, card.suit))


def beats(card, best, led, trump):
    """True when `card` would take the trick from `best` (the card winning it now)."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump and best.suit != trump


class WhistBot(Bot):
    """Plays Whist by the assignment's hints; see the module's documentation."""

    def play_card(self, view):
        legal = sorted(view.legal)
        if len(legal) == 1:
            return legal[0]
        if view.leading:
            return self.lead(view, legal)
        return self.follow(view, legal)

    # ---- leading -----------------------------------------------------------------------

    def lead(self, view, legal):
        trump = view.trump
        trumps = [c for c in legal if c.suit == trump]
        trumps_out = outstanding(view, trump)
        side = [c for c in legal if c.suit != trump]
        # Draw trumps while we hold the highest one and the opponents may still have some.
        opponents_may_trump = any(trump not in voids(view)[s] for s in view.opponents)
        if trumps and trumps_out and opponents_may_trump and is_top(view, max(trumps)):
            return max(trumps)
        # Side suits an opponent can trump (void in it, perhaps not in trumps) are poor leads.
        void = voids(view)
        ruffable = {
            suit for seat in view.opponents for suit in void[seat]
            if trump not in void[seat] and trumps_out
        }
        safe_side = [c for c in side if c.suit not in ruffable]
        # A sure winner in a side suit.
        winners = [c for c in safe_side if is_top(view, c)]
        if winners:
            return max(winners)
        # A singleton side card, to trump that suit next time (only worth it with trumps).
        if trumps:
            singles = [c for c in side if sum(1 for d in view.hand if d.suit == c.suit) == 1]
            if singles:
                return min(singles)
        # Low from the longest side suit (or from trumps if that is all we have).
        pool = safe_side or side or legal
        longest = max({c.suit for c in pool}, key=lambda s: sum(1 for c in pool if c.suit == s))
        return min(c for c in pool if c.suit == longest)

    # ---- following ---------------------------------------------------------------------

    def follow(self, view, legal):
        trump, led = view.trump, view.led_suit
        best = view.winning_play()
        partner_winning = best.seat == view.partner
        position = len(view.trick)  # 1: second hand, 2: third, 3: fourth (last)
        still_to_play = [(view.seat + i) % view.players for i in range(1, view.players - position)]
        opponents_after = [s for s in still_to_play if s != view.partner]
        winning = [c for c in legal if beats(c, best.card, led, trump)]
        following = legal[0].suit == led

        if partner_winning:
            # Is partner's card safe? Top of its suit (or a trump), and nobody after us who
            # is void in the suit and may still trump it.
            void = voids(view)
            safe = best.card.suit == trump or is_top(view, best.card)
            for seat in opponents_after:
                if led in void[seat] and trump not in void[seat] and best.card.suit != trump:
                    safe = False
            if safe or not opponents_after:
                return self.throw(view, legal)

        if following:
            if position == 1 and opponents_after:
                return legal[0]  # second hand low
            if winning:
                # Third hand: only worth it if the win is likely to stand.
                return min(winning)
            return legal[0]

        # Void in the led suit: trump as cheaply as wins, else throw away.
        if winning:
            return min(winning)
        return self.throw(view, legal)

    def throw(self, view, legal):
        """The least useful card: lowest side card, from the shortest side suit."""
        side = [c for c in legal if c.suit != view.trump] or legal
        counts = {s: sum(1 for c in view.hand if c.suit == s) for s in {c.suit for c in side}}
        return min(side, key=lambda c: (c.rank, counts[c.suit]))


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    result = WhistBot().run(url, variant="whist", matches=3)
    print(f"won {result.wins} of {result.matches}")
