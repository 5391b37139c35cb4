"""Available mode: a registered bot waits for invitations and plays every table it is invited
to, several at once.

The server's operator registers the bot (``parlor bots add NAME --owner ME``) and gives its
owner the token. :meth:`parlor_bot.Bot.serve` then announces the bot on one WebSocket
(``available``); each ``invitation`` that arrives is accepted on a new connection
(``accept``) and played to the end of its match by its own :class:`~parlor_bot.Session`,
side by side with the others (an asyncio task each, the session's blocking socket in a worker
thread). Each table gets its own copy of the bot, so notes kept on ``self`` never mix tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from .backoff import AVAILABLE_CAP, backoff_delay
from .client import ParlorError, RunResult, Session, _default_log, parse_url

#: Errors on the ``available`` connection that no retry cures.
FATAL = {"bad_bot_token", "bad_availability", "no_store"}


@dataclass
class ServeResult:
    """What :meth:`parlor_bot.Bot.serve` did: the bot's name and every table it played."""

    name: Optional[str] = None
    #: One result per table played, in the order the tables ended.
    tables: List[RunResult] = field(default_factory=list)
    #: Invitations turned down (too busy, or ``accept_invitation`` said no).
    declined: int = 0
    #: Tables that could not be taken or played, with why.
    failed: List[str] = field(default_factory=list)
    #: The most tables played at the same moment.
    most_at_once: int = 0


class Server:
    """One bot in available mode. Most people call :meth:`parlor_bot.Bot.serve`."""

    def __init__(
        self,
        bot: Any,
        url: str,
        token: str,
        *,
        variants: Optional[Sequence[str]] = None,
        max_tables: int = 4,
        tables: Optional[int] = None,
        log: Optional[Callable[[str], None]] = _default_log,
        **session_args: Any,
    ) -> None:
        self.bot = bot
        self.url = url
        self.address = parse_url(url)
        self.token = token
        self.variants = list(variants or [])
        self.max_tables = max_tables
        self.tables = tables
        self.log = log or (lambda text: None)
        self.session_args = session_args
        self.result = ServeResult()
        self._playing: Dict[str, asyncio.Task] = {}
        self._started = 0
        self._ws: Any = None
        self._stop: Optional[asyncio.Event] = None
        #: Reconnections tried since the server last answered ``available``.
        self._failures = 0

    def run(self) -> ServeResult:
        """Serves until ``tables`` tables were played (forever with ``None``)."""
        return asyncio.run(self.serve())

    async def serve(self) -> ServeResult:
        """The same as :meth:`run`, inside a running event loop."""
        from websockets.asyncio.client import connect

        self._stop = asyncio.Event()
        while not self._stop.is_set():
            try:
                async with connect(self.address.ws, open_timeout=10, max_size=2**22) as ws:
                    self._ws = ws
                    await self._send({
                        "type": "available", "token": self.token,
                        "variants": self.variants, "max_tables": self.max_tables,
                    })
                    await self._listen(ws)
            except ParlorError:
                raise
            except (OSError, EOFError, asyncio.TimeoutError) as err:
                self.log(f"the available connection dropped ({type(err).__name__}: {err})")
            except Exception as err:  # noqa: BLE001 - websockets' ConnectionClosed and kin
                if not type(err).__module__.startswith("websockets"):
                    raise
                self.log(f"the available connection dropped ({type(err).__name__}: {err})")
            finally:
                self._ws = None
            if self._stop.is_set():
                break
            delay = backoff_delay(self._failures, cap=AVAILABLE_CAP)
            self._failures += 1
            # The wait ends early when the last table is done (nothing left to serve).
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
        if self._playing:
            await asyncio.gather(*self._playing.values(), return_exceptions=True)
        return self.result

    async def _send(self, msg: Dict[str, Any]) -> None:
        if self._ws is not None:
            await self._ws.send(json.dumps(msg))

    async def _listen(self, ws: Any) -> None:
        stop = asyncio.create_task(self._stop.wait())
        try:
            while True:
                receive = asyncio.create_task(ws.recv())
                done, _ = await asyncio.wait({receive, stop}, return_when=asyncio.FIRST_COMPLETED)
                if stop in done:
                    receive.cancel()
                    return
                await self._on_message(json.loads(receive.result()))
        finally:
            stop.cancel()

    async def _on_message(self, msg: Dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "available":
            # Welcomed: the next drop starts the backoff over.
            self._failures = 0
            self.result.name = msg.get("name")
            self.log(
                f"online as {msg.get('name')}: {', '.join(msg.get('variants', []))}, "
                f"up to {msg.get('max_tables')} tables at once"
            )
        elif kind == "invitation":
            await self._on_invitation(msg)
        elif kind == "error":
            code, text = msg.get("code"), msg.get("message", "")
            if code in FATAL:
                raise ParlorError(f"the server refused the bot: {text} ({code})")
            self.log(f"the server says: {text} ({code})")

    async def _on_invitation(self, msg: Dict[str, Any]) -> None:
        invitation = msg["invitation"]
        wanted = self._wants_more() and self._accepts(msg)
        if not wanted:
            self.result.declined += 1
            await self._send({"type": "decline", "invitation": invitation})
            return
        self._started += 1
        self.log(f"invited to seat {msg['seat']} of {msg['variant']} table {msg['table']}")
        task = asyncio.create_task(asyncio.to_thread(self._play, msg))
        self._playing[invitation] = task
        self.result.most_at_once = max(self.result.most_at_once, len(self._playing))
        task.add_done_callback(lambda done: self._finished(invitation, done))

    def _wants_more(self) -> bool:
        return len(self._playing) < self.max_tables and (
            self.tables is None or self._started < self.tables
        )

    def _accepts(self, msg: Dict[str, Any]) -> bool:
        hook = getattr(self.bot, "accept_invitation", None)
        if hook is None:
            return True
        try:
            return bool(hook(dict(msg)))
        except Exception as err:  # noqa: BLE001 - a bot's bug declines, never stops serving
            self.log(f"accept_invitation raised {type(err).__name__}: {err}: declining")
            return False

    def _play(self, msg: Dict[str, Any]) -> RunResult:
        """One table, in a worker thread: accept, play the match, leave."""
        try:
            bot = copy.deepcopy(self.bot)
        except Exception:  # noqa: BLE001 - a bot holding something that does not copy
            bot = copy.copy(self.bot)
        session = Session(
            bot, self.url, msg["table"], msg["seat"], matches=1, log=self.log,
            invitation=msg["invitation"], bot_token=self.token, **self.session_args,
        )
        bot.session = session
        try:
            return session.run()
        finally:
            bot.session = None

    def _finished(self, invitation: str, task: "asyncio.Task[RunResult]") -> None:
        self._playing.pop(invitation, None)
        if task.cancelled():
            return
        err = task.exception()
        if err is not None:
            self.result.failed.append(f"{type(err).__name__}: {err}")
            self.log(f"a table failed: {err}")
        else:
            self.result.tables.append(task.result())
        if self.tables is not None and len(self.result.tables) + len(self.result.failed) >= self.tables:
            self._stop.set()
