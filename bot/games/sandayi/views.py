"""San Da Yi's view: what :meth:`SanDaYiState.view` returns (``_view`` builds
:class:`SanDaYiPart`, the engine adds :class:`~bot.engine.view.TableView`'s keys)."""

from __future__ import annotations

from typing import TypedDict

from bot.engine.view import PlayedCard, TableView


class Bid(TypedDict):
    seat: int
    #: None: the seat passed.
    bid: int | None


class Trick(TypedDict):
    leader: int
    cards: list[PlayedCard]
    winner: int
    points: int


class HandRecord(TypedDict):
    """One finished hand (``history``)."""

    hand: int
    first_bidder: int
    bids: list[Bid]
    declarer: int
    bid: int
    stake: int
    trump: str
    target: int
    defender_points: int
    #: The defenders took the last trick (the buried cards' points count for them).
    kou_di: bool
    last_trick_winner: int
    case: str
    case_name: str
    declarer_multiple: int
    defender_multiple: int
    settlement: list[int]
    totals: list[int]
    redeals: int


class SanDaYiPart(TypedDict):
    #: The hand being played (1 first).
    deal: int
    deals: int
    redeals: int
    phase: str
    first_bidder: int
    bids: list[Bid]
    high_bid: int | None
    #: The lowest bid allowed now (None outside the bidding).
    bid_minimum: int | None
    fixed_minimums: bool
    declarer: int | None
    bid: int | None
    stake: int | None
    target: int | None
    trump: str | None
    kitty_public: bool
    #: The kitty, once the declarer has it and if the viewer may see it.
    kitty: list[str] | None
    #: What the declarer buried (the declarer's view only).
    buried: list[str] | None
    to_bury: int
    #: The viewer's hand; None for a spectator.
    hand: list[str] | None
    hand_counts: list[int]
    leader: int | None
    trick: list[PlayedCard]
    tricks_played: int
    tricks: list[Trick]
    tricks_won: list[int]
    last_trick: Trick | None
    defender_points: int
    history: list[HandRecord]


class SanDaYiView(TableView, SanDaYiPart):
    """A San Da Yi view (a seat's or a spectator's)."""


__all__ = ["Bid", "HandRecord", "SanDaYiPart", "SanDaYiView", "Trick"]
