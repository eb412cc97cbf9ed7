"""The parts of a view that Koi-Koi and Mushi share (both lay hanafuda on a table)."""

from __future__ import annotations

from typing import TypedDict


class HanafudaPlay(TypedDict):
    """The last card played from a hand (``last_play``) or flipped from the stock
    (``last_flip``), and what it took (none: it stays on the table)."""

    seat: int
    card: str
    took: list[str]


class HanafudaView(TypedDict):
    """Keys both hanafuda games' views carry (beside :class:`~bot.engine.view.TableView`'s)."""

    #: Which deal this is (Koi-Koi: deals dealt so far, void ones included; Mushi: the hand).
    deal: int
    #: The viewer's hand, sorted; None for a spectator.
    hand: list[str] | None
    #: Cards in each seat's hand.
    hand_counts: list[int]
    phase: str
    last_play: HanafudaPlay | None
    last_flip: HanafudaPlay | None


def copy_play(play: HanafudaPlay | None) -> HanafudaPlay | None:
    """A view's copy of a state's ``last_play`` or ``last_flip``."""
    return {**play, "took": list(play["took"])} if play else None


__all__ = ["HanafudaPlay", "HanafudaView", "copy_play"]
