"""The SDK against a real `parlor serve`: whole matches, the checker, reconnection."""

import importlib.util
import pathlib
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from parlor_bot import Bot, ParlorError, create_table, trick_winner
from parlor_bot.client import variants
from parlor_bot.facts import Facts
from variant_facts import facts_for

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"

#: Small targets so that a match takes a hand or a few.
QUICK = {
    "hearts": {"target": 30},
    "filippa": {"target": 30},
    "hearts5": {"hands": 2},
    "tricks": {"target": 15},
    "whist": {"target": 1},
    "spades": {"target": 100},
    "ohhell": {"players": 4, "schedule": "down"},
    # Defending alone on, so that some hands have a seat sitting out.
    "euchre": {"target": 10, "defend_alone": True},
    "bridge": {"hands": 4},
}


def example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lines():
    logged = []
    return logged, logged.append


@pytest.mark.parametrize("variant", list(QUICK))
@pytest.mark.parametrize("bot_name", ["lowest_bot.LowestBot", "whist_bot.WhistBot"])
def test_examples_play_whole_matches_without_an_illegal_move(server, variant, bot_name):
    module, cls = bot_name.split(".")
    bot = getattr(example(module), cls)()
    logged, log = lines()
    result = bot.run(server, variant=variant, options=QUICK[variant], opponents="random",
                     matches=2, seed=42, log=log)
    assert result.matches == 2, logged
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert result.hand_points, "no hand was scored"
    assert all(len(h) == (5 if variant == "hearts5" else 4) for h in result.hand_points)
    assert result.wins == sum(result.seat in w for w in result.winners)
    assert result.moves >= 10
    assert result.facts == facts_for(variant)


@pytest.mark.parametrize("variant, bot_name", [
    ("spades", "spades_bot.SpadesBot"), ("ohhell", "ohhell_bot.OhHellBot"),
])
def test_the_bidding_examples_play_a_whole_match_against_built_in_bots(server, variant, bot_name):
    """The Spades and Oh Hell examples bid every hand and play a match to its end against the
    server's heuristic bots, without an illegal move."""
    module, cls = bot_name.split(".")
    base = getattr(example(module), cls)
    lines_seen = []

    class Recording(base):
        def on_match_over(self, view):
            lines_seen.extend(view.history)

    logged, log = lines()
    result = Recording().run(server, variant=variant, options=QUICK[variant],
                             opponents="heuristic", matches=1, seed=5, log=log)
    assert result.matches == 1, logged
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert lines_seen and len(lines_seen) == len(result.hand_points)
    seat = result.seat
    for line in lines_seen:
        # Every hand was bid by every seat, the bot's bid within its hand's tricks.
        assert line.bids is not None and len(line.bids) == 4
        assert 0 <= line.bids[seat] <= sum(line.tricks)
    if variant == "ohhell":
        # Twelve cards down to one, each hand its size.
        assert [sum(line.tricks) for line in lines_seen] == list(range(12, 0, -1))
    else:
        assert all(line.bags is not None for line in lines_seen)


#: The other jack of each suit's colour: the left bower when that suit is trump.
LEFT_BOWER = {"C": "JS", "S": "JC", "D": "JH", "H": "JD"}


def euchre_trumps(cards, suit):
    """The cards of ``cards`` that are trumps when ``suit`` is, the left bower among them."""
    return [c for c in cards if c.suit == suit or str(c) == LEFT_BOWER[suit]]


def euchre_points(line):
    """A Euchre hand's points per seat, worked out from its tricks and how trump was made."""
    made = line.trump_made
    if made is None:
        return [0, 0, 0, 0]
    makers = made.maker % 2
    tricks = line.tricks[makers] + line.tricks[makers + 2]
    if tricks == 5:
        side, points = makers, 4 if made.alone else 2
    elif tricks >= 3:
        side, points = makers, 1
    else:
        side, points = 1 - makers, 4 if made.defender_alone is not None else 2
    return [points if seat % 2 == side else 0 for seat in range(4)]


