"""Panda's view: what :meth:`PandaState.view` returns (``_view`` builds :class:`PandaPart`,
the engine adds :class:`~bot.engine.view.TableView`'s keys)."""

from __future__ import annotations

from typing import TypedDict

from bot.engine.view import TableView


class TrickPlay(TypedDict):
    """One combination on the current trick."""

    seat: int
    cards: list[str]
    kind: str
    #: The combination's rank (a half for the Panda played on a single).
    value: float
    #: The combination for people (``a pair of 5s``).
    label: str


class Pending(TypedDict):
    """A decision that interrupts the turn order: ``gift`` (who gets a trick won with the
    Dragon) or ``wish`` (the rank wished with the Stork)."""

    kind: str
    seat: int | None


class ScoreLine(TypedDict):
    name: str
    team: int
    points: int
    detail: str


class HandRecord(TypedDict):
    """One finished hand (``history``)."""

    deal: int
    out: list[int]
    double_victory: bool
    calls: list[int]
    first_kingdom: int | None
    #: The cards still in hand when it ended, by seat (as a string).
    left_over: dict[str, list[str]]
    lines: list[ScoreLine]
    hand_scores: list[int]
    totals: list[int]


class PandaOptionsView(TypedDict):
    target: int
    wish: bool
    free_first_lead: bool
    kingdom_ends_hand: bool


class PandaPart(TypedDict):
    phase: str
    #: The hand being played (1 first); ``deals`` None: until a team reaches the target.
    deal: int
    deals: None
    target: int
    options: PandaOptionsView
    team_scores: list[int]
    teams: list[list[int]]
    hand_counts: list[int]
    #: Whether each seat has passed its three cards.
    passing_done: list[bool]
    calls: list[bool]
    played_any: list[bool]
    turn: int | None
    trick: list[TrickPlay]
    top_seat: int | None
    #: Everyone passed: the trick waits to be taken.
    trick_won: bool
    passes: list[bool]
    pending: Pending | None
    wish: str | None
    #: Seats out of cards, in order.
    out: list[int]
    tricks_won: list[int]
    pile_points: list[int]
    first_kingdom: int | None
    first_lead: bool
    played_cards: list[str]
    history: list[HandRecord]
    #: The viewer's hand; None for a spectator.
    hand: list[str] | None
    #: The cards the viewer passed, by direction; None for a spectator.
    given: dict[str, str] | None
    #: The cards the viewer received, by the giver's seat (as a string).
    received: dict[str, str] | None


class PandaView(TableView, PandaPart):
    """A Panda view (a seat's or a spectator's)."""


__all__ = [
    "HandRecord",
    "PandaOptionsView",
    "PandaPart",
    "PandaView",
    "Pending",
    "ScoreLine",
    "TrickPlay",
]
