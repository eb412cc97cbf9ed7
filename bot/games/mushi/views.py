"""Mushi's view: what :meth:`MushiState.view` returns (``MushiState._view`` builds
:class:`MushiPart`, the engine adds :class:`~bot.engine.view.TableView`'s keys)."""

from __future__ import annotations

from typing import TypedDict

from bot.engine.view import TableView
from bot.games.hanafuda.views import HanafudaPlay, HanafudaView


class Combo(TypedDict):
    name: str
    value: int


class FlipChoice(TypedDict):
    """``pending`` while the flipped card waits for its target."""

    kind: str
    seat: int
    card: str
    options: list[str]


class Leftover(TypedDict):
    """A card left on the table when a hand ends, and who got it why."""

    card: str
    seat: int
    why: str


class HandRecord(TypedDict):
    """One finished hand (``history``)."""

    hand: int
    elder: int
    card_points: list[int]
    combos: list[list[Combo]]
    combo_points: list[int]
    scores: list[int]
    totals: list[int]
    #: Each seat's captures by class (``bright``, ``animal``, ``ribbon``, ``plain``).
    captures: list[dict[str, list[str]]]
    leftovers: list[Leftover]
    next_elder: int
    reason: str


class MushiMove(HanafudaPlay):
    """One card of the running hand's record (``plays``): played from a hand (``kind``
    ``"play"``) or flipped from the stock (``"flip"``), and what it took (none: it stayed on
    the table — or, the bottom wild, went to the younger's pile)."""

    kind: str


class MushiOptionsView(TypedDict):
    hands: int
    four_of_a_kind_cancel: bool
    bottom_wild_takes_rain: bool
    elder_takes_table_four: bool


class MushiPart(HanafudaView):
    #: The hand being played (1 first).
    deals: int
    deal_count: int
    redeals: int
    elder: int
    younger: int
    #: None once the match is over.
    turn: int | None
    table: list[str]
    stock_count: int
    #: Each seat's captures by class (``bright``, ``animal``, ``ribbon``, ``plain``).
    captures: list[dict[str, list[str]]]
    card_points: list[int]
    combos: list[list[Combo]]
    #: The wild lies on the table (whoever takes it must).
    wild_duty: bool
    wild_holder: int | None
    set_aside: list[str]
    pending: FlipChoice | None
    #: The running hand's plays and flips in order, each once resolved (a flip waiting for
    #: its target is in ``pending``). Public: every player saw them. Empty at a hand's start.
    plays: list[MushiMove]
    history: list[HandRecord]
    options: MushiOptionsView
    #: Months of which the viewer holds four and may cancel the deal (only its own view).
    cancel_months: list[int]


class MushiView(TableView, MushiPart):
    """A Mushi view (a seat's or a spectator's)."""


__all__ = [
    "Combo",
    "FlipChoice",
    "HandRecord",
    "Leftover",
    "MushiMove",
    "MushiOptionsView",
    "MushiPart",
    "MushiView",
]