def test_the_euchre_example_plays_a_whole_match_against_built_in_bots(server):
    """The Euchre example calls, discards and plays a match to its end against the server's
    heuristic bots without an illegal move; its calls and discards follow its rules, the card
    it discards is never played, and every hand's score is Euchre's."""
    euchre = example("euchre_bot")
    calls, discards, hands, lines_seen = [], [], [], []

    class Recording(euchre.EuchreBot):
        def call(self, view):
            answer = super().call(view)
            calls.append((view.copy(), answer))
            return answer

        def discard(self, view):
            card = super().discard(view)
            discards.append((view.copy(), card))
            return card

        def on_event(self, event, view):
            if event["kind"] == "hand_scored":
                hands.append(view.copy())

        def on_match_over(self, view):
            lines_seen.extend(view.history)

    logged, log = lines()
    result = Recording().run(server, variant="euchre", options={"target": 10, "defend_alone": True},
                             opponents="heuristic", matches=1, seed=5, log=log)
    assert result.matches == 1, logged
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert calls, "the bot was never asked to call"
    for view, answer in calls:
        assert answer in view.legal_calls(), view.summary()
        if view.trump_made is not None:
            assert answer.kind == "pass"  # it never defends alone
            continue
        round_one = any(c.kind == "order_up" for c in view.legal_calls())
        suits = [view.turned_card.suit] if round_one else [
            c.suit for c in view.legal_calls() if c.kind == "trump"]
        good = [s for s in suits if len(euchre_trumps(view.hand, s)) >= 2
                and any(c.rank == 11 for c in euchre_trumps(view.hand, s))]
        if good:
            assert answer.kind in ("order_up", "trump") and not answer.alone, view.summary()
            assert answer.kind == "order_up" or answer.suit in good
        elif any(c.kind == "pass" for c in view.legal_calls()):
            assert answer.kind == "pass", view.summary()
    for view, card in discards:
        side = [c for c in view.hand if c not in euchre_trumps(view.hand, view.trump)]
        assert card in view.hand and (card in side or not side)
        assert not side or card.rank == min(c.rank for c in side)
    # The hands the bot dealt and discarded in: its own view keeps the discard, never played.
    own = [v for v in hands if v.calling.discarded is not None]
    assert len(own) == len(discards)
    for view in own:
        assert view.calling.discarded not in view.played_cards()
    assert lines_seen and len(lines_seen) == len(result.hand_points) == len(hands)
    for line in lines_seen:
        assert line.points == euchre_points(line), line
        assert sum(line.tricks) == (0 if line.trump_made is None else 5)
    winners = result.winners[0]
    assert winners and all(result.match_totals[0][s] >= 10 for s in winners)


def test_the_bridge_example_plays_a_whole_match_against_built_in_bots(server):
    """The Bridge example bids, plays its own and dummy's cards and answers claims through a
    match against the server's heuristic bots without an illegal move; every board's line is
    duplicate scoring's, North-South's score and East-West's its negative."""
    bridge = example("bridge_bot")
    calls, dummy_cards, answers, lines_seen = [], [], [], []

    class Recording(bridge.BridgeBot):
        def call(self, view):
            answer = super().call(view)
            calls.append((view.copy(), answer))
            return answer

        def play_card(self, view):
            card = super().play_card(view)
            if view.playing_dummy:
                dummy_cards.append((view.copy(), card))
            return card

        def answer_claim(self, view):
            accept = super().answer_claim(view)
            answers.append((view.copy(), accept))
            return accept

        def on_match_over(self, view):
            lines_seen.extend(view.history)

    logged, log = lines()
    result = Recording().run(server, variant="bridge", options={"hands": 4},
                             opponents="heuristic", matches=1, seed=3, log=log)
    assert result.matches == 1, logged
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert len(calls) >= 4
    for view, answer in calls:
        assert answer in view.legal_calls(), view.summary()
    for view, card in dummy_cards:
        assert view.declaring and card in view.bridge.dummy.cards and card in view.legal
    for view, accept in answers:
        assert view.bridge.claim is not None and view.seat % 2 != view.bridge.claim.seat % 2
    assert len(lines_seen) == 4
    for line in lines_seen:
        board = line.board
        assert board is not None
        assert line.points == [board.score, -board.score, board.score, -board.score]
        if board.contract is None:
            assert board.score == 0 and sum(line.tricks) == 0
        else:
            declarer = board.contract.declarer
            assert sum(line.tricks) == 13
            assert board.declarer_tricks == line.tricks[declarer] + line.tricks[(declarer + 2) % 4]
    assert [line.board.board for line in lines_seen] == [1, 2, 3, 4]


