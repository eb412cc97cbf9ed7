"""Seeded random playouts of the five games, for contract tests that need many states.

``sample_states(game, seed, count)`` plays random legal actions (out-of-turn ones too, now
and then) and returns deep copies of the state at spread-out steps, so the samples cover
the phases of a game (passing, bidding, bury, claim windows, last turns, between deals...).
Deterministic: every choice comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from bot.engine import State
from bot.games import koikoi, mahjong, mushi, panda, sandayi

GAMES: dict[str, ModuleType] = {
    "koikoi": koikoi,
    "mushi": mushi,
    "panda": panda,
    "sandayi": sandayi,
    "mahjong": mahjong,
}
NAMES = ["Ann", "Bob", "Cid", "Dee"]

#: Options that make more of a game's phases reachable in a short playout.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "koikoi": [{}],
    "mushi": [{}, {"bottom_wild_takes_rain": True, "elder_takes_table_four": True}],
    "panda": [{}, {"free_first_lead": True}],
    "sandayi": [{}],
    "mahjong": [{}, {"strict": True}],
}


def new_state(game: str, seed: int, options: dict[str, Any] | None = None) -> State:
    module = GAMES[game]
    return module.new_game(seed, NAMES[: module.SEATS], options or None)


def random_step(state: State, rng: random.Random, eager: float = 0.2) -> bool:
    """Apply one random legal action (an optional out-of-turn one with chance ``eager``).
    False when nobody can act."""
    optional = list(state.may_act)
    if optional and rng.random() < eager:
        seats = optional
    else:
        seats = list(state.to_act) or optional
    rng.shuffle(seats)
    for seat in seats:
        legal = state.legal_actions(seat)
        if legal:
            state.apply(seat, rng.choice(legal))
            return True
    return False


def phase_key(state: State) -> tuple[Any, ...]:
    """What kind of moment this is: the phase, a pending decision, several seats asked at
    once, someone who may act out of turn."""
    pending = getattr(state, "pending", None)
    if isinstance(pending, dict):
        pending = pending.get("kind")
    return (
        getattr(state, "phase", None),
        pending if isinstance(pending, str) else None,
        len(state.to_act) > 1,
        bool(state.may_act),
    )


#: Roughly how many actions a playout may take before the samples are taken.
STEPS = {"koikoi": 70, "mushi": 200, "panda": 300, "sandayi": 300, "mahjong": 300}


def sample_states(game: str, seed: int, count: int) -> list[State]:
    """Copies of states met in seeded random playouts: the first state of every kind
    (``phase_key``) met, plus ``count`` states at random steps."""
    rng = random.Random(f"{game}-{seed}")
    variants = OPTIONS[game]
    out: list[State] = []
    kinds: set[tuple[Any, ...]] = set()
    sampled = 0
    playout = 0
    while sampled < count:
        state = new_state(game, rng.randrange(10**6), variants[playout % len(variants)])
        playout += 1
        wanted = {rng.randrange(STEPS[game]) for _ in range(max(2, count // 3))}
        for step in range(STEPS[game]):
            if state.is_over:
                break
            key = phase_key(state)
            if step in wanted or key not in kinds:
                kinds.add(key)
                out.append(state.clone())
                sampled += step in wanted
            if not random_step(state, rng):
                break
    return out


#: Short matches, for a finished state.
SHORT: dict[str, dict[str, Any]] = {
    "koikoi": {},
    "mushi": {"hands": 6},
    "panda": {"target": 100},
    "sandayi": {"hands": 1},
    "mahjong": {"max_hands": 1},
}


def finished_state(game: str, seed: int, max_steps: int = 20_000) -> State:
    """A match played to its end with random legal actions."""
    rng = random.Random(f"{game}-over-{seed}")
    state = new_state(game, seed, SHORT[game])
    for _ in range(max_steps):
        if state.is_over or not random_step(state, rng):
            break
    assert state.is_over, f"{game}: no end after {max_steps} random actions"
    return state
