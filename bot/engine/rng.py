"""Seeded randomness shared by every game: one seed gives one match, on every machine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def make_rng(seed: int | str, *salt: object) -> random.Random:
    """A private ``random.Random`` for ``seed`` (and an optional salt such as a deal number).

    Strings are hashed through ``random.Random``'s own seeding, which is stable across runs
    (unlike ``hash()``), so logs replay identically after a restart.
    """
    key = f"{seed}|" + "|".join(str(s) for s in salt)
    return random.Random(key)


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A shuffled copy of ``items``."""
    out = list(items)
    rng.shuffle(out)
    return out
