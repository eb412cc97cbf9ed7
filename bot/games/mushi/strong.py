"""Mushi's ``strong`` AI: normal's judgement, and an exact search once the hand is short.

Mushi's score is additive (every card ends the hand in somebody's pile), and the normal AI
already weighs the flip and the opponent's reply in expectation, which a search with crude
playouts judges worse (an earlier Monte Carlo with greedy playouts lost to it). What
normal cannot do is look to the end: when our hand holds few cards the rest of the hand is
small enough to play out *exactly*. So from :data:`ENDGAME` cards on, each determinization
(the cards this seat has not seen dealt at random into the opponent's hand and the stock,
from the view alone) is solved by minimax with alpha-beta pruning to the end of the hand —
every play, flip, flip choice, the leftovers of rule 8 and the combinations — and every
candidate is judged by its mean exact outcome (:func:`bot.engine.search.determinized_choice`,
common determinizations for all candidates). Before that, and whenever only one option is
sensible, it plays normal's choice.

The outcome is the hand's score for us; in the last hand of a match only the match counts,
so a playout is judged by the match won, tied or lost (plus the hand score, to break ties
between plays that all win or all lose).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.search import Budget, determinized_choice
from bot.games.mushi.ai import choose
from bot.games.mushi.rules import (
    COMBINATIONS,
    DECK,
    HALF_POINTS,
    MONTH,
    RAIN_CARDS,
    WILD,
    card_points,
)

log = logging.getLogger(__name__)

View = Mapping[str, Any]
#: Our hand size from which the rest of the hand is searched exactly.
#: (4 cards cost ~90 ms of CPU for 24 determinizations, 3 cards ~13 ms.)
ENDGAME = 3
#: The seconds are CPU seconds of this thread (``time.thread_time``), so a loaded machine
#: does not cut the search short.
BUDGET = Budget(samples=32, seconds=0.25)
#: In the last hand, a match won is worth this many hand points (the hand score only
#: breaks ties between plays with the same match result).
MATCH_POINTS = 1000.0

_POINTS = {c: card_points(c) for c in DECK}
_COMBOS = [(c.cards, c.value) for c in COMBINATIONS]


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


def _wild_targets(table: Sequence[str]) -> list[str]:
    counts: dict[int, int] = {}
    for t in table:
        if t != WILD:
            counts[MONTH[t]] = counts.get(MONTH[t], 0) + 1
    return [t for t in table if t != WILD and t not in RAIN_CARDS and counts[MONTH[t]] != 3]


def _choices(code: str, table: Sequence[str]) -> list[list[str]]:
    """What ``code`` may take from ``table`` (as :func:`rules.capture_choices`)."""
    if code == WILD:
        targets = _wild_targets(table)
        return [[t] for t in targets] if targets else [[]]
    month = MONTH[code]
    matches = [t for t in table if t != WILD and MONTH[t] == month]
    if len(matches) == 2:
        return [[m] for m in matches]
    return [matches]


class World:
    """One hand with every card known: plain lists, the rules of a turn (no events).

    ``stock``'s top card is last (``pop()`` flips it), as in :class:`MushiState`."""

    __slots__ = (
        "hands",
        "table",
        "stock",
        "piles",
        "set_aside",
        "wild_holder",
        "elder",
        "current",
        "flipped",
        "bottom_rain",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        table: Sequence[str],
        stock: Sequence[str],
        piles: Sequence[Sequence[str]],
        *,
        elder: int,
        current: int,
        set_aside: Sequence[str] = (),
        wild_holder: int | None = None,
        flipped: str | None = None,
        bottom_rain: bool = False,
    ) -> None:
        self.hands = [list(hands[0]), list(hands[1])]
        self.table = list(table)
        self.stock = list(stock)
        self.piles = [list(piles[0]), list(piles[1])]
        self.set_aside = list(set_aside)
        self.wild_holder = wild_holder
        self.elder = elder
        self.current = current
        self.flipped = flipped  # a flipped card waiting for the current seat's choice
        self.bottom_rain = bottom_rain

    def copy(self) -> World:
        new = object.__new__(World)
        new.hands = [list(self.hands[0]), list(self.hands[1])]
        new.table = list(self.table)
        new.stock = list(self.stock)
        new.piles = [list(self.piles[0]), list(self.piles[1])]
        new.set_aside = list(self.set_aside)
        new.wild_holder = self.wild_holder
        new.elder = self.elder
        new.current = self.current
        new.flipped = self.flipped
        new.bottom_rain = self.bottom_rain
        return new

    @property
    def over(self) -> bool:
        return not self.stock and not self.hands[0] and not self.hands[1] and self.flipped is None

    # ----- the moves ------------------------------------------------------------------------
    def moves(self) -> list[tuple[str, str | None]]:
        """The current seat's options: ``(card, target)`` plays, or ``("take", target)``."""
        if self.flipped is not None:
            return [("take", t) for t in self._flip_options(self.flipped)]
        out: list[tuple[str, str | None]] = []
        for c in self.hands[self.current]:
            choices = _choices(c, self.table)
            if len(choices) > 1:
                out.extend((c, took[0]) for took in choices)
            else:
                out.append((c, None))
        return out

    def _flip_options(self, flip: str) -> list[str]:
        if flip == WILD and not self.stock:
            return [t for t in self.table if t in RAIN_CARDS]
        if flip == WILD:
            return _wild_targets(self.table)
        return [c[0] for c in _choices(flip, self.table)]

    def play(self, card: str, target: str | None) -> None:
        """Apply one option of :meth:`moves` for the current seat (then the flip)."""
        seat = self.current
        if card == "take":
            flip = self.flipped
            assert flip is not None and target is not None
            self.flipped = None
            self._lay(seat, flip, [target])
            self._end_turn()
            return
        choices = _choices(card, self.table)
        took = choices[0] if len(choices) == 1 else [target]
        self.hands[seat].remove(card)
        self._lay(seat, card, took)  # type: ignore[arg-type]  # (a choice names its target)
        self._flip(seat)

    def _flip(self, seat: int) -> None:
        flip = self.stock.pop()
        if flip == WILD and not self.stock:  # the younger keeps the bottom wild
            rain = [t for t in self.table if t in RAIN_CARDS]
            if self.bottom_rain and rain:
                if len(rain) > 1:
                    self.flipped = flip
                    return
                self._lay(seat, flip, rain)
            else:
                self._capture(seat, [WILD])
            self._end_turn()
            return
        if flip == WILD:
            targets = _wild_targets(self.table)
            if len(targets) > 1:
                self.flipped = flip
                return
            took = targets
        elif (
            WILD in self.table
            and flip not in RAIN_CARDS
            and sum(1 for t in self.table if t != WILD and MONTH[t] == MONTH[flip]) != 3
        ):
            took = [WILD]  # the flip must take the wild on the table
        else:
            choices = _choices(flip, self.table)
            if len(choices) > 1:
                self.flipped = flip
                return
            took = choices[0]
        self._lay(seat, flip, took)
        self._end_turn()

    def _lay(self, seat: int, code: str, took: Sequence[str]) -> None:
        if not took:
            self.table.append(code)
            return
        for t in took:
            self.table.remove(t)
        self._capture(seat, [code, *took])

    def _capture(self, seat: int, cards: Sequence[str]) -> None:
        self.piles[seat].extend(cards)
        if WILD in cards:
            self.wild_holder = seat
            if self.set_aside:
                self.piles[seat].extend(self.set_aside)
                self.set_aside = []

    def _end_turn(self) -> None:
        if self.stock or self.hands[0] or self.hands[1]:
            self.current = 1 - self.current
        else:
            self._leftovers()

    def _leftovers(self) -> None:
        """Rule 8 (as :meth:`MushiState._end_hand`): the wild, then the cards left."""
        younger = 1 - self.elder
        if WILD in self.table:
            self.table.remove(WILD)
            self._capture(younger, [WILD])
        holder = self.wild_holder if self.wild_holder is not None else younger
        for t in sorted(self.table, key=DECK.index):
            if t in RAIN_CARDS:
                held = [sum(1 for c in self.piles[s] if c in RAIN_CARDS) for s in (0, 1)]
                to = holder if held[0] == held[1] else (0 if held[0] > held[1] else 1)
            else:
                to = holder
            self.piles[to].append(t)
        self.table = []

    # ----- the outcome -----------------------------------------------------------------------
    def score(self, seat: int) -> int:
        """``seat``'s hand score (rule 10) from the piles as they are."""
        mine, theirs = self.piles[seat], self.piles[1 - seat]
        total = sum(_POINTS[c] for c in mine) - HALF_POINTS
        mine_set, theirs_set = set(mine), set(theirs)
        for cards, value in _COMBOS:
            if cards <= mine_set:
                total += value
            elif cards <= theirs_set:
                total -= value
        return total


