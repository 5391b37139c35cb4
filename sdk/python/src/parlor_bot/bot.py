"""The class to subclass: a bot is ``play_card``, and where the game asks for them ``pass_cards``,
``bid``, ``call``, ``discard``, ``answer_claim`` and ``claim``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, TypeVar

from .bidding import simple_bid
from .bridge import simple_answer_claim
from .calling import Call, simple_call, simple_discard
from .cards import Card
from .client import RunResult, Session

if TYPE_CHECKING:
    from .serve import ServeResult
from .view import View

_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def _does_nothing(hook: _Hook) -> _Hook:
    """Marks a base hook that does nothing, so a session can skip the work of calling it."""
    hook.does_nothing = True  # type: ignore[attr-defined]
    return hook


class Bot:
    """A Parlor player program. Subclass it and write :meth:`play_card` (and, for the variants
    that pass cards, :meth:`pass_cards`; for those where players bid, :meth:`bid`; in Euchre,
    :meth:`call` and :meth:`discard`; in Bridge, :meth:`call`, :meth:`answer_claim` and if
    you like :meth:`claim`); then call :meth:`run`. Bridge's declarer is asked for dummy's
    cards too, on dummy's turn (``view.playing_dummy``).

    Each method gets a :class:`~parlor_bot.View` (your copy: change it freely) and must answer
    with cards from ``view.legal`` (a bid: a number from ``view.legal_bids``; a call: one of
    ``view.legal_calls()``). If an answer is illegal or the method raises, the server's reason
    is printed and a legal move is made for you so the game goes on.
    """

    #: The name shown at the table (default: the class name).
    name: Optional[str] = None

    #: The running session while :meth:`run` plays (None otherwise).
    session: Optional[Session] = None

    def play_card(self, view: View) -> Card:
        """Choose the card to play: one of ``view.legal``."""
        raise NotImplementedError("write play_card(self, view) in your bot")

    def pass_cards(self, view: View) -> List[Card]:
        """Choose ``view.pass_count`` cards of your hand to pass (Hearts, Filippa).

        The default gives away the highest cards, which rarely hurts in the Hearts family.
        """
        return sorted(view.legal, reverse=True)[: view.pass_count]

    def bid(self, view: View) -> int:
        """Choose how many tricks you will take this hand (Spades, Oh Hell): one of
        ``view.legal_bids``. ``view.bids`` has the bids made before yours; in Spades 0 is nil.

        The default counts aces, guarded kings and high or long trumps
        (:func:`parlor_bot.bidding.simple_bid`), never nil; ``view.nearest_bid(n)`` makes any
        estimate a legal bid.
        """
        return simple_bid(view)

    def call(self, view: View) -> Call:
        """Make trump or pass (Euchre): one of ``view.legal_calls()``, such as
        ``parlor_bot.PASS``, ``order_up()``, ``name_trump("H", alone=True)`` or
        ``parlor_bot.DEFEND``. ``view.turned_card`` is the turned-up card, ``view.calling.calls``
        the calls made before yours, and ``view.trump_made`` how trump was made once it is (a
        defender may then be asked whether to defend alone).

        The default makes trump with three or so trumps' worth, counting the bowers and side
        aces (:func:`parlor_bot.calling.simple_call`), alone with both bowers and a strong
        hand; it never defends alone.
        """
        return simple_call(view)

    def discard(self, view: View) -> Card:
        """Euchre's dealer, after picking up the turned-up card: put one card of
        ``view.legal`` (your whole hand) away face down. Trump is made (``view.trump``).

        The default discards the lowest card that is not a trump (the left bower is one).
        """
        return simple_discard(view)

    def answer_claim(self, view: View) -> bool:
        """Bridge's defender: accept (True) or reject (False) declarer's claim of
        ``view.claim_tricks`` of the tricks left. Declarer's cards are faced in
        ``view.bridge.claim.cards``, dummy's in ``view.bridge.dummy.cards``.

        The default accepts when declarer's side holds that many top winners
        (:func:`parlor_bot.bridge.simple_answer_claim`).
        """
        return simple_answer_claim(view)

    @_does_nothing
    def claim(self, view: View) -> Optional[int]:
        """Bridge's declarer, asked for a card (yours or dummy's): return a number of the
        tricks left to claim them instead of playing, or None to play on. Asked at most once
        at each point of a hand. The default never claims."""
        return None

    @_does_nothing
    def on_event(self, event: Dict[str, Any], view: View) -> None:
        """Called after every event (``event["kind"]`` is "played", "trick_won",
        "hand_scored"...), with the updated view. Override to keep your own notes."""

    @_does_nothing
    def on_match_over(self, view: View) -> None:
        """Called when a match ends; ``view.winners`` and ``view.scores`` have the result."""

    def run(
        self,
        url: str = "http://127.0.0.1:8080",
        table: Optional[str] = None,
        seat: Optional[int] = None,
        *,
        variant: str = "hearts",
        options: Optional[Dict[str, Any]] = None,
        opponents: Optional[str] = None,
        matches: Optional[int] = 1,
        **kwargs: Any,
    ) -> RunResult:
        """Plays on the server at ``url``.

        With ``table`` (an id, or an invite link as ``url``) the bot joins that table (in
        ``seat`` if given) and plays as the host starts matches. Without, it creates a
        ``variant`` table with ``options`` (e.g. ``{"target": 50}``), seats built-in bots of
        strategy ``opponents`` in the other seats, and starts the matches itself. Either way it
        returns after ``matches`` matches (``None``: never).
        Returns what happened: wins, points per hand, illegal moves, exceptions, slow answers.
        A dropped connection is survived by re-joining with the seat token.

        More keywords: ``name``, ``token`` (to reclaim a seat), ``seed`` (reproducible deals on
        a created table), ``table_options`` (e.g. ``{"bot_timeout_ms": 10000}``), ``slow_ms``,
        ``log`` (a function taking one line, or None for silence), ``verbose`` (print every
        message), ``autostart`` (when joining a table as its host: fill the empty seats with
        built-in bots and start the matches; on by default only for a table the bot created).
        """
        session = Session(
            self, url, table, seat, variant=variant, options=options, opponents=opponents,
            matches=matches, **kwargs,
        )
        self.session = session
        try:
            return session.run()
        finally:
            self.session = None


    def serve(
        self,
        url: str,
        token: str,
        *,
        variants: Optional[List[str]] = None,
        max_tables: int = 4,
        tables: Optional[int] = None,
        **kwargs: Any,
    ) -> "ServeResult":
        """Runs the bot in available mode: a registered bot (``token`` from the server's
        operator: ``parlor bots add NAME --owner ME``) waits to be invited by hosts, and plays
        every table it is invited to, up to ``max_tables`` at once, each with its own copy of
        the bot. ``variants`` limits the variants it is invited to (default: all).
        Returns after ``tables`` tables were played (``None``: never).

        Override ``accept_invitation(self, invitation)`` (the ``invitation`` message: table,
        seat, variant, options) to turn some down. More keywords as for :meth:`run`
        (``log``, ``slow_ms``, ``verbose``).
        """
        from .serve import Server

        return Server(
            self, url, token, variants=variants, max_tables=max_tables, tables=tables, **kwargs
        ).run()


class LowestCardBot(Bot):
    """Plays its lowest legal card and passes its highest cards: the simplest legal bot."""

    def play_card(self, view: View) -> Card:
        """The lowest legal card."""
        return min(view.legal)
