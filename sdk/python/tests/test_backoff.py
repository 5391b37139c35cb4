"""Reconnection backoff: exponential, capped, with full jitter drawn from an injected random
source; the available-mode server starts it over once welcomed."""

import asyncio
import random

from parlor_bot.backoff import AVAILABLE_CAP, BASE, SEAT_CAP, backoff_delay
from parlor_bot.serve import Server


def test_the_ceiling_doubles_from_the_base_up_to_the_cap():
    top = lambda: 1.0  # noqa: E731 - the largest draw: the ceiling itself
    assert [backoff_delay(n, random=top) for n in range(7)] == [0.5, 1, 2, 4, 8, 10, 10]
    assert backoff_delay(3, base=0.2, cap=30, random=top) == 1.6
    assert backoff_delay(10, cap=AVAILABLE_CAP, random=top) == AVAILABLE_CAP


def test_the_wait_is_the_draw_times_the_ceiling():
    assert backoff_delay(0, random=lambda: 0.0) == 0.0
    assert backoff_delay(2, random=lambda: 0.25) == 0.5
    assert backoff_delay(50, random=lambda: 0.5) == SEAT_CAP / 2


def test_the_draws_spread_over_the_whole_range():
    rng = random.Random(7)
    draws = [backoff_delay(4, random=rng.random) for _ in range(2000)]
    assert all(0 <= d <= 8 for d in draws)
    # Full jitter: some waits near nothing, some near the ceiling, none all alike.
    assert min(draws) < 0.1 and max(draws) > 7.9
    assert len(set(draws)) == len(draws)


def test_huge_or_negative_attempt_counts_stay_in_range():
    assert backoff_delay(10**6, random=lambda: 0.999) < SEAT_CAP
    assert backoff_delay(-3, random=lambda: 1.0) == BASE
    assert 0 <= backoff_delay(4) <= 8  # the default source


def test_available_mode_starts_over_once_the_server_answers():
    server = Server(object(), "http://127.0.0.1:9", "token", log=None)
    server._failures = 6
    asyncio.run(server._on_message({"type": "available", "name": "b", "variants": [], "max_tables": 1}))
    assert server._failures == 0
