"""A sixth game that exists only in the tests: "Twenty", two players alternately add 1, 2 or
3 to a running total; whoever reaches 20 wins. It is registered the way a real game is (a
package exporting ``SPEC``, its name in ``GAME_NAMES``), to show the host needs no edit for
a new game."""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from bot.engine import Event, Result, State
from bot.engine.core import parse_options, replayer
from bot.engine.spec import GameSpec
from bot.engine.ui import default_controls

NAME = "twenty"


@dataclass(frozen=True)
class TwentyOptions:
    goal: int = 20

    def __post_init__(self) -> None:
        if not 5 <= self.goal <= 100:
            raise ValueError("Option goal must be between 5 and 100.")


class TwentyState(State):
    game = NAME

    def __init__(self, seed: int | str, players: Sequence[str], options: TwentyOptions):
        super().__init__(seed, players, {"goal": options.goal})
        self.goal = options.goal
        self.total = 0
        self.turn = 0

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if self.is_over or seat != self.turn:
            return []
        return [f"add {n}" for n in (1, 2, 3) if self.total + n <= self.goal]

    def _apply(self, seat: int, code: str) -> list[Event]:
        self.total += int(code.split()[1])
        self.turn = 1 - seat
        return [Event("add", f"{self.players[seat]} adds: {self.total}.", seat)]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "goal": self.goal}

    @property
    def is_over(self) -> bool:
        return self.total >= self.goal

    @property
    def scores(self) -> list[int]:
        if not self.is_over:
            return [0, 0]
        winner = 1 - self.turn  # the seat that reached the goal
        return [1 if s == winner else 0 for s in range(2)]

    def result(self) -> Result:
        return Result.free_for_all(self.scores)


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    deck: Any = None,
) -> TwentyState:
    return TwentyState(seed, players, parse_options(TwentyOptions, options))


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    return rng.choice(list(legal))


def describe(code: str) -> str:
    return f"+{code.split()[1]}"


SPEC = GameSpec(
    name=NAME,
    title="Twenty",
    seats=2,
    options=TwentyOptions,
    new_game=new_game,
    replay=replayer(new_game),
    choose=choose,
    controls=lambda view, legal: default_controls("Add:", legal, describe),
    describe=describe,
    option_bounds={"goal": (5, 100)},
)


def register(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """Register Twenty for one test: a ``bot.games.twenty`` module and one name more."""
    import bot.games

    module = ModuleType(f"bot.games.{NAME}")
    module.SPEC = SPEC  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(bot.games, "GAME_NAMES", (*bot.games.GAME_NAMES, NAME))
    return SPEC
