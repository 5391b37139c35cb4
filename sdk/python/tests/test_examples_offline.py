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


@pytest.mark.parametrize("example", [
    ("euchre_bot", "EuchreBot"), ("lowest_bot", "LowestBot"), ("whist_bot", "WhistBot"),
])
def test_examples_call_discard_and_play_euchre_legally(example):
    """Every recorded Euchre prompt (tests/fixtures/views/euchre.json) gets a legal answer:
    the example's own calls and discard, or the base class's for a bot without them."""
    from parlor_bot.calling import Call

    module, cls = example
    bot = getattr(load_example(module), cls)()
    kinds = []
    for view in bidding_prompts("euchre"):
        kinds.append(view.legal_kind)
        if view.legal_kind == "call":
            call = bot.call(view.copy())
            assert isinstance(call, Call) and call in view.legal_calls(), view.summary()
        elif view.legal_kind == "discard":
            card = bot.discard(view.copy())
            assert isinstance(card, Card) and card in view.legal, view.summary()
        else:
            card = bot.play_card(view.copy())
            assert isinstance(card, Card) and card in view.legal, view.summary()
    assert kinds.count("call") >= 3 and kinds.count("discard") >= 1 and kinds.count("play") >= 10


def euchre_view(hand, trump=None, seat=0, dealer=3):
    from parlor_bot import parse_cards
    from parlor_bot.calling import Calling

    view = View(variant="euchre", options={"defend_alone": False}, seat=seat, players=4,
                trump=trump, dealer=dealer)
    view.hand = parse_cards(hand)
    view.calling = Calling()
    return view


def test_the_call_helpers_list_what_the_prompt_allows():
    from parlor_bot import DEFEND, PASS, name_trump, order_up

    view = euchre_view("JD JH 9H AS KC")
    view.face_up = [Card("QH")]
    view.set_legal({"type": "call", "order_up": True, "name": False, "except": None,
                    "pass": True, "alone": True, "defend_alone": False})
    assert view.legal_calls() == [PASS, order_up(), order_up(alone=True)]
    assert view.turned_card == Card("QH")
    assert "to do: call: pass, order up, order up alone" in view.summary()
    # The second round: any suit but the turned one's; the dealer stuck may not pass.
    view.set_legal({"type": "call", "order_up": False, "name": True, "except": "H",
                    "pass": False, "alone": False, "defend_alone": False})
    assert view.legal_calls() == [name_trump("C"), name_trump("D"), name_trump("S")]
    view.set_legal({"type": "call", "order_up": False, "name": False, "except": None,
                    "pass": True, "alone": False, "defend_alone": True})
    assert view.legal_calls() == [PASS, DEFEND]
    assert view.to_json()["legal"] == {
        "type": "call", "order_up": False, "name": False, "except": None, "pass": True,
        "alone": False, "defend_alone": True}
    view.set_legal({"type": "play", "cards": ["JD"]})
    assert view.legal_calls() == []
    # On the wire a call sits beside the message's type.
    assert name_trump("H", alone=True).to_json() == {"call": "trump", "suit": "H", "alone": True}
    assert PASS.to_json() == {"call": "pass"} and DEFEND.to_json() == {"call": "defend_alone"}


