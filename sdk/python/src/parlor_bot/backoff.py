"""How long to wait before reconnecting: exponential backoff with full jitter.

Each failed attempt doubles the ceiling, up to a cap, and the wait is drawn anywhere between
0 and that ceiling, so the bots of a restarted server do not all knock on it at the same
moment. The attempt count starts over once the server has welcomed the bot again.
"""

from __future__ import annotations

import random as _random
from typing import Callable

#: The first reconnection waits up to this many seconds.
BASE = 0.5
#: A seat's reconnections wait at most this long: the game is waiting (a built-in bot plays
#: the seat meanwhile).
SEAT_CAP = 10.0
#: The ``available`` connection of a bot in available mode waits at most this long.
AVAILABLE_CAP = 30.0


def backoff_delay(
    attempt: int,
    *,
    base: float = BASE,
    cap: float = SEAT_CAP,
    random: Callable[[], float] = _random.random,
) -> float:
    """Seconds to wait before reconnection attempt ``attempt`` (0-based): a number in
    ``[0, min(cap, base * 2 ** attempt)]``, drawn with ``random`` (a number in [0, 1), as
    :func:`random.random`)."""
    # 2 ** 64 is far past any cap, and keeps the float arithmetic finite.
    ceiling = min(cap, base * 2.0 ** min(max(attempt, 0), 64))
    return random() * ceiling
