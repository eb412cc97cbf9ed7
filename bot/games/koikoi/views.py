"""Koi-Koi's view: what :meth:`KoiKoiState.view` returns (``KoiKoiState._view`` builds
:class:`KoiKoiPart`, the engine adds :class:`~bot.engine.view.TableView`'s keys)."""

from __future__ import annotations

from typing import TypedDict, final

from bot.engine.view import TableView
from bot.games.hanafuda.views import HanafudaPlay, HanafudaView


class Yaku(TypedDict):
    name: str
    points: int


@final
class FlipChoice(TypedDict):
    """``pending`` while the flipped card waits for one of two targets."""

    card: str
    options: list[str]


@final
class KoiKoiDecision(TypedDict):
    """``pending`` while the seat that made a yaku says ``koikoi`` or ``stop``."""

    points: int


class RoundRecord(TypedDict):
    """One finished round (``history``)."""

    round: int
    dealer: int
    #: None: a draw.
    winner: int | None
    points: int
    reason: str
    yaku: list[Yaku]


class KoiKoiPart(HanafudaView):
    #: The round being played (1 first; the last one once the match is over).
    round: int
    rounds: int
    dealer: int
    board: list[str]
    stack_count: int
    #: Each seat's captures, sorted.
    captures: list[list[str]]
    #: Each seat's yaku now.
    yaku: list[list[Yaku]]
    yaku_points: list[int]
    #: Whether each seat has called koi-koi this round.
    koikoi: list[bool]
    pending: FlipChoice | KoiKoiDecision | None
    history: list[RoundRecord]
    void_deals: int
    #: This round's plays from a hand and flips from the stack, in order, each with what it
    #: took (every player saw them: public). A flip waiting for its target is not in it
    #: yet (see ``pending``).
    plays: list[HanafudaPlay]


class KoiKoiView(TableView, KoiKoiPart):
    """A Koi-Koi view (a seat's or a spectator's)."""


__all__ = ["FlipChoice", "KoiKoiDecision", "KoiKoiPart", "KoiKoiView", "RoundRecord", "Yaku"]