def test_the_simple_call_and_discard_count_the_bowers_as_trumps():
    from parlor_bot import PASS, name_trump, order_up, simple_call, simple_discard

    prompt = {"type": "call", "order_up": True, "name": False, "except": None, "pass": True,
              "alone": True, "defend_alone": False}
    # Hearts turned: the right and left bowers and the nine are three trumps and two bowers.
    view = euchre_view("JH JD 9H AS KC")
    view.face_up = [Card("QH")]
    view.set_legal(prompt)
    assert simple_call(view) == order_up()
    # The same cards with spades turned: one trump, no bower.
    view.face_up = [Card("QS")]
    assert simple_call(view) == PASS
    # Both bowers, the ace and king of trump and a side ace: alone.
    view = euchre_view("JH JD AH KH AS")
    view.face_up = [Card("QH")]
    view.set_legal(prompt)
    assert simple_call(view) == order_up(alone=True)
    # A stuck dealer names its best suit, whatever its strength.
    view = euchre_view("9C TD QS KS 9H", seat=3)
    view.face_up = [Card("QH")]
    view.set_legal({"type": "call", "order_up": False, "name": True, "except": "H",
                    "pass": False, "alone": False, "defend_alone": False})
    assert simple_call(view) == name_trump("S")
    # The dealer's discard: never the left bower, the lowest side card.
    view = euchre_view("JD 9H AS TC KC QH", trump="H", seat=3)
    view.set_legal({"type": "discard", "from": ["TC", "KC", "JD", "9H", "QH", "AS"]})
    assert simple_discard(view) == Card("TC")
    view.set_legal({"type": "discard", "from": ["JD", "9H", "QH", "JH", "AH", "KH"]})
    assert simple_discard(view) == Card("9H")
    assert view.to_json()["legal"]["type"] == "discard"


def test_the_bowers_win_and_follow_as_trumps():
    from parlor_bot import Play, trick_winner, parse_cards

    cards = parse_cards("AH JD 9D")
    # Hearts trump: the left bower (JD) beats the ace of hearts, and the 9D does not trump.
    assert trick_winner(cards, "H", bowers=True) == 1
    # Without bowers the jack of diamonds is a diamond that cannot follow hearts.
    assert trick_winner(cards, "H") == 0
    assert trick_winner(parse_cards("JD JH"), "H", bowers=True) == 1
    view = euchre_view("JD AD 9C", trump="H", seat=1)
    view.trick = [Play(0, Card("KH"))]
    assert view.led_suit == "H" and view.suit_of(Card("JD")) == "H" and view.has_suit("H")
    assert view.would_win(Card("JD")) and not view.would_win(Card("AD"))
    # The deck is the 24 cards from nine to ace.
    assert len(view.unseen_cards()) == 24 - 3 - 1
    assert all(c.rank >= 9 for c in view.deck())


def test_a_thrown_in_hand_and_a_seat_sitting_out_are_followed():
    from variant_facts import facts_for

    view = euchre_view("9C TC JC QC KC", seat=0, dealer=3)
    view.facts = facts_for("euchre")
    view.hand_sizes = [5, 5, 5, 5]
    view.scores, view.negatives, view.tricks_won = [0] * 4, [0] * 4, [0] * 4
    view.apply_event({"kind": "hand_started", "hand": 1, "dealer": 3, "pass": None})
    assert view.phase == "calling" and view.to_act == [0] and view.calling.calls == []
    for seat in (0, 1, 2, 3, 0, 1, 2, 3):
        view.apply_event({"kind": "called", "seat": seat, "call": "pass"})
    view.apply_event({"kind": "thrown_in"})
    assert view.to_act == [] and len(view.calling.calls) == 8
    # The next hand seat 1 goes alone: seat 3 (the dealer) sits out and never picks up.
    view.apply_event({"kind": "hand_started", "hand": 2, "dealer": 3, "pass": None})
    view.apply_event({"kind": "turned_up", "cards": ["9S"]})
    view.apply_event({"kind": "called", "seat": 0, "call": "pass"})
    view.apply_event({"kind": "called", "seat": 1, "call": "order_up", "alone": True})
    view.apply_event({"kind": "trump_made", "trump": "S", "maker": 1, "alone": True})
    view.apply_event({"kind": "sits_out", "seat": 3})
    assert view.phase == "playing" and view.sitting_out == [3] and view.to_act == [0]
    assert view.trump_made.alone and view.trump == "S"
    view.apply_event({"kind": "played", "seat": 0, "card": "9H"})
    view.apply_event({"kind": "played", "seat": 1, "card": "TH"})
    assert view.to_act == [2]
    view.apply_event({"kind": "played", "seat": 2, "card": "AH"})
    assert view.to_act == []
    view.apply_event({"kind": "trick_won", "winner": 2, "cards": ["9H", "TH", "AH"]})
    assert [p.seat for p in view.tricks[0].plays] == [0, 1, 2]
    assert view.to_act == [2]


