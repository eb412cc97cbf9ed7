"""What flows between the host's stages, as frozen data.

The gateway turns an interaction into an **intent** (what the click asks, parsed from its
custom id) and hands it to the intake of its kind; a table's log publishes an
:class:`Outcome` (what a change made) to its subscribers — the presenter first — instead
of calling them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from bot.engine.spec import NORMAL
from bot.host.table import Table


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
class Outcome:
    """What one change of a table made: the public ``events`` it added (filled in by the
    table's log when it publishes; they are dropped from the state then), the seats whose
    DMs must be redrawn beyond those whose decision changed (``changed``), and the click
    that made it (``via``: answered through, if any)."""

    table: Table
    events: tuple[Any, ...] = ()
    changed: frozenset[int] = frozenset()
    via: Any = None
    #: The table's prompts were already brought to its state, action by action, by the
    #: one publishing (a catch-up with the log): ``changed`` holds every seat whose
    #: decision or hand changed, and nobody needs to compare them again.
    stamped: bool = False


#: A subscriber of a table's outcomes.
Subscriber = Callable[[Outcome], Awaitable[None]]
