"""Mushi's ``strong`` AI: determinized Monte Carlo over the seat's own view.

Each determinization deals the cards this seat has not seen (the opponent's hand and the
stock) at random from exactly those cards. Every candidate is applied by the rules engine
in that world and the hand is played on by a greedy policy for both seats (take the most
card points, else lay the cheapest card) for a few turns. Mushi's score is additive (every
card ends in someone's pile), so a playout cut short is judged by what the hand would pay
if it ended there: half the difference of the two hand scores, which is exactly our score
when the hand is over. The normal AI's choice stands unless another action beats it by
:data:`MARGIN` on average.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.core import State
from bot.engine.search import Budget, determinized_choice
from bot.games.mushi.ai import choose
from bot.games.mushi.rules import (
    CHOOSE_FLIP,
    DECK,
    PLAY,
    MushiOptions,
    MushiState,
    capture_choices,
    card_points,
    score_hand,
)

View = Mapping[str, Any]
BUDGET = Budget(samples=48, seconds=0.2)
#: Plays (each with its flip) after the candidate before a playout is judged.
HORIZON = 6
#: Hand points (mean over the playouts) by which an action must beat normal's choice.
MARGIN = 1.0


def unseen_cards(view: View) -> list[str]:
    """The cards the viewing seat has not seen: the opponent's hand and the stock."""
    seen = set(view["hand"] or []) | set(view["table"]) | set(view.get("set_aside") or [])
    for pile in view["captures"]:
        for group in pile.values():
            seen |= set(group)
    pending = view.get("pending") or {}
    if pending.get("card"):
        seen.add(pending["card"])
    return [c for c in DECK if c not in seen]


def sample_world(view: View, rng: random.Random) -> MushiState:
    """One full state consistent with ``view``, built from the view alone: the unseen cards
    shuffled into the opponent's hand and the stock. The world's match is this one hand."""
    me = view["seat"]
    opp = 1 - me
    hidden = unseen_cards(view)
    rng.shuffle(hidden)
    n_opp = view["hand_counts"][opp]
    if len(hidden) != n_opp + view["stock_count"]:
        raise ValueError("the view's card counts do not add up")
    options = MushiOptions(**{**view["options"], "hands": 6})
    world = object.__new__(MushiState)
    State.__init__(world, "world", ("A", "B"), dict(view["options"]))
    world.opts = options
    world.total_hands = 1
    world._decks = []
    world.deal_count = view["deal_count"]
    world.redeals = view["redeals"]
    world.elder = view["elder"]
    world.current = me
    world.phase = view["phase"]
    world.hands = [[], []]
    world.hands[me] = list(view["hand"])
    world.hands[opp] = hidden[:n_opp]
    world.table = list(view["table"])
    world.stock = hidden[n_opp:]
    world.captures = [[c for g in view["captures"][s].values() for c in g] for s in (0, 1)]
    world.set_aside = list(view.get("set_aside") or [])
    world.wild_holder = view["wild_holder"]
    world.flipped, world.flip_options = None, []
    if world.phase == CHOOSE_FLIP:
        world.flipped = view["pending"]["card"]
        world.flip_options = list(view["pending"]["options"])
    world.last_play = world.last_flip = None
    world.match_scores = [0, 0]
    world.history = []
    return world


def _copy(world: MushiState) -> MushiState:
    new = object.__new__(MushiState)
    new.__dict__.update(world.__dict__)
    new.hands = [list(world.hands[0]), list(world.hands[1])]
    new.table = list(world.table)
    new.stock = list(world.stock)
    new.captures = [list(world.captures[0]), list(world.captures[1])]
    new.set_aside = list(world.set_aside)
    new.flip_options = list(world.flip_options)
    new.match_scores = [0, 0]
    new.history = []
    new.log, new.events = [], []
    return new


def _greedy(state: MushiState, seat: int) -> str:
    """The playout policy: the most card points now, else lay the cheapest card."""
    legal = [c for c in state.legal_actions(seat) if c != "cancel"]
    if state.phase == CHOOSE_FLIP:
        return max(legal, key=lambda c: card_points(c.split()[1]))

    def gain(code: str) -> int:
        words = code.split()
        took = [words[2]] if len(words) == 3 else list(capture_choices(words[1], state.table)[0])
        if not took:
            return -card_points(words[1]) - 100
        return card_points(words[1]) + sum(card_points(t) for t in took)

    return max(legal, key=gain)


def _playout(me: int) -> Callable[[MushiState, str, random.Random], float]:
    """The playout function for seat ``me``."""

    def playout(world: MushiState, code: str, rng: random.Random) -> float:
        world.apply(me, code)
        plays = 0
        while not world.is_over and plays < HORIZON:
            seat = world.current
            if world.phase == PLAY:
                plays += 1
            world.apply(seat, _greedy(world, seat))
        if world.is_over:
            return float(world.match_scores[me])
        scores = score_hand(world.captures).scores
        return (scores[me] - scores[1 - me]) / 2

    return playout


def choose_strong(
    view: View, legal: Sequence[str], rng: random.Random, budget: Budget | None = None
) -> str:
    """The strong AI's action (one of ``legal``), searching over the view only."""
    prior = choose(view, legal, random.Random(rng.random()))
    if prior == "cancel" or len(legal) == 1:
        return prior  # whether to cancel a deal is the normal AI's judgement
    candidates = [c for c in legal if c != "cancel"]
    return determinized_choice(
        view,
        candidates,
        rng,
        sample=sample_world,
        playout=_playout(view["seat"]),
        copy=_copy,
        budget=budget or BUDGET,
        prior=prior,
        margin=MARGIN,
    )


__all__ = ["BUDGET", "choose_strong", "sample_world", "unseen_cards"]