@pytest.mark.parametrize("example", [
    ("bridge_bot", "BridgeBot"), ("lowest_bot", "LowestBot"),
])
def test_examples_call_play_and_answer_claims_at_bridge_legally(example):
    """Every recorded Bridge prompt (tests/fixtures/views/bridge.json) gets a legal answer:
    calls of the auction, cards of its own hand or (declarer) of dummy's, answers to claims;
    the base class's call and answer for a bot without them."""
    from parlor_bot.calling import Call

    module, cls = example
    bot = getattr(load_example(module), cls)()
    kinds, dummys = [], 0
    for view in bidding_prompts("bridge"):
        kinds.append(view.legal_kind)
        if view.legal_kind == "call":
            call = bot.call(view.copy())
            assert isinstance(call, Call) and call in view.legal_calls(), view.summary()
        elif view.legal_kind == "answer_claim":
            assert isinstance(bot.answer_claim(view.copy()), bool)
        else:
            dummys += view.playing_dummy
            card = bot.play_card(view.copy())
            assert isinstance(card, Card) and card in view.legal, view.summary()
    assert kinds.count("call") >= 4 and kinds.count("play") >= 10
    assert "answer_claim" in kinds and dummys >= 1


def bridge_view(hand, seat=0, dealer=0):
    from parlor_bot import parse_cards
    from parlor_bot.calling import Calling
    from variant_facts import facts_for

    view = View(variant="bridge", options={}, seat=seat, players=4, dealer=dealer,
                facts=facts_for("bridge"))
    view.hand = parse_cards(hand)
    view.hand_sizes = [13] * 4
    view.scores, view.negatives, view.tricks_won = [0] * 4, [0] * 4, [0] * 4
    view.calling = Calling()
    return view


def test_the_auction_prompt_lists_bids_from_the_lowest_allowed_then_doubles():
    from parlor_bot import DOUBLE, PASS, REDOUBLE, bid

    view = bridge_view("AS KS QS 5S 2S AH 3H 4D 5D 6D 2C 3C 4C")
    view.set_legal({
        "type": "call", "order_up": False, "name": False, "except": None, "pass": True,
        "alone": False, "defend_alone": False, "bid_from": {"level": 6, "strain": "S"},
        "double": True,
    })
    calls = view.legal_calls()
    assert calls[:2] == [PASS, DOUBLE] and REDOUBLE not in calls
    assert calls[2:] == [bid(6, "S"), bid(6, "NT")] + [bid(7, s) for s in "CDHS"] + [bid(7, "NT")]
    assert str(bid(3, "NT")) == "3NT"
    assert bid(3, "NT").to_json() == {"call": "bid", "level": 3, "strain": "NT"}
    with pytest.raises(ValueError):
        bid(8, "S")
    # After 7NT only pass, double or redouble are left.
    view.set_legal({"type": "call", "pass": True, "redouble": True})
    assert view.legal_calls() == [PASS, REDOUBLE]
    assert view.to_json()["legal"]["redouble"] is True


