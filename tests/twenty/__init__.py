"""Twenty: a sixth game that exists only in the tests, to show a game is one package and its
registration — nothing else in the bot names it.

Two players race a running total to the goal (20 by default). Each holds three number cards
(1, 2 or 3) dealt from the round's seeded stock; on their turn they add one to the total
(``add <n>``) and draw another, or wait (``wait``) once the total is within 3 of the goal.
Whoever reaches the goal wins the round (a point); the match is ``rounds`` rounds (3).

It declares every convention the bot has a default for differently from the five games
(the hand is the view's ``cards``, the pass code ``wait``, the deal-end and match-end
events ``round_won`` and ``final``, deals are ``round`` s), so a test passes only where
the bot reads the spec instead of assuming.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Event, Result, State
from bot.engine.core import parse_options, replayer
from bot.engine.rng import make_rng
from bot.engine.spec import GameSpec
from bot.engine.ui import default_controls

NAME = "twenty"
HAND_SIZE = 3
WAIT = "wait"


@dataclass(frozen=True)
class TwentyOptions:
    goal: int = 20
    rounds: int = 3

    def __post_init__(self) -> None:
        if not 5 <= self.goal <= 100:
            raise ValueError("Option goal must be between 5 and 100.")
        if not 1 <= self.rounds <= 5:
            raise ValueError("Option rounds must be between 1 and 5.")


class TwentyState(State):
    game = NAME
    pass_code = WAIT

    def __init__(self, seed: int | str, players: Sequence[str], options: TwentyOptions):
        super().__init__(seed, players, {"goal": options.goal, "rounds": options.rounds})
        self.goal = options.goal
        self.rounds = options.rounds
        self.round = 0
        self.points = [0, 0]
        self.over = False
        self._deal()

    def _deal(self) -> None:
        self.round += 1
        self.stock = make_rng(self.seed, "deal", self.round)
        self.total = 0
        self.turn = (self.round - 1) % 2
        self.cards = [[self._draw() for _ in range(HAND_SIZE)] for _ in range(2)]

    def _draw(self) -> str:
        return str(self.stock.randint(1, 3))

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if self.is_over or seat != self.turn:
            return []
        adds = [f"add {card}" for card in sorted(set(self.cards[seat]))]
        return [*adds, WAIT] if self.goal - self.total <= 3 else adds

    def default_action(self, seat: int) -> str:
        return self.legal_actions(seat)[0]

    def _apply(self, seat: int, code: str) -> list[Event]:
        name = self.players[seat]
        self.turn = 1 - seat
        if code == WAIT:
            return [Event(WAIT, f"{name} waits.", seat)]
        card = code.split()[1]
        self.cards[seat].remove(card)
        self.cards[seat].append(self._draw())
        self.total += int(card)
        events = [Event("add", f"{name} adds {card}: {self.total}.", seat)]
        if self.total < self.goal:
            return events
        self.points[seat] += 1
        events.append(Event("round_won", f"{name} reaches {self.goal}: round {self.round}."))
        if self.round == self.rounds:
            self.over = True
            events.append(Event("final", f"Twenty is over: {self.points[0]}–{self.points[1]}."))
        else:
            self._deal()
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "total": self.total,
            "goal": self.goal,
            "round": self.round,
            "rounds": self.rounds,
            "points": list(self.points),
            "turn": self.turn,
            "cards": list(self.cards[seat]) if seat is not None else None,
        }

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    def result(self) -> Result:
        return Result.free_for_all(self.points)


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
    return "Wait" if code == WAIT else f"+{code.split()[1]}"


SPEC = GameSpec(
    name=NAME,
    title="Twenty",
    seats=2,
    options=TwentyOptions,
    new_game=new_game,
    replay=replayer(new_game),
    choose=choose,
    controls=lambda view, legal: default_controls("Add:", legal, describe, {WAIT: "secondary"}),
    describe=describe,
    option_bounds={"goal": (5, 100), "rounds": (1, 5)},
    package=__name__,
    cog=f"{__name__}.cog",
    hand_key="cards",
    pass_code=TwentyState.pass_code,
    deal_end_kind="round_won",
    match_end_kind="final",
    deal_key="round",
    deal_word="round",
    long_options={"goal": 100, "rounds": 5},
)
