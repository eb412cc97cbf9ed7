"""What flows between the host's stages, as frozen data.

The gateway turns an interaction into an **intent** (what the click asks, parsed from its
custom id) and hands it to the intake of its kind; an intake or the driver submits a
:class:`Play` (or plays gathered :class:`Together`) to the table's session
(:mod:`bot.host.session`), which publishes an :class:`Outcome` (what a change made) to its
subscribers — the deal summaries, the presenter, the results — instead of calling them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from bot.engine.spec import NORMAL
from bot.host.table import Table
from bot.store import SharedClick


@dataclass(frozen=True)
class Move:
    """An action button or select: ``code`` for ``seat`` at prompt ``version``."""

    table_id: int
    seat: int
    version: int
    code: str


@dataclass(frozen=True)
class FormOpen:
    """A form's button: open its modal (``verb``: the form's)."""

    table_id: int
    seat: int
    version: int
    verb: str


@dataclass(frozen=True)
class FormSent:
    """A form's modal sent: its answers make one code."""

    table_id: int
    seat: int
    version: int
    verb: str


@dataclass(frozen=True)
class ShowHand:
    """Show my hand (a private answer with the seat's controls)."""

    table_id: int


@dataclass(frozen=True)
class Reclaim:
    """I'm back: a person takes their seat back from its AI."""

    table_id: int
    seat: int


@dataclass(frozen=True)
class HintIntent:
    """The Hint button (``confirmed``: an earlier version's "Show the hint")."""

    table_id: int
    seat: int
    version: int
    confirmed: bool


@dataclass(frozen=True)
class SpectateIntent:
    """The Spectate button (``refresh``: the private view's own Refresh)."""

    table_id: int
    refresh: bool


@dataclass(frozen=True)
class LobbyIntent:
    """A lobby's button (``join``, ``leave``, ``ai``, ``start``, ``cancel``)."""

    table_id: int
    action: str
    level: str = NORMAL


@dataclass(frozen=True)
class Abort:
    """``/table abort``."""

    table_id: int


#: What an interaction the host serves asks.
Intent: TypeAlias = (
    Move
    | FormOpen
    | FormSent
    | ShowHand
    | Reclaim
    | HintIntent
    | SpectateIntent
    | LobbyIntent
    | Abort
)


@dataclass(frozen=True)
class Play:
    """One action submitted to a table's session (:class:`bot.host.session.TableSession`).

    A person's click names them (``user_id``) and the prompt ``version`` of the controls
    clicked: it is checked as theirs first (see :func:`bot.host.session.precheck`); the
    driver's plays (an AI's move, a deadline's default, an only answer) name nobody.
    ``source`` is the log's (``player``, ``ai``, ``auto``, ``timeout``); ``click``: the DM
    click logged with the action where another process drives the table; ``via``: the
    interaction (answered through, once ``answered``: Discord took it); ``token``: the
    seat's new last DM click (a :class:`~bot.host.tokens.ClickToken`), kept by the seat."""

    seat: int
    code: str
    source: str
    user_id: int | None = None
    version: int = 0
    click: SharedClick | None = None
    via: Any = None
    answered: bool = False
    token: Any = None


@dataclass(frozen=True)
class Together:
    """Plays asked for at the same moment (out-of-turn clicks gathered a moment): the
    game's priority decides which are made (``State.apply_simultaneous``)."""

    plays: tuple[Play, ...]
    source: str = "player"


@dataclass(frozen=True)
class Outcome:
    """What one change of a table made: the public ``events`` it added (filled in when it
    is published; they are dropped from the state then), the seats whose DMs must be
    redrawn (``changed``: completed when published with those whose decision or hand
    changed), the click that made it (``via``: answered through, if any), the actions it
    appended to the log (``made``), and whether it is a pass held till its answer window
    closes (``held``: nothing appended)."""

    table: Table
    events: tuple[Any, ...] = ()
    changed: frozenset[int] = frozenset()
    via: Any = None
    made: tuple[tuple[int, str], ...] = ()
    held: bool = False
    #: The table's prompts were already brought to its state, action by action, by the
    #: one publishing (a catch-up with the log): ``changed`` holds every seat whose
    #: decision or hand changed, and nobody needs to compare them again.
    stamped: bool = False


@dataclass(frozen=True)
class Gathered:
    """What a table's session made of plays gathered :class:`Together`: the outcome
    published (None: nothing was), and each play not made with why (an exception: a
    :class:`~bot.host.session.Refused`, or an ``IllegalAction`` — the log's refusal, or
    another play's priority)."""

    outcome: Outcome | None
    made: tuple[Play, ...]
    refused: tuple[tuple[Play, Exception], ...]


#: A subscriber of a table's outcomes.
Subscriber = Callable[[Outcome], Awaitable[None]]
