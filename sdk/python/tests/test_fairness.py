"""The deal recipe of docs/FAIRNESS.md, reimplemented here, gives the engine's worked example."""

from parlor_bot.fairness import commitment, deal, deck, hand_secret, practice_master, verify_hand

MASTER = "255f9ceb251b102c7698f98ef4174281053199d5f844935e110c24bb6dfe7dd6"
SECRET = "9ae6f517b2eb2fb4db9c788cb718e046801743a40d7d3dc744def3ba91dcc548"
COMMIT = "764e4e0460226d04e79d44dfc28fc9f41c22062cca520696b4035aace52db440"
DECK = (
    "8H 4H 4S TC 7S 6C 2D 7H TD 5S QC 3C 5D JS 9C TH QH 5C JH 7C 8C 2S 2H 3H 6D 5H 6S "
    "4D 7D 3D QS 9H 8S 4C KS 3S 9S KD KC 9D AS JD AH KH QD AC 6H TS AD 8D JC 2C"
)


def test_the_worked_example():
    master = practice_master(42)
    assert master.hex() == MASTER
    secret = hand_secret(master, 0)
    assert secret.hex() == SECRET
    assert commitment(secret).hex() == COMMIT
    assert " ".join(deck(secret)) == DECK


def test_verify_hand_accepts_the_deal_and_refuses_a_changed_one():
    hands = deal("hearts", 3, bytes.fromhex(SECRET))
    assert hands[0][:3] == ["8H", "7S", "TD"]
    dealt = {seat: hands[seat] for seat in range(4)}
    assert verify_hand("hearts", 3, SECRET, COMMIT, dealt) == []
    swapped = dict(dealt)
    swapped[0] = [hands[1][0]] + hands[0][1:]
    assert verify_hand("hearts", 3, SECRET, COMMIT, swapped)
    assert verify_hand("hearts", 3, SECRET, "00" * 32, dealt)


#: The worked example's secret over Spades' deck with jokers (the engine pins the same).
JOKERS_DECK = (
    "TH 6H 6S JC 9S 7C 4D 9H QD 7S KC 4C 7D KS TC QH AH 6C KH 8C 9C 4S 4H 5H 8D 7H 8S 6D "
    "9D 5D AS JH TS 5C LJ 5S JS 2H AC JD BJ KD 3S 2S AD 3D 8H QS 3H TD QC 3C"
)


def test_the_jokers_deck_has_52_cards_without_the_twos_of_clubs_and_diamonds():
    cards = deck(bytes.fromhex(SECRET), jokers=True)
    assert " ".join(cards) == JOKERS_DECK
    assert len(set(cards)) == 52 and "2C" not in cards and "2D" not in cards
    hands = deal("spades", 3, bytes.fromhex(SECRET), jokers=True)
    assert "BJ" in hands[0]
    dealt = {seat: hands[seat] for seat in range(4)}
    assert verify_hand("spades", 3, SECRET, COMMIT, dealt, jokers=True) == []
    # Read without jokers, the same secret deals other cards.
    assert verify_hand("spades", 3, SECRET, COMMIT, dealt)


def test_oh_hell_hand_sizes_leave_a_stock():
    hands = deal("ohhell", 0, bytes.fromhex(SECRET), players=3, hand_size=5)
    assert [len(hands[s]) for s in range(3)] == [5, 5, 5]
    assert len(hands[-1]) == 52 - 15
    dealt = {seat: hands[seat] for seat in range(3)}
    assert verify_hand("ohhell", 0, SECRET, COMMIT, dealt, players=3, hand_size=5) == []
    assert verify_hand("ohhell", 0, SECRET, COMMIT, dealt, players=3, hand_size=6)


def test_a_bridge_board_is_dealt_as_any_four_seat_hand_of_the_whole_deck():
    """Bridge deals the whole deck, thirteen each from the dealer's left, by the same recipe:
    the board's dealer (North on board 1, East on board 2...) only sets where dealing starts."""
    hands = deal("bridge", 1, bytes.fromhex(SECRET))
    assert hands == deal("hearts", 1, bytes.fromhex(SECRET))
    assert hands[-1] == [] and sorted(c for s in range(4) for c in hands[s]) == sorted(
        deck(bytes.fromhex(SECRET)))
    dealt = {seat: hands[seat] for seat in range(4)}
    assert verify_hand("bridge", 1, SECRET, COMMIT, dealt) == []
    assert verify_hand("bridge", 2, SECRET, COMMIT, dealt)