def test_the_server_publishes_the_facts_the_fixtures_were_recorded_with(server):
    listed = {v["name"]: v for v in variants(server)}
    assert set(listed) == set(QUICK)
    for variant in QUICK:
        assert Facts.from_json(listed[variant]["facts"]) == facts_for(variant), variant


@pytest.mark.parametrize("variant", list(QUICK))
def test_the_view_matches_the_server_on_every_turn(server, variant):
    """The bot's hand is exactly what the server says it may pass, or holds what it may play,
    and the trick and score bookkeeping adds up."""
    checked = []

    class Careful(Bot):
        def bid(self, view):
            assert view.phase == "bidding" and view.to_act == [view.seat]
            assert view.bids[view.seat] is None and view.legal_bids
            assert len(view.hand) == view.hand_sizes[view.seat] == view.bid_max
            # Everyone from the dealer's left up to us has bid, nobody after us.
            first = (view.dealer + 1) % view.players
            before = [(first + i) % view.players for i in range(view.players)]
            before = before[: before.index(view.seat)]
            assert all((view.bids[s] is not None) == (s in before) for s in range(view.players))
            checked.append(view)
            return view.legal_bids[-1 if len(checked) % 2 else 0]

        def pass_cards(self, view):
            assert set(view.legal) == set(view.hand)
            checked.append(view)
            return view.hand[:3]

        def call(self, view):
            assert view.phase == "calling" and view.to_act == [view.seat]
            if view.bridge is not None:
                return self.bridge_call(view)
            assert len(view.hand) == view.hand_sizes[view.seat] == 5
            allowed = view.legal_calls()
            assert allowed and len(set(allowed)) == len(allowed)
            made = view.trump_made
            if made is None:
                # Nobody made trump yet: every call so far was a pass.
                assert all(c.kind == "pass" for _, c in view.calling.calls)
                assert view.turned_card in view.face_up
            else:
                # A defender asked whether to defend alone.
                assert [c.kind for c in allowed] == ["pass", "defend_alone"]
                assert view.seat % 2 != made.maker % 2 and view.trump == made.trump
            checked.append(view)
            return allowed[len(checked) % len(allowed)]

        def bridge_call(self, view):
            # The auction goes round from the dealer; nothing is decided until it ends.
            assert len(view.hand) == view.hand_sizes[view.seat] == 13
            assert view.seat == (view.dealer + len(view.calling.calls)) % 4
            assert view.contract is None and view.bridge.dummy is None and view.trump is None
            allowed = view.legal_calls()
            assert allowed[0].kind == "pass" and len(set(allowed)) == len(allowed)
            checked.append(view)
            # Mostly passes, now and then the lowest bid or a double.
            pick = len(checked) % 3 if len(checked) % 4 == 0 else 0
            return allowed[min(pick, len(allowed) - 1)]

        def claim(self, view):
            # Declarer, once a hand, past the sixth trick: claims every trick left.
            if len(view.tricks) >= 6 and view.hand_number not in [v.hand_number for v in self.claimed]:
                self.claimed.append(view.copy())
                return len(view.hand)
            return None

        def discard(self, view):
            assert view.phase == "discarding" and view.seat == view.dealer
            assert view.to_act == [view.seat] and view.trump == view.turned_card.suit
            assert view.turned_card in view.hand and len(view.hand) == 6
            assert set(view.legal) == set(view.hand)
            checked.append(view)
            return view.legal[len(checked) % 6]

        def play_card(self, view):
            # Declarer on dummy's turn is asked for dummy's cards, face up for everyone.
            plays_for, holding = view.seat, view.hand
            if view.playing_dummy:
                assert view.declaring
                plays_for, holding = view.bridge.dummy.seat, view.bridge.dummy.cards
                assert len(holding) == view.hand_sizes[plays_for]
            elif view.bridge is not None and view.bridge.dummy is not None:
                assert view.bridge.dummy.seat != view.seat, "dummy is never asked to play"
            assert set(view.legal) <= set(holding)
            assert len(view.hand) == view.hand_sizes[view.seat]
            playing = view.players - len(view.sitting_out)
            assert view.seat not in view.sitting_out
            played = len(view.played_cards())
            assert played == len(view.tricks) * playing + len(view.trick)
            assert sum(view.tricks_won) == len(view.tricks)
            assert all(t.plays[trick_winner(t.cards, view.trump, view.bowers)].seat == t.winner
                       for t in view.tricks)
            assert view.to_act == [view.seat]
            if view.trick:
                assert view.trick_leader == view.trick[0].seat
                # The next seat that plays: a lone maker against a lone defender leaves two.
                after = (view.trick[-1].seat + 1) % view.players
                while after in view.sitting_out:
                    after = (after + 1) % view.players
                assert after == plays_for
                # Following suit as the server sees it (in Euchre the left bower is a trump);
                # a seat void in the suit may play more (Hearts keeps some cards back).
                led = view.led_suit
                follow = [c for c in holding if view.suit_of(c) == led]
                if follow:
                    assert set(view.legal) == set(follow)
            if view.history:
                assert view.scores == view.history[-1].totals or variant == "tricks"
            if view.bids is not None:
                assert all(b is not None for b in view.bids) and view.phase == "playing"
            checked.append(view)
            return max(view.legal)

    bot = Careful()
    bot.claimed = []
    result = bot.run(server, variant=variant, options=QUICK[variant], opponents="random",
                     seed=7, log=None)
    assert result.problems == [] and result.matches == 1
    if variant in ("hearts", "filippa"):
        assert any(v.legal_kind == "pass" for v in checked)
    if variant in ("spades", "ohhell"):
        assert any(v.legal_kind == "bid" for v in checked)
    if variant == "euchre":
        assert any(v.legal_kind == "call" for v in checked)
    if variant == "bridge":
        assert sum(1 for v in checked if v.legal_kind == "call") >= 4
        # It declared (with random opponents the auctions are wild) and claimed, and the
        # match went on from the defenders' answers.
        assert any(v.playing_dummy for v in checked) and bot.claimed
    assert sum(1 for v in checked if v.legal_kind == "play") >= 5