def sample_world(view: View, rng: random.Random) -> World:
    """One full hand consistent with ``view``, built from the view alone: the cards the
    seat has not seen shuffled into the opponent's hand and the stock."""
    hidden = unseen_cards(view)
    rng.shuffle(hidden)
    return deal_world(view, hidden)


def deal_world(view: View, hidden: Sequence[str]) -> World:
    """The hand of ``view`` with the cards the seat has not seen dealt in the order
    ``hidden``: the opponent's hand first, then the stock (its top card last)."""
    me = view["seat"]
    opp = 1 - me
    n_opp = view["hand_counts"][opp]
    if len(hidden) != n_opp + view["stock_count"]:
        raise ValueError("the view's card counts do not add up")
    hands: list[list[str]] = [[], []]
    hands[me] = list(view["hand"])
    hands[opp] = list(hidden[:n_opp])
    pending = view.get("pending") or {}
    return World(
        hands,
        view["table"],
        hidden[n_opp:],
        [[c for g in view["captures"][s].values() for c in g] for s in (0, 1)],
        elder=view["elder"],
        current=me,
        set_aside=view.get("set_aside") or (),
        wild_holder=view.get("wild_holder"),
        flipped=pending.get("card") if view.get("phase") == "choose_flip" else None,
        bottom_rain=bool((view.get("options") or {}).get("bottom_wild_takes_rain")),
    )


