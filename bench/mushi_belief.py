"""A soft, Bayesian reading of the Mushi opponent's hand from its plays of this hand
(stop 42, docs/ai/mushi.md; switched off in play, so bench only).

Each candidate opponent hand (the cards the seat has not seen, dealt blind) is weighed by
the likelihood of the opponent's observed plays (the view's public ``plays``) under an
opponent model: at each of its past turns it played a card of its hand of then with the
chance of a softmax (inverse temperature ``beta``) over ``normal``'s value
(:meth:`bot.games.mushi.ai._Position.play_value`) of each card it held, the card's best
capture. Its hand of then is the candidate hand plus the cards it played since, so a
player who laid a card while the candidate hand held a good capture, or who took a card
while a better one was in reach, makes that candidate unlikely.

The value of a card at a past turn is worked out once per decision and card, from the
opponent's reconstructed view of then (the table, the piles and the counts with the later
moves undone; its hand: the cards it played since, the rest of it counted among its unseen
cards), so a candidate's weight costs one sum per past turn. Reads only the view.

Its two uses in ``strong`` (:func:`choose_strong_belief`): the endgame's determinizations
drawn by it (``beta``, :func:`weighted_worlds`), and before the endgame ``normal``'s terms
with the chance that the opponent holds a card taken from it (``mid_beta``,
:class:`BeliefPosition`). Run by ``bench.mushi_paired`` (``strong_belief``, ``strong_mid``…)
and ``bench.mushi_belief_screen``.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.search import Budget
from bot.games.mushi.ai import _by_month, _choices, _Position, choose
from bot.games.mushi.rules import MONTH, WILD
from bot.games.mushi.strong import World, endgame_choice, sample_world, searchable, unseen_cards

View = Mapping[str, Any]
#: Blind determinizations weighed for the endgame's samples (:func:`weighted_worlds`).
CANDIDATES = 256
#: Opponent hands weighed for ``normal``'s terms before the endgame.
MID_CANDIDATES = 512


class Turn:
    """One past play of the opponent: each card's weight ``exp(beta · value)`` (scaled),
    and the sum of the weights of the cards it surely held (those it played since)."""

    __slots__ = ("known", "weight")

    def __init__(self, weight: dict[str, float], known: float) -> None:
        self.weight = weight
        self.known = known


def _past_views(view: View) -> list[tuple[dict[str, Any], list[str]]]:
    """The opponent's reconstructed view before each of its plays this hand (with the
    cards it played from then on, the one played then included), latest first."""
    me = view["seat"]
    opp = 1 - me
    plays = view.get("plays") or []
    table = list(view["table"])
    piles = [[c for g in view["captures"][s].values() for c in g] for s in (0, 1)]
    stock = int(view["stock_count"])
    if (view.get("pending") or {}).get("card"):
        stock += 1  # the flip waiting for a choice came from the stock
    counts = list(view["hand_counts"])
    later: list[str] = []
    out: list[tuple[dict[str, Any], list[str]]] = []
    for move in reversed(plays):
        card, took, seat = move["card"], list(move["took"]), move["seat"]
        if took:
            table.extend(took)
            for c in (card, *took):
                if c in piles[seat]:
                    piles[seat].remove(c)
        elif card in table:
            table.remove(card)
        elif card in piles[seat]:  # the kept bottom wild
            piles[seat].remove(card)
        if move["kind"] == "flip":
            stock += 1
            continue
        counts[seat] += 1
        if seat != opp:
            continue
        later.append(card)
        past = {
            "seat": opp,
            "hand": list(later),
            "table": list(table),
            "captures": [{"all": list(piles[0])}, {"all": list(piles[1])}],
            "set_aside": [],
            "pending": None,
            "hand_counts": list(counts),
            "stock_count": stock,
            "options": view.get("options") or {},
        }
        out.append((past, list(later)))
    return out


def opponent_turns(view: View, unseen: Sequence[str], beta: float) -> list[Turn]:
    """The opponent's past plays of this hand as likelihood terms (:class:`Turn`);
    ``unseen``: the cards the seat has not seen (the candidate hands' cards)."""
    turns: list[Turn] = []
    for past, held in _past_views(view):
        pos = _Position(past)
        by_month = _by_month(past["table"])
        values: dict[str, float] = {}
        for c in {*unseen, *held}:
            values[c] = max(pos.play_value(c, took) for took in _choices(c, by_month))
        top = max(values.values())
        weight = {c: math.exp(beta * (v - top)) for c, v in values.items()}
        turns.append(Turn(weight, sum(weight[c] for c in held)))
    return turns


def log_likelihood(hand: Sequence[str], turns: Sequence[Turn]) -> float:
    """The log-likelihood (up to a constant) of the opponent's plays if it holds ``hand``:
    at each turn, the chosen card's share of the softmax over the cards then held (the
    chosen card's own weight is the same for every candidate and is left out)."""
    total = 0.0
    for t in turns:
        total -= math.log(t.known + sum(t.weight[c] for c in hand))
    return total


class Posterior:
    """Weighted candidate hands of the opponent; called with some cards, the chance that
    its hand holds any of them (a ``hold`` for :class:`BeliefPosition`)."""

    def __init__(self, hands: Sequence[frozenset[str]], weights: Sequence[float]) -> None:
        self.hands = list(hands)
        self.weights = list(weights)
        self._cache: dict[frozenset[str], float] = {}

    def __call__(self, cards: frozenset[str]) -> float:
        p = self._cache.get(cards)
        if p is None:
            p = sum(w for h, w in zip(self.hands, self.weights, strict=True) if h & cards)
            self._cache[cards] = p
        return p


def hand_posterior(
    view: View, unseen: Sequence[str], rng: random.Random, beta: float, n: int
) -> Posterior:
    """``n`` opponent hands dealt blind from ``unseen`` (the cards the seat has not seen),
    weighed by the likelihood of the opponent's plays of this hand (:func:`log_likelihood`)."""
    opp = 1 - view["seat"]
    size = view["hand_counts"][opp]
    turns = opponent_turns(view, unseen, beta)
    pool = list(unseen)
    hands = []
    for _ in range(n):
        rng.shuffle(pool)
        hands.append(frozenset(pool[:size]))
    logs = [log_likelihood(list(h), turns) for h in hands]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    return Posterior(hands, [w / total for w in weights])


class BeliefPosition(_Position):
    """``normal``'s position with a belief about the opponent's hand: ``hold(cards)`` is
    the chance that it holds any of the unseen ``cards``, in place of the blind draw."""

    def __init__(self, view: View, hold: Callable[[frozenset[str]], float]) -> None:
        super().__init__(view)
        self.hold = hold
        self.month_cards: dict[int, list[str]] = {}
        for c in self.unseen:
            if c != WILD:
                self.month_cards.setdefault(MONTH[c], []).append(c)

    def p_holds(self, month: int | None, flipped: str | None, wild: bool) -> float:
        mates = () if month is None else self.month_cards.get(month, ())
        cards = {c for c in mates if c != flipped}
        if wild:
            cards.add(WILD)
        return self.hold(frozenset(cards)) if cards else 0.0

    def stock_weight(self, card: str) -> float:
        return 1.0 - self.hold(frozenset((card,)))  # the chance it lies in the stock


def weighted_worlds(
    view: View, rng: random.Random, beta: float, n: int = CANDIDATES
) -> tuple[list[World], list[float]]:
    """``n`` blind determinizations (:func:`bot.games.mushi.strong.sample_world`) and their
    weights: the likelihood of the opponent's plays of this hand if it held each one's
    hand (an opponent choosing by a softmax of ``beta`` times ``normal``'s values; the
    weights sum to 1). From the view alone."""
    opp = 1 - view["seat"]
    turns = opponent_turns(view, unseen_cards(view), beta)
    worlds = [sample_world(view, rng) for _ in range(n)]
    logs = [log_likelihood(w.hands[opp], turns) for w in worlds]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    return worlds, [w / total for w in weights]


def _opponent_played(view: View) -> bool:
    opp = 1 - view["seat"]
    return any(m["kind"] == "play" and m["seat"] == opp for m in view.get("plays") or [])


def choose_strong_belief(
    view: View,
    legal: Sequence[str],
    rng: random.Random,
    beta: float,
    mid_beta: float = 0.0,
    budget: Budget | None = None,
) -> str:
    """``strong`` (:func:`bot.games.mushi.strong.choose_strong`) with the soft reading:
    ``beta`` > 0, the endgame's determinizations drawn by it (:func:`weighted_worlds`);
    ``mid_beta`` > 0, ``normal``'s choice weighs the opponent's hand by it
    (:class:`BeliefPosition`, :data:`MID_CANDIDATES` hands) once the opponent has played
    this hand. Both 0: ``strong`` itself, the same dice."""
    position: Callable[[View], _Position] = _Position
    if mid_beta > 0 and len(legal) > 1 and "cancel" not in legal and _opponent_played(view):
        dice = random.Random(rng.random())
        hold = hand_posterior(view, unseen_cards(view), dice, mid_beta, MID_CANDIDATES)
        position = functools.partial(BeliefPosition, hold=hold)
    prior = choose(view, legal, random.Random(rng.random()), position=position)
    if not searchable(view, legal):
        return prior
    sample: Callable[[View, random.Random], World] = sample_world
    if beta > 0:
        worlds, weights = weighted_worlds(view, rng, beta)
        cum = list(itertools.accumulate(weights))
        sample = lambda v, r: r.choices(worlds, cum_weights=cum)[0]  # noqa: E731
    return endgame_choice(view, legal, rng, prior, sample, budget)


__all__ = [
    "CANDIDATES",
    "MID_CANDIDATES",
    "BeliefPosition",
    "Posterior",
    "Turn",
    "choose_strong_belief",
    "hand_posterior",
    "log_likelihood",
    "opponent_turns",
    "weighted_worlds",
]
