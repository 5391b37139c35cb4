"""The local checker: play a bot against built-in bots and report what went wrong and how well
it did.

    python -m parlor_bot check mybot.py --variant whist --matches 20 --url http://127.0.0.1:8080
"""

from __future__ import annotations

import importlib.util
import inspect
import pathlib
import random
import sys
from typing import Any, Callable, Dict, List, Optional

from .bot import Bot
from .client import RunResult, mean_interval, wilson_interval


def load_bot(path: str, class_name: Optional[str] = None) -> Any:
    """Imports ``path`` and returns a new bot from it: the class ``class_name``, else the
    first :class:`Bot` subclass defined in the file, else the first class with a
    ``play_card`` method, else the first with a CS 101 style ``PlayCard`` method (see
    :mod:`parlor_bot.compat`), else a module-level ``bot`` object."""
    file = pathlib.Path(path)
    if not file.is_file():
        raise SystemExit(f"no such file: {path}")
    sys.path.insert(0, str(file.resolve().parent))
    spec = importlib.util.spec_from_file_location(file.stem, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[file.stem] = module
    spec.loader.exec_module(module)
    if class_name:
        cls = getattr(module, class_name, None)
        if cls is None:
            raise SystemExit(f"{path} has no class {class_name}")
        return cls()
    classes = [
        obj for _, obj in inspect.getmembers(module, inspect.isclass)
        if obj.__module__ == module.__name__
    ]
    classes.sort(key=lambda c: inspect.getsourcelines(c)[1])
    for cls in classes:
        if issubclass(cls, Bot):
            return cls()
    for cls in classes:
        if callable(getattr(cls, "play_card", None)):
            return cls()
    for cls in classes:
        if callable(getattr(cls, "PlayCard", None)):
            from .compat import AssignmentBot

            return AssignmentBot(cls())
    if hasattr(module, "bot"):
        return module.bot
    raise SystemExit(f"{path} defines no bot: write a class that subclasses parlor_bot.Bot")


def parse_options(pairs: List[str]) -> Dict[str, Any]:
    """``["target=50", "passing=false"]`` -> ``{"target": 50, "passing": False}``."""
    options: Dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"--option wants NAME=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        low = value.strip().lower()
        if low in ("true", "false"):
            options[key.strip()] = low == "true"
        else:
            try:
                options[key.strip()] = int(value)
            except ValueError:
                options[key.strip()] = value.strip()
    return options


def _fmt(mean: float, half: float) -> str:
    if half != half:  # nan
        return "n/a"
    if half == float("inf"):
        return f"{mean:.2f}"
    return f"{mean:.2f} \u00b1 {half:.2f}"


def report(result: RunResult, variant: str, show: int = 5) -> str:
    """The checker's report as text."""
    lines: List[str] = []
    seat = result.seat
    if result.rotated:
        players = len(set(result.seats_played))
        deals = result.matches // max(1, players)
        lines.append(
            f"{result.matches} {variant} matches, {deals} deals each played from all "
            f"{players} seats, {result.moves} moves"
        )
    else:
        lines.append(f"{result.matches} {variant} matches, seat {seat}, {result.moves} moves")
    lines.append("")
    for kind, title in (("illegal", "Illegal moves"), ("exception", "Exceptions"), ("slow", "Slow answers")):
        problems = result.of_kind(kind)
        lines.append(f"{title}: {len(problems)}")
        for problem in problems[:show]:
            lines.append("  " + str(problem).replace("\n", "\n  "))
        if len(problems) > show:
            lines.append(f"  ... and {len(problems) - show} more")
    lines.append(f"Slowest answer: {result.slowest * 1000:.0f} ms")
    if result.reconnects:
        lines.append(f"Reconnections: {result.reconnects}")
    lines.append("")
    n = result.matches
    if n:
        low, high = wilson_interval(result.wins, n)
        lines.append(
            f"Wins: {result.wins} of {n} ({100 * result.wins / n:.0f} %, 95% interval "
            f"{100 * low:.0f}-{100 * high:.0f} %)"
        )
    hands = len(result.hand_points)
    if hands and seat is not None:
        facts = result.facts
        better = "lower is better" if facts and facts.low_score_wins else "higher is better"
        mine = mean_interval(result.points())
        lines.append(f"Points per hand ({hands} hands, {better}, 95% interval):")
        where = "every seat" if result.rotated else f"seat {seat}"
        lines.append(f"  your bot ({where}): {_fmt(*mine)}")
        players = len(result.hand_points[0])
        for other in range(players):
            if other == seat:
                continue
            partner = facts is not None and facts.partnerships and other == (seat + 2) % 4
            label = "partner" if partner else "built-in"
            place = f"{other} to its left" if result.rotated else f"seat {other}"
            lines.append(f"  {label} ({place}): {_fmt(*mean_interval(result.points(other)))}")
    verdict = "PASS" if not result.illegal and not result.exceptions else "FAIL"
    lines.append("")
    lines.append(
        f"{verdict}: {len(result.illegal)} illegal moves, {len(result.exceptions)} exceptions, "
        f"{len(result.slow)} slow answers"
    )
    return "\n".join(lines)


def check(
    bot: Any,
    url: str,
    variant: str,
    matches: int = 20,
    options: Optional[Dict[str, Any]] = None,
    opponents: Optional[str] = None,
    slow_ms: Optional[int] = 1000,
    seed: Optional[int] = None,
    log: Optional[Callable[[str], None]] = None,
    verbose: bool = False,
    rotate: bool = False,
) -> RunResult:
    """Plays ``matches`` matches of ``variant`` at a new table with built-in bots in the other
    seats and returns the result (see :func:`report`).

    With ``rotate``, each deal is played in duplicate, as ``parlor arena`` does: the same deal
    seed at one table per seat, the bot in a different seat at each, so every hand's cards are
    played by the bot once and the luck of the deal cancels out (``matches`` is rounded up to
    whole deals)."""
    if not rotate:
        return _check_at(bot, url, variant, matches, options, opponents, slow_ms, seed, log, verbose)
    # A table's seats are its `players` option where the variant has one (ohhell).
    players = int((options or {}).get("players") or _players(url, variant))
    base = seed if seed is not None else random.randrange(2**53)
    merged = RunResult(rotated=True)
    for deal in range(max(1, -(-matches // players))):
        for seat in range(players):
            one = _check_at(bot, url, variant, 1, options, opponents, slow_ms, base + deal, log,
                            verbose, seat=seat)
            merged.absorb(one, seat)
    return merged


def _players(url: str, variant: str) -> int:
    """How many seats ``variant`` has, as the server says."""
    from .client import variants

    for info in variants(url):
        if info.get("name") == variant:
            return int(info["players"])
    raise SystemExit(f"the server has no variant {variant!r}")


def _check_at(
    bot: Any,
    url: str,
    variant: str,
    matches: int,
    options: Optional[Dict[str, Any]],
    opponents: Optional[str],
    slow_ms: Optional[int],
    seed: Optional[int],
    log: Optional[Callable[[str], None]],
    verbose: bool,
    seat: Optional[int] = None,
) -> RunResult:
    """One table: the bot in ``seat`` (the first free one when ``None``)."""
    if isinstance(bot, Bot):
        return bot.run(
            url, seat=seat, variant=variant, options=options, opponents=opponents, matches=matches,
            slow_ms=slow_ms, seed=seed, log=log, verbose=verbose,
        )
    from .client import Session

    return Session(
        bot, url, seat=seat, variant=variant, options=options, opponents=opponents, matches=matches,
        slow_ms=slow_ms, seed=seed, log=log, verbose=verbose,
    ).run()
