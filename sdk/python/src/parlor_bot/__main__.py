"""python -m parlor_bot: check a bot locally, or play it on a server.

    python -m parlor_bot check mybot.py --variant whist --matches 20 --url http://127.0.0.1:8080
    python -m parlor_bot play mybot.py --url http://127.0.0.1:8080/t/TABLE
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from .check import check, load_bot, parse_options, report
from .client import ParlorError, Session

VARIANTS = [
    "hearts", "filippa", "hearts5", "tricks", "whist", "spades", "ohhell", "euchre", "bridge",
]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("bot", help="a Python file defining a subclass of parlor_bot.Bot")
    p.add_argument("--class", dest="class_name", help="the bot class to use (default: the first in the file)")
    p.add_argument("--url", default="http://127.0.0.1:8080", help="the server (or an invite link)")
    p.add_argument("--variant", default="hearts", choices=VARIANTS)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, e.g. target=50 (repeatable)")
    p.add_argument("--opponents", help="built-in strategy for the other seats (default: the strongest)")
    p.add_argument("--matches", type=int, default=None,
                   help="matches to play (check: 20; play: 1, 0 for no end)")
    p.add_argument("--seed", type=int, help="deal seed, for a reproducible run")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the report")
    p.add_argument("-v", "--verbose", action="store_true", help="print every protocol message")


def main(argv: Optional[List[str]] = None) -> int:
    """The command line; returns the exit status (1 when the bot made illegal moves or raised)."""
    parser = argparse.ArgumentParser(prog="python -m parlor_bot", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="play against built-in bots and report problems and results")
    _common(c)
    c.add_argument("--slow-ms", type=int, default=1000, help="answers slower than this are reported")
    c.add_argument("--show", type=int, default=5, help="problems shown per kind")
    c.add_argument("--rotate", action="store_true",
                   help="play each deal from every seat (duplicate deals, as parlor arena does)")
    p = sub.add_parser("play", help="play on a server: join a table or create one")
    _common(p)
    p.add_argument("--table", help="the table id to join (default: create one with bots)")
    p.add_argument("--seat", type=int, help="the seat to take")
    p.add_argument("--token", help="a seat token, to take a seat back")
    args = parser.parse_args(argv)

    bot = load_bot(args.bot, args.class_name)
    options = parse_options(args.option)
    log = None if args.quiet else (lambda text: print(f"[parlor_bot] {text}", file=sys.stderr, flush=True))
    try:
        if args.command == "check":
            result = check(
                bot, args.url, args.variant, matches=args.matches or 20, options=options,
                opponents=args.opponents, slow_ms=args.slow_ms, seed=args.seed, log=log,
                verbose=args.verbose, rotate=args.rotate,
            )
            print(report(result, args.variant, show=args.show))
            return 1 if result.illegal or result.exceptions else 0
        session = Session(
            bot, args.url, args.table, args.seat, variant=args.variant, options=options,
            opponents=args.opponents, matches=(args.matches if args.matches is not None else 1) or None,
            seed=args.seed, token=args.token,
            log=log or (lambda text: None), verbose=args.verbose,
        )
        if hasattr(bot, "session"):
            bot.session = session
        result = session.run()
        print(report(result, result.variant or args.variant))
        return 0
    except ParlorError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
