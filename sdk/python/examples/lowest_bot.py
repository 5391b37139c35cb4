"""The "dumb bot": always plays its lowest legal card, passes its three highest cards.

It never breaks a rule, which makes it the baseline every other bot should beat. Try it:

    python -m parlor_bot check examples/lowest_bot.py --variant filippa --matches 5
    python examples/lowest_bot.py http://127.0.0.1:8080
"""

import sys

from parlor_bot import Bot


class LowestBot(Bot):
    """Lowest legal card, every time."""

    def play_card(self, view):
        # view.legal holds exactly the cards the rules allow now; cards compare by rank.
        return min(view.legal)

    def pass_cards(self, view):
        # Give away the three highest cards (view.pass_count is 3).
        return sorted(view.hand, reverse=True)[: view.pass_count]


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    variant = sys.argv[2] if len(sys.argv) > 2 else "filippa"
    result = LowestBot().run(url, variant=variant)
    print(f"won {result.wins} of {result.matches}; points per hand: {result.points()}")
