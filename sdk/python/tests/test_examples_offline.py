"""The examples answer legally in every recorded situation (no server needed)."""

import importlib.util
import json
import pathlib

import pytest

from parlor_bot import Card, View
from variant_facts import view_from

HERE = pathlib.Path(__file__).parent
EXAMPLES = HERE.parent / "examples"


def load_example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prompts(variant):
    """Every recorded snapshot in which the recorded seat had to act."""
    record = json.loads((HERE / "fixtures" / f"{variant}.json").read_text())
    states = [record["first"]] + [s["state"] for s in record["steps"]]
    for state in states:
        view = view_from(state)
        if view.legal_kind != "wait":
            yield view


@pytest.mark.parametrize("variant", ["hearts", "filippa", "hearts5", "tricks", "whist"])
@pytest.mark.parametrize("example", [("lowest_bot", "LowestBot"), ("whist_bot", "WhistBot")])
def test_examples_answer_legally(variant, example):
    module, cls = example
    bot = getattr(load_example(module), cls)()
    seen = 0
    for view in prompts(variant):
        seen += 1
        if view.legal_kind == "pass":
            cards = bot.pass_cards(view.copy())
            assert len(cards) == view.pass_count and len(set(cards)) == view.pass_count
            assert set(cards) <= set(view.hand)
        else:
            card = bot.play_card(view.copy())
            assert isinstance(card, Card) and card in view.legal, view.summary()
    assert seen >= 5


def test_whist_bot_follows_the_hints():
    whist = load_example("whist_bot")
    bot = whist.WhistBot()

    def view(hand, trick, seat=3, trump="S", leader=None, tricks=()):
        v = View(variant="whist", options={"target": 5}, seat=seat, players=4, trump=trump)
        from parlor_bot import Play, parse_cards
        v.hand = parse_cards(hand)
        plays = []
        cards = parse_cards(trick)
        lead = leader if leader is not None else (seat - len(cards)) % 4
        for i, c in enumerate(cards):
            plays.append(Play((lead + i) % 4, c))
        v.trick = plays
        v.tricks = list(tricks)
        led = plays[0].card.suit if plays else None
        follow = [c for c in v.hand if c.suit == led]
        v.legal = follow or list(v.hand)
        v.legal_kind = "play"
        return v

    # Second hand low: seat 3 is second to a diamond lead.
    assert bot.play_card(view("KD 4D 9C", "7D", seat=3)) == Card("4D")
    # Partner (seat 1) is winning with the ace of clubs; we have no club: do not trump it.
    assert bot.play_card(view("2S 5H 9D", "4C AC 3C", seat=3)) == Card("5H")
    # An opponent (seat 2) is winning: trump it.
    assert bot.play_card(view("2S 5H 9D", "4C AC", seat=3)) == Card("2S")
    # Leading with the top trumps while trumps are out: draw trumps.
    assert bot.play_card(view("AS KS 3S 4H 5D", "", seat=0)) == Card("AS")
    # Fourth hand: win as cheaply as possible.
    assert bot.play_card(view("QD KD AD 2C", "JD 3D 5D", seat=3, leader=0)) == Card("QD")


def test_a_cs101_player_gets_the_assignment_arguments():
    from parlor_bot.compat import AssignmentBot

    calls = []

    class Player:
        def PlayCard(self, hand, trick, trump, position, tricks, score):
            calls.append((hand, trick, trump, position, tricks, score))
            follow = [c for c in hand if trick and c.suit == trick[0].suit]
            return min(follow or hand)

    bot = AssignmentBot(Player())
    record = json.loads((HERE / "fixtures" / "whist.json").read_text())
    view = view_from(record["first"])
    for step in record["steps"]:
        for msg in step["messages"]:
            view.apply_message(msg)
        state = view_from(step["state"])
        if state.legal_kind == "play":
            assert bot.play_card(state.copy()) in state.legal
    hand, trick, trump, position, tricks, score = calls[-1]
    assert isinstance(hand, tuple) and position == "W" and trump in "CDHS"
    assert all(len(t[0]) == 4 and t[1] in "NESW" and t[2] in "NESW" for t in tricks)
    assert isinstance(score, tuple) and len(score) == 2
    assert len(calls) > 10