def _parse(code: str) -> tuple[str, str | None]:
    words = code.split()
    if words[0] == "take":
        return "take", words[1]
    return words[1], words[2] if len(words) == 3 else None


def solve(world: World, me: int, value: Any, alpha: float, beta: float) -> float:
    """The exact value for ``me`` of ``world`` (both seats playing their best), alpha-beta.

    ``value(world)`` scores a finished hand for ``me``."""
    if world.over:
        return float(value(world))
    moves = world.moves()
    maximize = world.current == me
    best = -float("inf") if maximize else float("inf")
    for move in moves:
        child = world.copy()
        child.play(*move)
        v = solve(child, me, value, alpha, beta)
        if maximize:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def outcome(view: View) -> Any:
    """How a finished hand is judged for the viewing seat: its hand score, or in the
    match's last hand the match result (then the score)."""
    me = view["seat"]
    last_hand = view["deal"] >= view["deals"]
    totals = (view.get("history") or [{}])[-1].get("totals") if view.get("history") else None
    lead = 0 if not totals else totals[me] - totals[1 - me]

    def value(world: World) -> float:
        score = world.score(me)
        if not last_hand:
            return float(score)
        final = lead + 2 * score  # the hand moves the lead by twice our score
        return score + MATCH_POINTS * ((final > 0) - (final < 0))

    return value


def searchable(view: View, legal: Sequence[str]) -> bool:
    """Whether the strong AI searches this decision: the hand's end is near."""
    if len(legal) < 2 or "cancel" in legal:
        return False
    hand = view.get("hand") or []
    return view.get("phase") in ("play", "choose_flip") and len(hand) <= ENDGAME


def choose_strong(
    view: View, legal: Sequence[str], rng: random.Random, budget: Budget | None = None
) -> str:
    """The strong AI's action (one of ``legal``), searching over the view only."""
    prior = choose(view, legal, random.Random(rng.random()))
    if not searchable(view, legal):
        return prior
    return endgame_choice(view, legal, rng, prior, sample_world, budget)


def endgame_choice(
    view: View,
    legal: Sequence[str],
    rng: random.Random,
    prior: str,
    sample: Callable[[View, random.Random], World],
    budget: Budget | None = None,
) -> str:
    """The exact search's choice (``prior`` stands on a tie) over determinizations drawn
    by ``sample(view, rng)``."""
    me = view["seat"]
    value = outcome(view)

    def playout(world: World, code: str, dice: random.Random) -> float:
        world.play(*_parse(code))
        return solve(world, me, value, -float("inf"), float("inf"))

    return determinized_choice(
        view,
        legal,
        rng,
        sample=sample,
        playout=playout,
        copy=World.copy,
        budget=budget or BUDGET,
        prior=prior,
        margin=0.0,
        clock=time.thread_time,
    )


__all__ = [
    "BUDGET",
    "ENDGAME",
    "World",
    "choose_strong",
    "deal_world",
    "endgame_choice",
    "sample_world",
    "solve",
    "unseen_cards",
]
