"""What every view carries: :class:`TableView`, the base each game's view extends.

``state.view(seat)`` is a plain dict (views cross processes, are stored in replays and
compared in tests) typed as a ``TypedDict``: the engine's keys here, each game's own keys in
its ``views.py`` (``KoiKoiView(TableView)``...). Renderers, controls and the host read a
view through these types; the AIs take any ``Mapping[str, Any]``, which every view is.
``tests/games/test_views.py`` plays seeded matches of every game and checks each view
against its game's type at run time (every key declared, every value of its type).

Pure: no discord, no PIL.
"""

from __future__ import annotations

from typing import TypedDict


class TableView(TypedDict):
    """The keys :meth:`bot.engine.core.State.view` adds to every game's view."""

    #: The game's short name (``koikoi``...).
    game: str
    #: The viewer's seat; None for a spectator (and for the public view the host draws).
    seat: int | None
    #: The players' names by seat.
    players: list[str]
    #: Number of actions applied so far (stamped on every component).
    version: int
    #: Seats with a pending decision now.
    to_act: list[int]
    #: At most the viewer itself: whether it may act out of turn now (who else may is secret).
    may_act: list[int]
    #: Running match totals by seat.
    scores: list[int]
    is_over: bool


class PlayedCard(TypedDict):
    """A card put down by a seat (a trick's card, a hanafuda play or flip)."""

    seat: int
    card: str


__all__ = ["PlayedCard", "TableView"]