def test_a_slow_answer_is_reported_and_the_match_goes_on(server):
    class Sleepy(Bot):
        def __init__(self):
            self.slept = False

        def play_card(self, view):
            if not self.slept:
                self.slept = True
                time.sleep(0.3)
            return min(view.legal)

    logged, log = lines()
    result = Sleepy().run(server, variant="whist", options={"target": 1}, opponents="random",
                          table_options={"bot_timeout_ms": 100}, slow_ms=100, log=log)
    assert result.matches == 1 and result.illegal == [] and result.exceptions == []
    # The sleepy answer is reported (others may be too, on a very busy machine).
    first = result.slow[0].message
    assert "play_card took" in first and "limit 100 ms" in first, first
    assert int(first.split("took ")[1].split(" ms")[0]) >= 300


def test_a_bot_plays_at_a_table_someone_else_hosts(server):
    """A person opens a table, the bot takes seat 1, the person fills the rest with built-in
    bots, starts, and leaves: the bot plays the match to its end."""
    from websockets.sync.client import connect
    import json
    import urllib.request

    table = create_table(server, "whist", {"target": 1})
    ws_url = server.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as person:
        person.send(json.dumps({"type": "join", "table": table, "seat": 0, "name": "Ann"}))
        assert json.loads(person.recv(timeout=5))["host"] is True
        holder = {}

        def play():
            holder["result"] = example("lowest_bot").LowestBot().run(server, table=table, seat=1, log=None)

        thread = threading.Thread(target=play)
        thread.start()
        for _ in range(600):
            with urllib.request.urlopen(f"{server}/api/tables/{table}") as resp:
                info = json.loads(resp.read())
            if info["seats"][1]["occupant"] == "remote_bot":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the bot never sat down")
        for seat in (2, 3):
            person.send(json.dumps({"type": "add_bot", "seat": seat, "strategy": "random"}))
        person.send(json.dumps({"type": "start"}))
        person.send(json.dumps({"type": "leave"}))
        thread.join(timeout=120)
    result = holder["result"]
    assert result.seat == 1 and result.matches == 1 and result.problems == []


