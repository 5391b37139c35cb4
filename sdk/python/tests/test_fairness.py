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
