"""Cards: parsing, the ASCII form, ordering and trick winners."""

import pickle

import pytest

from parlor_bot import ACE, Card, CardError, QUEEN, SPADES, full_deck, parse_cards, trick_winner
from parlor_bot.cards import by_suit, filippa_penalty, hearts_points


def test_parsing_accepts_the_protocols_one_syntax():
    qs = Card(QUEEN, SPADES)
    assert Card("QS") == qs == Card("Q", "S") == Card("qs") == Card("Qs")
    assert Card("10H") == Card("TH") == Card("10h") == Card("th")
    assert str(Card("10h")) == "TH"
    assert Card("TH") == Card(10, "H")
    assert Card.parse("AC").rank == ACE and Card("AC").suit == "C"
    assert Card(Card("2D")) == Card("2D")


def test_every_short_text_parses_exactly_when_the_schema_pattern_matches():
    import json
    import pathlib
    import re

    schema = json.loads(
        (pathlib.Path(__file__).parents[3] / "docs" / "protocol.schema.json").read_text()
    )
    pattern = re.compile(schema["client_to_server"]["$defs"]["Card"]["pattern"])
    texts = [chr(a) + chr(b) for a in range(32, 127) for b in range(32, 127)]
    texts += ["10" + chr(c) for c in range(32, 127)] + ["10HH", "010H", " 10H"]
    for text in texts:
        try:
            Card(text)
            ok = True
        except CardError:
            ok = False
        assert ok == bool(pattern.fullmatch(text)), text


@pytest.mark.parametrize(
    "bad", ["", "Q", "QX", "1S", "11S", "ZZ", "QSS", "floober", " QS", "QS\n", "0h",
            "Q\u2660", "010H", "JJ", "BJJ", "LS"])
def test_bad_text_is_refused_with_the_servers_reason(bad):
    with pytest.raises(
        CardError, match=r"is not a card: .* like QS, TD or 10H, or LJ / BJ .* \(either case\)"
    ):
        Card(bad)


def test_bad_rank_or_suit_numbers_are_refused():
    with pytest.raises(CardError):
        Card(17, "S")
    with pytest.raises(CardError, match="the jokers are spades"):
        Card(15, "H")
    with pytest.raises(CardError):
        Card(5, "X")


def test_ascii_form_round_trips_for_the_whole_deck():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    for i, card in enumerate(deck):
        assert Card(str(card)) == card
        assert card.index == i
        assert len(str(card)) == 2
    assert str(Card("TS")) == "TS" and repr(Card("TS")) == "Card('TS')"
    assert Card("QS").name == "queen of spades" and Card("QS").symbol == "Q\u2660"


def test_cards_order_by_rank_then_suit():
    assert Card("2S") < Card("3C") < Card("3D")
    assert max(parse_cards("2S KD AC 9H")) == Card("AC")
    assert min(parse_cards("2S KD AC 9H 2C")) == Card("2C")
    assert sorted(parse_cards("AS 2S KC")) == parse_cards("2S KC AS")
    assert by_suit(parse_cards("AS 2H KC")) == parse_cards("KC 2H AS")


def test_cards_are_hashable_immutable_and_compare_with_text():
    assert Card("QS") in {Card(QUEEN, SPADES)}
    assert Card("QS") == "QS" and Card("QS") != "QH" and Card("QS") != "junk"
    with pytest.raises(AttributeError):
        Card("QS").rank = 3
    assert pickle.loads(pickle.dumps(Card("9D"))) == Card("9D")


def test_parse_cards_takes_spaces_commas_and_lists():
    assert parse_cards("QS, 2C  TD") == [Card("QS"), Card("2C"), Card("TD")]
    assert parse_cards(["QS", "2C"]) == [Card("QS"), Card("2C")]


def test_trick_winner_follows_the_whist_seed():
    # Spades trump; East leads the 6 of clubs; nobody else holds a club.
    assert trick_winner(parse_cards("6C AD AH KD"), "S") == 0
    assert trick_winner(parse_cards("6C AD AH 2S"), "S") == 3
    assert trick_winner(parse_cards("6C 3S AH 2S"), "S") == 1
    assert trick_winner(parse_cards("6C 7C AH KC"), None) == 3


def test_penalty_tables():
    assert filippa_penalty(Card("QS")) == -13
    assert sum(filippa_penalty(c) for c in full_deck()) == -36
    assert sum(hearts_points(c) for c in full_deck()) == 26


def test_intervals():
    from parlor_bot.client import mean_interval, wilson_interval

    mean, half = mean_interval([1, 2, 3, 4])
    assert mean == 2.5 and abs(half - 1.96 * (5 / 3 / 4) ** 0.5) < 1e-9
    low, high = wilson_interval(0, 2)
    assert low == 0.0 and 0.6 < high < 0.7
    low, high = wilson_interval(10, 20)
    assert abs((low + high) / 2 - 0.5) < 1e-9 and 0.29 < low < 0.3


def test_the_jokers_are_spades_above_the_ace():
    big, little = Card("BJ"), Card("lj")
    assert str(big) == "BJ" and str(little) == "LJ" and repr(big) == "Card('BJ')"
    assert big.suit == little.suit == SPADES and big.is_joker and not Card("AS").is_joker
    assert big.rank > little.rank > ACE
    assert (little.index, big.index) == (52, 53)
    assert big.name == "big joker" and little.name == "little joker"
    assert Card(str(big)) == big and pickle.loads(pickle.dumps(little)) == little
    # A joker takes the ace of spades; the big joker takes the little one.
    assert trick_winner(parse_cards("AS LJ KS 2S"), "S") == 1
    assert trick_winner(parse_cards("6C AS BJ LJ"), "S") == 2
    deck = full_deck(jokers=True)
    assert len(set(deck)) == 52 and "2C" not in deck and "2D" not in deck
    assert deck[-2:] == [little, big]
