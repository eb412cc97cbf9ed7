"""Mah-Jongg's view: what :meth:`MahjongState.view` returns (``_view`` builds
:class:`MahjongPart`, the engine adds :class:`~bot.engine.view.TableView`'s keys)."""

# (no `from __future__ import annotations`: with it, Python 3.11 cannot see NotRequired
# in a TypedDict and counts such keys as required)
from typing import NotRequired, TypedDict

from bot.engine.view import TableView


class MeldView(TypedDict):
    #: ``chow``, ``pung`` or ``kong``.
    kind: str
    cards: list[str]
    concealed: bool


class PublicHand(TypedDict):
    """A seat's hand face up (a winner's, a finished hand's)."""

    concealed: list[str]
    melds: list[MeldView]
    extras: list[str]


class Standing(TypedDict):
    """A standing hand's declaration: the card it waits on and the hand shown."""

    card: str
    hand: list[str]


class Claim(TypedDict):
    """The claim window on a discard (``my_*``: the viewer's own, when it is asked)."""

    card: str
    by: int
    asked: list[int]
    waiting: list[int]
    my_options: NotRequired[list[str]]
    #: None: not answered yet.
    my_answer: NotRequired[str | None]


class Prelude(TypedDict):
    """The declarations before play (``my_*``: the viewer's own, when it is asked)."""

    asked: list[int]
    waiting: list[int]
    my_options: NotRequired[list[str]]
    #: None: not answered yet.
    my_answer: NotRequired[str | None]


# A declared Mah-Jongg waiting for the hand to be scored (the functional form: ``from``, the
# discarder or None from the wall, is a keyword). ``by``: ``wall`` or ``discard``.
Win = TypedDict(
    "Win",
    {"winner": int, "by": str, "card": str | None, "from": int | None, "hand": PublicHand},
)

# How a finished hand was won (``history``): as :data:`Win`, and whether the winning card was
# the last of its kind (``original``) and the hand declared standing.
WinRecord = TypedDict(
    "WinRecord",
    {"by": str, "card": str | None, "from": int | None, "original": bool, "standing": bool},
)


class SheetLine(TypedDict):
    name: str
    #: Points for items; the fraction for multipliers.
    value: float


class SheetGroup(TypedDict):
    kind: str
    card: str
    concealed: bool


class SheetScore(TypedDict):
    """A seat's score for one hand, item by item (``Sheet.as_dict`` of the scoring)."""

    items: list[SheetLine]
    multipliers: list[SheetLine]
    basic: int
    factor: float
    total: int
    special: str | None
    groups: list[SheetGroup]
    pair: str | None


class Sheet(SheetScore):
    """A seat's score sheet in ``history``: its score and what it paid or was paid."""

    payment: int


class Penalty(TypedDict):
    seat: int
    points: int
    reason: str


class HandRecord(TypedDict):
    """One finished hand (``history``): won (``mahjong``), a ``draw`` or ``void``."""

    deal: int
    outcome: str
    round_wind: str
    round_player: int
    winds: list[str]
    winner: int | None
    win: WinRecord | None
    sheets: list[Sheet] | None
    hands: list[PublicHand]
    deltas: list[int]
    totals: list[int]
    penalties: list[Penalty]
    #: Why a void hand was void (only a void hand's).
    reason: NotRequired[str]


class MahjongOptionsView(TypedDict):
    game: str
    strict: bool
    last_card: str
    settlement: str
    random_seats: bool
    max_hands: int


class MahjongPart(TypedDict):
    title: str
    phase: str
    #: The hand being played (1 first); ``deals`` None: as many as the rounds take.
    deal: int
    deals: None
    rounds: int
    rounds_played: int
    round_wind: str
    seat_winds: list[str]
    round_player: int
    dealer: int
    east: int
    turn: int | None
    melds: list[list[MeldView]]
    extras: list[list[str]]
    rivers: list[list[str]]
    #: Cards left in the live wall and in the kong box.
    wall: int
    kong_box: int
    hand_counts: list[int]
    standing: list[Standing | None]
    claim: Claim | None
    prelude: Prelude | None
    win: Win | None
    history: list[HandRecord]
    options: MahjongOptionsView
    #: The viewer's hand (None for a spectator), its drawn card kept apart and a kong it
    #: may still declare (None when there is none).
    hand: list[str] | None
    drawn: str | None
    pending_declare: str | None


class MahjongView(TableView, MahjongPart):
    """A Mah-Jongg view (a seat's or a spectator's)."""


__all__ = [
    "Claim",
    "HandRecord",
    "MahjongOptionsView",
    "MahjongPart",
    "MahjongView",
    "MeldView",
    "Penalty",
    "Prelude",
    "PublicHand",
    "Sheet",
    "SheetScore",
    "SheetGroup",
    "SheetLine",
    "Standing",
    "Win",
    "WinRecord",
]