def test_the_simple_call_opens_naturally_and_answers_partner():
    from parlor_bot import PASS, Bridge, bid, simple_call

    open_prompt = {"type": "call", "pass": True, "bid_from": {"level": 1, "strain": "C"}}
    # 14 points, five spades: one spade.
    view = bridge_view("AS KS QS 5S 2S AH 3H 4D 5D 6D 2C 3C 4C")
    view.set_legal(open_prompt)
    view.bridge = Bridge(1, "None")
    assert simple_call(view) == bid(1, "S")
    # 16 balanced points: 1NT.
    view = bridge_view("AS KS 5S 2S AH QH 3H KD 5D 6D JC 3C 4C")
    view.bridge = Bridge(1, "None")
    view.set_legal(open_prompt)
    assert simple_call(view) == bid(1, "NT")
    # Partner (seat 2) opened 1H; 7 points and four hearts: 2H.
    view = bridge_view("KS 5S 2S AH 7H 3H 2H 4D 5D 6D 2C 3C 4C", seat=0, dealer=2)
    view.bridge = Bridge(3, "EastWest")
    view.apply_event({"kind": "called", "seat": 2, "call": "bid", "level": 1, "strain": "H"})
    view.apply_event({"kind": "called", "seat": 3, "call": "pass"})
    view.set_legal({"type": "call", "pass": True, "bid_from": {"level": 1, "strain": "S"},
                    "double": False})
    assert simple_call(view) == bid(2, "H")
    # A weak hand passes.
    view = bridge_view("2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C")
    view.bridge = Bridge(1, "None")
    view.set_legal(open_prompt)
    assert simple_call(view) == PASS


def test_declarer_plays_dummys_cards_and_claims_are_followed():
    """The events of a board as seat 0 (North, declarer in 1NT) sees them: dummy's cards
    asked for on dummy's turn, a claim rejected and one accepted."""
    view = bridge_view("AS KS 5S 2S AH QH 3H KD 5D 6D QC 3C 4C", seat=0, dealer=0)
    view.apply_event({"kind": "hand_started", "hand": 0, "dealer": 0, "pass": None})
    view.apply_event({"kind": "dealt", "seat": 0,
                      "cards": ["QC", "3C", "4C", "KD", "5D", "6D", "AH", "QH", "3H",
                                "AS", "KS", "5S", "2S"]})
    view.apply_event({"kind": "board", "board": 1, "vulnerability": "None"})
    assert view.phase == "calling" and view.to_act == [0] and view.bridge.board == 1
    view.apply_event({"kind": "called", "seat": 0, "call": "bid", "level": 1, "strain": "NT"})
    assert view.to_act == [1]
    for seat in (1, 2, 3):
        view.apply_event({"kind": "called", "seat": seat, "call": "pass"})
    view.apply_event({"kind": "contract", "contract": {
        "bid": {"level": 1, "strain": "NT"}, "doubled": "undoubled", "declarer": 0}})
    assert view.phase == "playing" and view.trump is None and view.to_act == [1]
    assert view.declaring and view.contract.dummy == 2 and str(view.contract) == "1NT by North"
    view.apply_event({"kind": "played", "seat": 1, "card": "2D"})
    dummy = ["2C", "5C", "7D", "8D", "9D", "2H", "4H", "5H", "3S", "4S", "6S", "7S", "8S"]
    view.apply_event({"kind": "dummy_shown", "seat": 2, "cards": dummy})
    # Dummy's turn: declarer (seat 0) acts, for dummy's cards.
    assert view.to_act == [0] and len(view.bridge.dummy.cards) == 13
    view.apply_legal({"type": "play", "cards": ["7D", "8D", "9D"]})
    assert view.playing_dummy and view.to_act == [0]
    view.apply_event({"kind": "played", "seat": 2, "card": "9D"})
    assert "9D" not in {str(c) for c in view.bridge.dummy.cards} and view.to_act == [3]
    view.apply_event({"kind": "played", "seat": 3, "card": "TD"})
    assert view.to_act == [0]
    view.apply_event({"kind": "played", "seat": 0, "card": "KD"})
    view.apply_event({"kind": "trick_won", "winner": 0, "cards": ["2D", "9D", "TD", "KD"]})
    assert view.to_act == [0]
    # A claim: the defenders answer, lowest first; one rejection and declarer plays on.
    hand = [str(c) for c in view.hand]
    view.apply_event({"kind": "claimed", "seat": 0, "tricks": 12, "cards": hand})
    assert view.to_act == [1, 3] and view.bridge.claim.tricks == 12
    assert set(view.shown_cards()) >= set(view.hand)
    view.apply_event({"kind": "claim_answered", "seat": 1, "accept": False})
    assert view.bridge.claim is None and view.to_act == [0]
    assert view.bridge.claims_rejected == 1 and view.bridge.to_json()["claims_rejected"] == 1
    # Another, with dummy to lead after a trick it won: both accept.
    view.apply_event({"kind": "played", "seat": 0, "card": "AS"})
    view.apply_event({"kind": "played", "seat": 1, "card": "9S"})
    view.apply_event({"kind": "played", "seat": 2, "card": "3S"})
    view.apply_event({"kind": "played", "seat": 3, "card": "TS"})
    view.apply_event({"kind": "trick_won", "winner": 0, "cards": ["AS", "9S", "3S", "TS"]})
    view.apply_event({"kind": "claimed", "seat": 0, "tricks": 5,
                      "cards": [str(c) for c in view.hand]})
    view.apply_event({"kind": "claim_answered", "seat": 3, "accept": True})
    assert view.to_act == [1] and view.bridge.claim.accepted == [3]
    view.apply_event({"kind": "claim_answered", "seat": 1, "accept": True})
    assert view.to_act == []


