"""Matches between agents without Discord: for the AI-strength test and the benchmarks.

An *agent* is a function like :func:`bot.games.panda.choose`: ``(view, legal, rng) -> code``
where ``""`` means "nothing now" for a seat that only has optional out-of-turn actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.panda.rules import PandaState, new_game

PLAYERS = ("North", "East", "South", "West")
Agent = Callable[[Mapping[str, Any], Sequence[str], random.Random], str]


def random_agent(out_of_turn: float = 0.05) -> Agent:
    """A uniformly random player: on its turn any legal action (calls included); out of
    turn it acts with probability ``out_of_turn`` (then any legal optional action)."""

    def agent(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        if view["seat"] not in view["to_act"] and rng.random() >= out_of_turn:
            return ""
        return rng.choice(list(legal))

    return agent


def step(state: PandaState, agents: Sequence[Agent], rng: random.Random) -> None:
    """One action, as a host would ask: optional out-of-turn actors first (in the priority
    order of rule 11), then the first seat with a pending decision."""
    for seat in state.priority():
        if seat in state.may_act:
            code = agents[seat](state.view(seat), state.legal_actions(seat), rng)
            if code:
                state.apply(seat, code)
                return
    seat = state.to_act[0]
    state.apply(seat, agents[seat](state.view(seat), state.legal_actions(seat), rng))


def play_match(
    seed: int, agents: Sequence[Agent], options: Mapping[str, Any] | None = None
) -> PandaState:
    """A whole match; ``agents[s]`` plays seat ``s``."""
    state = new_game(seed, PLAYERS, options)
    rng = random.Random(f"agents|{seed}")
    while not state.is_over:
        step(state, agents, rng)
    return state
