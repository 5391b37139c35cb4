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


def bidding_prompts(variant):
    """Every recorded view of a bidding game (tests/fixtures/views/) in which a seat had to
    act: its bids and its cards."""
    from variant_facts import FIXTURES, facts_for

    facts = facts_for(variant)
    fixture = json.loads((FIXTURES / f"{variant}.json").read_text())
    for stream in fixture["streams"]:
        for view in [stream["start"]] + [step["view"] for step in stream["steps"]]:
            if view["legal"]["type"] != "wait":
                yield View.from_state(view, facts)


@pytest.mark.parametrize("variant, example", [
    ("spades", ("spades_bot", "SpadesBot")),
    ("spades", ("lowest_bot", "LowestBot")),
    ("ohhell", ("ohhell_bot", "OhHellBot")),
    ("ohhell", ("lowest_bot", "LowestBot")),
])
def test_examples_bid_and_play_legally(variant, example):
    module, cls = example
    bot = getattr(load_example(module), cls)()
    kinds = []
    for view in bidding_prompts(variant):
        kinds.append(view.legal_kind)
        if view.legal_kind == "bid":
            tricks = bot.bid(view.copy())
            assert type(tricks) is int and tricks in view.legal_bids, view.summary()
        else:
            card = bot.play_card(view.copy())
            assert isinstance(card, Card) and card in view.legal, view.summary()
    assert kinds.count("bid") >= 2 and kinds.count("play") >= 10


def test_the_bid_helpers_keep_to_the_prompt():
    from parlor_bot import parse_cards, simple_bid, sure_tricks

    view = View(variant="ohhell", options={}, seat=3, players=4, trump="H")
    view.hand = parse_cards("AS KS 2S AH QH 5H 3H 9C")
    view.set_legal({"type": "bid", "min": 0, "max": 8, "forbidden": 4})
    assert view.legal_bids == [0, 1, 2, 3, 5, 6, 7, 8]
    # AS, KS with a guard, AH, QH with two beside it: four, which the hook forbids.
    assert sure_tricks(view) == 4
    assert view.nearest_bid(4) == 3 and view.nearest_bid(4.6) == 5 and view.nearest_bid(20) == 8
    assert simple_bid(view) == 3
    assert "to do: bid 0 to 8 tricks, not 4" in view.summary()
    # In Spades the simple bid is never nil.
    spades = View(variant="spades", options={}, seat=0, players=4, trump="S")
    spades.hand = parse_cards("2C 3C 4D 5D 6H")
    spades.set_legal({"type": "bid", "min": 0, "max": 13, "forbidden": None})
    assert simple_bid(spades) == 1
    assert view.to_json()["legal"] == {"type": "bid", "min": 0, "max": 8, "forbidden": 4}