def test_a_defender_accepts_only_a_claim_of_top_winners():
    from parlor_bot import Bridge, Contract, ShownHand, parse_cards, simple_answer_claim
    from parlor_bot.bridge import Claim

    view = bridge_view("2S 3S", seat=1)
    view.bridge = Bridge(1, "None", Contract(3, "NT", "undoubled", 0),
                         ShownHand(2, parse_cards("AH KH")), Claim(0, 2, parse_cards("AS KS")))
    view.trump = None
    view.tricks = []
    # Only two cards each left: the rest of the deck counts as played for this check.
    from parlor_bot.view import Trick
    played = [c for c in view.deck() if str(c) not in {"2S", "3S", "AH", "KH", "AS", "KS",
                                                       "2H", "3H"}]
    view.tricks = [Trick(0, played[i:i + 4], 0) for i in range(0, len(played), 4)]
    # Their AS KS and dummy's AH KH take both tricks left: accepted.
    assert simple_answer_claim(view)
    view.hand = parse_cards("AS 3S")
    view.bridge.claim = Claim(0, 2, parse_cards("QS JS"))
    view.bridge.dummy = ShownHand(2, parse_cards("QH JH"))
    played = [c for c in view.deck() if str(c) not in {"AS", "3S", "QH", "JH", "QS", "JS",
                                                       "AH", "KH"}]
    view.tricks = [Trick(0, played[i:i + 4], 0) for i in range(0, len(played), 4)]
    # I hold AS and my partner AH KH: not one of theirs is a top winner.
    assert not simple_answer_claim(view)


def test_the_example_declarer_claims_top_winners_once_a_board():
    from parlor_bot import Bridge, Contract, ShownHand, parse_cards
    from parlor_bot.view import Trick

    bot = load_example("bridge_bot").BridgeBot()
    view = bridge_view("AS KS", seat=0)
    view.bridge = Bridge(1, "None", Contract(3, "NT", "undoubled", 0),
                         ShownHand(2, parse_cards("AH KH")))
    view.trump = None
    played = [c for c in view.deck() if str(c) not in {"AS", "KS", "AH", "KH",
                                                       "2S", "3S", "2H", "3H"}]
    view.tricks = [Trick(0, played[i:i + 4], 0) for i in range(0, len(played), 4)]
    view.trick = []
    # Every card left on declarer's side is a winner: both tricks are claimed.
    assert bot.claim(view) == 2
    # After a rejection this board the cards are played out.
    view.bridge.claims_rejected = 1
    assert bot.claim(view) is None
