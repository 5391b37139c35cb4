"""The view follows recorded games event by event and matches the server's own snapshots.

The fixtures are real server messages: a snapshot, then for every move the events one seat may
see and the snapshot the engine gives that seat afterwards.
"""

import json
import pathlib

import pytest

from parlor_bot import Card, View
from variant_facts import view_from
from parlor_bot.view import PLAYING

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
VARIANTS = ["hearts", "filippa", "hearts5", "tricks", "whist"]


def load(variant):
    return json.loads((FIXTURES / f"{variant}.json").read_text())


def comparable(view: View, expected: View):
    """The fields both views must agree on, with what a seat cannot know left out."""
    fields = [
        "variant", "options", "seat", "players", "phase", "hand_number", "dealer", "hand",
        "hand_sizes", "trump", "face_up", "trick", "tricks", "tricks_won", "hearts_broken",
        "pass_direction", "received", "pass_waiting", "scores", "negatives", "pool", "history",
        "winners",
    ]
    got = {f: getattr(view, f) for f in fields}
    want = {f: getattr(expected, f) for f in fields}
    if expected.phase == PLAYING:
        got["passed"], want["passed"] = view.passed, expected.passed
    if expected.phase != PLAYING or view.trick_leader is not None:
        got["to_act"], want["to_act"] = view.to_act, expected.to_act
    if expected.phase == PLAYING and view.trick_leader is not None:
        got["trick_leader"], want["trick_leader"] = view.trick_leader, expected.trick_leader
    return got, want


@pytest.mark.parametrize("variant", VARIANTS)
def test_events_rebuild_every_snapshot(variant):
    record = load(variant)
    view = view_from(record["first"])
    assert view.variant == variant
    hands_seen = 0
    for step in record["steps"]:
        for msg in step["messages"]:
            assert view.apply_message(msg)
            if msg["event"]["kind"] == "hand_started":
                hands_seen += 1
        expected = view_from(step["state"])
        got, want = comparable(view, expected)
        assert got == want, f"after {step['messages']}"
    assert view.phase == "match_over" and view.winners
    assert hands_seen >= 1, "the recording should cover more than one hand"


def test_hearts_leader_is_known_once_the_two_of_clubs_is_led():
    record = load("hearts")
    view = view_from(record["first"])
    for step in record["steps"]:
        for msg in step["messages"]:
            view.apply_message(msg)
            ev = msg["event"]
            if ev["kind"] == "played" and len(view.tricks) == 0 and len(view.trick) == 1:
                assert ev["card"] == "2C"
                assert view.trick_leader == ev["seat"]
                return
    pytest.fail("no first trick found")


def test_whist_view_knows_partner_trump_and_trick_order():
    record = load("whist")
    view = view_from(record["first"])
    assert view.seat == 3 and view.partner == 1 and view.opponents == [0, 2]
    assert view.trump == "H" and view.face_up == [Card("2H")]
    for step in record["steps"][:4]:
        for msg in step["messages"]:
            view.apply_message(msg)
    # Four cards: one finished trick, led by the dealer's left (seat 0), in play order.
    assert len(view.tricks) == 1
    trick = view.tricks[0]
    assert trick.leader == 0 and trick.cards[0] == Card("5H")
    assert [p.seat for p in trick.plays] == [0, 1, 2, 3]
    assert view.trick == [] and view.trick_leader == trick.winner


def test_your_turn_sets_the_legal_moves_and_events_clear_them():
    record = load("whist")
    view = view_from(record["first"])
    view.apply_message({"type": "your_turn", "seq": 0, "legal": {"type": "play", "cards": ["AS", "2H"]}})
    assert view.legal_kind == "play" and view.legal == [Card("2H"), Card("AS")]
    view.apply_message(record["steps"][0]["messages"][0])
    assert view.legal == [] and view.legal_kind == "wait"
    view.apply_message(
        {"type": "your_turn", "seq": 1, "legal": {"type": "pass", "count": 3, "direction": "left", "from": ["2C", "3C", "4C", "5C"]}}
    )
    assert view.legal_kind == "pass" and view.pass_count == 3 and view.pass_direction == "left"


def test_a_fresh_state_replaces_the_view():
    record = load("filippa")
    view = view_from(record["first"])
    last = record["steps"][-1]["state"]
    assert view.apply_message(last)
    assert view.phase == "match_over" and view.seq == last["seq"]
    assert not view.apply_message({"type": "pong"})


def test_helpers_on_the_table():
    view = View.from_state(load("whist")["first"])
    view.apply_message({"type": "event", "seq": 1, "event": {"kind": "played", "seat": 0, "card": "5H"}})
    view.apply_message({"type": "event", "seq": 2, "event": {"kind": "played", "seat": 1, "card": "9C"}})
    view.apply_message({"type": "event", "seq": 3, "event": {"kind": "played", "seat": 2, "card": "7H"}})
    assert view.led_suit == "H" and not view.leading
    assert view.winning_play().seat == 2
    assert Card("5H") in view.played_cards()
    unseen = view.unseen_cards()
    assert len(unseen) == 52 - 13 - 3 and Card("5H") not in unseen and Card("AS") not in unseen
    # Hearts out there: 13 minus ours (2H, 8H, KH) minus the two played.
    assert len(view.cards_out("H")) == 13 - 3 - 2
    assert "seat 2 7H" in view.summary()


def test_table_talk_and_unknown_messages_are_ignored():
    """A bot never needs `chat` (or a message type newer than the package): both pass by."""
    from parlor_bot.client import Session

    view = View.from_state(load("whist")["first"])
    before = dict(view.__dict__)
    chat = {"type": "chat", "seat": 1, "name": "Ann", "text": "<b>nice trick</b>", "at": 1}
    assert not view.apply_message(chat)
    assert not view.apply_message({"type": "something_new", "x": 1})
    assert view.__dict__ == before
    session = Session(object(), "ws://127.0.0.1:1/ws", "t1", log=None)
    session._handle(chat)
    session._handle({"type": "something_new"})


def test_unseen_cards_come_from_the_tables_deck():
    view = View.from_state(load("whist")["first"])
    assert Card("BJ") not in view.unseen_cards()
    view.options["jokers"] = True
    unseen = view.unseen_cards()
    assert Card("BJ") in unseen and Card("LJ") in unseen
    assert Card("2C") not in unseen and Card("2D") not in unseen