@pytest.mark.parametrize("variant", ["spades", "ohhell"])
def test_the_protocol_only_example_bids_and_plays_a_match(server, variant):
    """examples/python/bot.py (the protocol alone, no SDK) takes seat 1 of a table a person
    hosts, bids every hand and plays the match to its end without a refused move."""
    from websockets.sync.client import connect
    import json
    import urllib.request

    table = create_table(server, variant, QUICK[variant])
    ws_url = server.replace("http://", "ws://") + "/ws"
    script = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python" / "bot.py"
    with connect(ws_url) as person:
        person.send(json.dumps({"type": "join", "table": table, "seat": 0, "name": "Ann"}))
        assert json.loads(person.recv(timeout=5))["host"] is True
        bot = subprocess.Popen([sys.executable, str(script), ws_url, table, "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(600):
                with urllib.request.urlopen(f"{server}/api/tables/{table}") as resp:
                    info = json.loads(resp.read())
                if info["seats"][1]["occupant"] == "remote_bot":
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the bot never sat down")
            for seat in (2, 3):
                person.send(json.dumps({"type": "add_bot", "seat": seat, "strategy": "random"}))
            person.send(json.dumps({"type": "start"}))
            person.send(json.dumps({"type": "leave"}))
            out, err = bot.communicate(timeout=120)
        finally:
            bot.kill()
    assert bot.returncode == 0, out + err
    assert "seated at 1" in out and "match over" in out, out
    assert "refused" not in err, err


def test_a_bot_joins_an_existing_table_by_id_or_invite_link(server):
    table = create_table(server, "whist", {"target": 1})
    lowest = example("lowest_bot").LowestBot()
    result = lowest.run(server, table=table, seat=2, autostart=True, opponents="random", log=None)
    assert result.table == table and result.seat == 2 and result.matches == 1
    assert result.problems == []

    table = create_table(server, "tricks", {"target": 5})
    result = lowest.run(f"{server}/t/{table}", seat=1, autostart=True, opponents="random", log=None)
    assert result.table == table and result.seat == 1 and result.matches == 1


BROKEN = textwrap.dedent('''
    from parlor_bot import Bot

    class Broken(Bot):
        """Plays a card it does not hold, on its first two turns of every match."""

        def __init__(self):
            self.turns = 0

        def on_match_over(self, view):
            self.turns = 0

        def play_card(self, view):
            self.turns += 1
            if self.turns <= 2:
                return view.unseen_cards()[0]
            return min(view.legal)
''')


def run_checker(server, path, *args):
    return subprocess.run(
        [sys.executable, "-m", "parlor_bot", "check", str(path), "--url", server,
         "--opponents", "random", "--seed", "3", *args],
        capture_output=True, text=True, timeout=300,
    )


def test_the_checker_catches_a_card_the_bot_does_not_hold(server, tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    run = run_checker(server, path, "--variant", "whist", "--matches", "2", "--option", "target=1")
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "Illegal moves: 4" in out, out
    # The server's reason, in words, and the situation that caused it.
    assert "you do not hold the" in out, out
    assert "hand:" in out and "legal:" in out, out
    assert "2 whist matches" in out and "FAIL" in out, out


def test_the_checker_reports_the_tricks_penalty_for_a_bad_card(server, tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    run = run_checker(server, path, "--variant", "tricks", "--matches", "1", "--option", "target=8")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Illegal moves: 2" in run.stdout, run.stdout
    assert "-100 points" in run.stdout, run.stdout


def test_the_checker_passes_a_good_bot_and_reports_results(server):
    run = run_checker(server, EXAMPLES / "whist_bot.py", "--variant", "whist", "--matches", "3",
                      "--option", "target=2", "-q")
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "Illegal moves: 0" in out and "Exceptions: 0" in out and "PASS" in out, out
    assert "Wins: " in out and "of 3" in out, out
    assert "Points per hand" in out and "\u00b1" in out, out


def test_the_checker_reports_exceptions_and_keeps_playing(server, tmp_path):
    path = tmp_path / "crashy.py"
    path.write_text(textwrap.dedent('''
        from parlor_bot import Bot

        class Crashy(Bot):
            def play_card(self, view):
                if len(view.tricks) == 2:
                    raise RuntimeError("oops in trick three")
                return min(view.legal)
    '''))
    run = run_checker(server, path, "--variant", "whist", "--matches", "1", "--option", "target=1")
    assert run.returncode == 1
    assert "Exceptions: 1" in run.stdout and "oops in trick three" in run.stdout, run.stdout
    assert "1 whist matches" in run.stdout


def test_a_dropped_connection_mid_hand_is_survived(server):
    class Dropper(Bot):
        def __init__(self):
            self.dropped = False
            self.chosen = []
            self.played = []

        def play_card(self, view):
            if not self.dropped and len(view.tricks) == 4:
                self.dropped = True
                self.session.drop_connection()
            card = min(view.legal)
            self.chosen.append(card)
            return card

        def on_event(self, event, view):
            if event["kind"] == "played" and event["seat"] == view.seat:
                self.played.append(event["card"])

    bot = Dropper()
    logged, log = lines()
    result = bot.run(server, variant="whist", options={"target": 1}, opponents="random",
                     seed=5, log=log)
    assert bot.dropped
    assert result.reconnects >= 1, logged
    assert any("reconnecting" in line for line in logged), logged
    assert result.matches == 1 and result.problems == [], logged
    # The bot itself played every card of its seat, before and after the drop.
    assert bot.played and set(bot.played) <= {str(c) for c in bot.chosen}
    assert len(bot.played) >= 13


def test_a_bot_whose_seat_is_taken_by_another_connection_stops_instead_of_fighting(server):
    """Its seat token used elsewhere: the server says `replaced` and the bot's session ends with
    that reason rather than taking the seat back (which would go on forever)."""
    from contextlib import ExitStack
    from websockets.sync.client import connect
    import json

    ws_url = server.replace("http://", "ws://") + "/ws"
    taken = {}

    with ExitStack() as sockets:

        class Taken(Bot):
            def play_card(self, view):
                if not taken:
                    session = self.session
                    other = sockets.enter_context(connect(ws_url))
                    other.send(json.dumps({"type": "join", "table": session.table,
                                           "token": session.token}))
                    taken["welcome"] = json.loads(other.recv(timeout=5))
                return min(view.legal)

        with pytest.raises(ParlorError, match="replaced"):
            Taken().run(server, variant="whist", options={"target": 1}, opponents="random",
                        seed=3, log=None)
    assert taken["welcome"]["type"] == "welcome"


def test_a_view_out_of_step_is_repaired_from_the_next_prompt(server):
    """If the bot's view ever goes out of step, the next prompt's view (the server's own)
    repairs it, with no `sync`."""

    class Forgetful(Bot):
        def __init__(self):
            self.corrupted = False
            self.hands = []

        def on_event(self, event, view):
            if event["kind"] == "trick_won" and not self.corrupted:
                self.corrupted = True
                self.session.view.hand = []  # lose track of our cards

        def play_card(self, view):
            self.hands.append(list(view.hand))
            assert set(view.legal) <= set(view.hand)
            return min(view.legal)

    bot = Forgetful()
    logged, log = lines()
    result = bot.run(server, variant="whist", options={"target": 1}, opponents="random",
                     seed=9, log=log)
    assert bot.corrupted and result.matches == 1 and result.problems == [], logged
    # Every hand the bot was shown after the corruption was whole again.
    assert all(len(hand) >= 1 for hand in bot.hands)


def test_the_checker_runs_a_cs101_player_file(server, tmp_path):
    path = tmp_path / "Player.py"
    path.write_text(textwrap.dedent('''
        class Player:
            """The CS 101 interface: PlayCard gets the hand, the trick, trump, position,
            the tricks so far and the score."""

            def __init__(self):
                pass

            def PlayCard(self, hand, trick, trump, position, tricks, score):
                if trick:
                    same = [c for c in hand if c.suit == trick[0].suit]
                    if same:
                        return max(same)
                return min(hand)
    '''))
    run = run_checker(server, path, "--variant", "whist", "--matches", "2", "--option", "target=1", "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 whist matches" in run.stdout and "Illegal moves: 0" in run.stdout, run.stdout



def test_no_server_and_no_table_are_clear_errors(server, unused_port):
    from parlor_bot import LowestCardBot, ParlorError

    nowhere = f"http://127.0.0.1:{unused_port}"
    with pytest.raises(ParlorError, match="cannot reach the Parlor server"):
        LowestCardBot().run(nowhere, variant="whist", log=None)
    with pytest.raises(ParlorError, match="is `parlor serve` running there"):
        LowestCardBot().run(nowhere, table="abc", log=None)
    with pytest.raises(ParlorError, match="refused to seat the bot"):
        LowestCardBot().run(server, table="no-such-table", log=None)
    with pytest.raises(ParlorError, match="400"):
        LowestCardBot().run(server, variant="whist", options={"moon": "add"}, log=None)


def test_a_bot_refused_for_speed_slows_down_and_repeats_the_refused_message(start_server):
    # Two messages a second, bursts of four: joining and seating three opponents spend the
    # burst, so `start` is refused and must be repeated. (Moves the table accepts give their
    # token back, so play itself is never refused.)
    with start_server("--rate-limit", "2") as url:
        logged, log = lines()
        result = example("lowest_bot").LowestBot().run(
            url, variant="whist", options={"target": 1}, opponents="random", seed=4, log=log
        )
    assert result.matches == 1 and result.problems == [], logged
    assert any("slow down" in line for line in logged), logged


def test_a_wrong_pass_is_explained_and_replaced(server):
    class ShortPasser(Bot):
        def pass_cards(self, view):
            return view.hand[:2]

        def play_card(self, view):
            return min(view.legal)

    logged, log = lines()
    result = ShortPasser().run(server, variant="filippa", options={"target": 30},
                               opponents="random", seed=2, log=log)
    assert result.matches == 1 and result.exceptions == []
    assert result.illegal and len(result.illegal) == len(result.hand_points)
    assert all("pass exactly 3 cards, not 2" in p.message for p in result.illegal)
    assert "to do: pass 3 cards left" in result.illegal[0].situation


FIELDS = [
    "variant", "options", "seat", "players", "phase", "hand_number", "dealer", "hand",
    "hand_sizes", "trump", "face_up", "trick", "tricks", "tricks_won", "hearts_broken",
    "pass_direction", "scores", "negatives", "pool", "history", "legal", "legal_kind", "bids",
    "bid_min", "bid_max", "bid_forbidden", "calling", "call_prompt", "bridge", "claim_tricks",
]


@pytest.mark.parametrize("variant", list(QUICK))
def test_the_view_built_from_events_equals_the_servers_snapshot(server, variant):
    """Every few turns the bot cuts its connection: the snapshot it gets back must equal the
    view it had built from events."""

    class Comparer(Bot):
        def __init__(self):
            self.turns = 0
            self.before = None
            self.compared = 0

        def check(self, view):
            if self.before is not None:
                for name in FIELDS:
                    assert getattr(view, name) == getattr(self.before, name), name
                self.before = None
                self.compared += 1
                return
            self.turns += 1
            if self.turns % 4 == 0:
                self.before = view
                self.session.drop_connection()

        def pass_cards(self, view):
            self.check(view)
            return view.hand[-3:]

        def bid(self, view):
            self.check(view)
            return view.legal_bids[0]

        def call(self, view):
            self.check(view)
            return view.legal_calls()[-1]

        def discard(self, view):
            self.check(view)
            return min(view.legal)

        def play_card(self, view):
            self.check(view)
            return max(view.legal)

    bot = Comparer()
    logged, log = lines()
    result = bot.run(server, variant=variant, options=QUICK[variant], opponents="random",
                     seed=13, log=log)
    assert result.matches == 1 and result.problems == [], logged
    assert bot.compared >= 3 and result.reconnects >= 3


@pytest.mark.parametrize("variant", ["hearts", "tricks"])
def test_a_bot_decides_from_the_prompt_and_never_sends_sync(server, variant, monkeypatch):
    """`your_turn` carries the seat's view: one round trip per move, no `sync` to play."""
    from parlor_bot import client

    sent = []
    original = client.Session.send

    def counting(self, msg):
        sent.append(msg.get("type"))
        original(self, msg)

    monkeypatch.setattr(client.Session, "send", counting)
    bot = example("lowest_bot").LowestBot()
    logged, log = lines()
    result = bot.run(server, variant=variant, options=QUICK[variant], opponents="random",
                     matches=1, seed=9, log=log)
    assert result.matches == 1, logged
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert sent.count("play") >= 10, sent
    assert sent.count("sync") == 0, logged


def test_a_withheld_event_is_detected_by_its_successor_and_repaired(server, monkeypatch):
    """Each event names the previous one sent to this seat (`prev`): when one never reaches
    the bot, the next event shows it, and a `sync` brings the server's snapshot."""
    from parlor_bot import client

    withheld = []
    sent = []
    on_event = client.Session._on_event
    send = client.Session.send

    def lossy(self, msg):
        event = msg.get("event") or {}
        # The bot's own first card: another event always follows it before its next prompt.
        if not withheld and event.get("kind") == "played" and event.get("seat") == self.seat:
            withheld.append(msg["seq"])
            return
        on_event(self, msg)

    def counting(self, msg):
        sent.append(msg.get("type"))
        send(self, msg)

    monkeypatch.setattr(client.Session, "_on_event", lossy)
    monkeypatch.setattr(client.Session, "send", counting)
    bot = example("lowest_bot").LowestBot()
    logged, log = lines()
    result = bot.run(server, variant="whist", options=QUICK["whist"], opponents="random",
                     matches=1, seed=3, log=log)
    assert result.matches == 1 and result.problems == [], logged
    assert withheld, "an event was withheld"
    assert any(f"missed an event (seq {withheld[0]})" in line for line in logged), logged
    assert sent.count("sync") == 1, sent


def test_the_checker_rotates_seats_over_duplicate_deals(server):
    from parlor_bot.check import check, report
    from parlor_bot.client import http_json

    bot = example("lowest_bot").LowestBot()
    result = check(bot, server, "tricks", matches=3, options={"target": 3}, opponents="random",
                   seed=11, log=None, rotate=True)
    # Three matches round up to one whole deal: one table per seat, the bot in each seat.
    assert result.rotated and result.matches == 4, result
    assert result.seats_played == [0, 1, 2, 3]
    assert len(set(result.tables)) == 4
    assert result.problems == [], "\n".join(map(str, result.problems))
    # The same deal at every table.
    deals = [http_json("GET", f"{server}/api/tables/{t}/hands/0")["dealt"] for t in result.tables]
    assert all(d == deals[0] for d in deals), deals
    # Every hand is counted from the bot's seat: its points come first.
    assert all(len(h) == 4 for h in result.hand_points)
    text = report(result, "tricks")
    assert "4 tricks matches, 1 deals each played from all 4 seats" in text, text
    assert "your bot (every seat)" in text and "1 to its left" in text, text

