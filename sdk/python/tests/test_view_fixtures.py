"""The SDK's view follows the recorded matches exactly as the server's ``PlayerView::apply`` does.

The fixtures (``tests/fixtures/views/<variant>.json`` at the repository's root) are written by a
Rust test from the engine: for each stream, a starting snapshot, then every message one viewer
receives (an event or a ``your_turn`` prompt) with the view Rust computes after it. Any drift
between this package and the server fails here.
"""

import json
import pathlib

import pytest

from parlor_bot import View
from parlor_bot.facts import Facts

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "views"
VARIANTS = ["hearts", "filippa", "hearts5", "tricks", "whist", "spades", "ohhell", "euchre", "bridge"]
#: Each fixture file and the variant it plays: one a variant, and Spades with blind nil.
FILES = [(v, v) for v in VARIANTS] + [("spades_blind", "spades")]


def load(variant):
    return json.loads((FIXTURES / f"{variant}.json").read_text())


@pytest.mark.parametrize("file,variant", FILES)
def test_replaying_the_fixture_gives_every_recorded_view(file, variant):
    fixture = load(file)
    assert fixture["variant"] == variant
    facts = Facts.from_json(fixture["info"]["facts"])
    for stream in fixture["streams"]:
        view = View.from_state(stream["start"], facts)
        assert view.to_json() == stream["start"], "a snapshot reads back as it was written"
        assert view.seat == stream["seat"]
        for i, step in enumerate(stream["steps"]):
            if "event" in step:
                assert view.apply_message({"type": "event", "event": step["event"]})
            else:
                assert view.apply_message({"type": "your_turn", "legal": step["legal"]})
            got = view.to_json()
            if got != step["view"]:
                diff = {k: (got[k], step["view"][k]) for k in got if got[k] != step["view"].get(k)}
                pytest.fail(f"{variant}, seat {stream['seat']}, step {i} {step.get('event') or step.get('legal')}: {diff}")


def test_the_fixtures_cover_what_clients_must_get_right():
    kinds = set()
    for file, _ in FILES:
        for stream in load(file)["streams"]:
            for step in stream["steps"]:
                kinds.add(step["event"]["kind"] if "event" in step else "your_turn")
    assert kinds >= {
        "hand_started", "dealt", "trump_shown", "pass_chosen", "cards_passed", "played",
        "trick_won", "bad_card", "hand_scored", "match_over", "your_turn", "bid",
        "dealt_face_down", "cards_seen", "blind_nil", "exchanged",
        "turned_up", "called", "trump_made", "sits_out", "picked_up", "discarded",
        "discarded_card", "board", "contract", "dummy_shown", "claimed", "claim_answered",
    }
