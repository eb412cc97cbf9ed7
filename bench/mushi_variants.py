"""Mushi's switched-off readings of the opponent's hand from its laid cards (bench only).

Stop 39 (docs/ai/mushi.md): a card the opponent laid without a capture says its hand
holds no card of a month then on the table (:func:`opponent_reading`). ``normal`` with
that reading (:class:`ReadingPosition`: those cards surely lie in the stock) and
``strong`` whose determinizations deal the opponent's hand by it (:func:`sample_read`)
measured nothing, so the shipped levels deal its hand blind; the variants live here, run
by ``bench.mushi_paired`` (``normal_read``, ``strong_read``). :class:`SureStockPosition`
also serves the oracle (``bench.mushi_oracle``: every card but the opponent's true hand
surely lies in the stock).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.engine.search import Budget
from bot.games.mushi.ai import _Position, choose
from bot.games.mushi.rules import MONTH, WILD, wild_targets
from bot.games.mushi.strong import World, deal_world, endgame_choice, searchable, unseen_cards

View = Mapping[str, Any]


def opponent_reading(view: View) -> tuple[frozenset[int], bool]:
    """Months of which the opponent's hand holds no card, and whether it holds no wild, as
    its laid cards of this hand tell (the view's ``plays``).

    A hand only shrinks (a card is played, none ever enters), so a card the opponent laid
    without a capture says that its hand held — and still holds — no card of a month then
    on the table (any such card would have captured), nor the wild if the wild had a
    target then. A belief: exact against a player who captures whenever it can (the rules
    let a player lay a card and keep a capture for later, as ``normal`` itself sometimes
    does). The whole reading is dropped once the opponent plays a card it said it lacked.
    """
    plays = view.get("plays") or []
    opp = 1 - view["seat"]
    table = list(view["table"])
    before: list[tuple[str, list[str]]] = []  # the opponent's laid cards, last first
    for move in reversed(plays):
        card, took = move["card"], move["took"]
        if took:
            table.extend(took)
        elif card in table:  # (the kept bottom wild never reached the table)
            table.remove(card)
        if move["kind"] == "play" and move["seat"] == opp:
            # A Willow laid by the wild on the table reads nothing: its player may have
            # meant it to take the wild (no card from a hand can; the greedy baseline tries).
            mistaken = card != WILD and MONTH[card] == 11 and WILD in table
            before.append((card, [] if took or mistaken else list(table)))
    months: set[int] = set()
    no_wild = False
    for card, laid_on in reversed(before):
        if (card == WILD and no_wild) or (card != WILD and MONTH[card] in months):
            return frozenset(), False  # it held back a capture: nothing to read
        if laid_on:
            months.update(MONTH[t] for t in laid_on if t != WILD)
            no_wild = no_wild or bool(wild_targets(laid_on))
    return frozenset(months), no_wild


def _lacked(code: str, months: frozenset[int], no_wild: bool) -> bool:
    return no_wild if code == WILD else MONTH[code] in months


class SureStockPosition(_Position):
    """``normal``'s position with some unseen cards surely in the stock (``sure``): the
    opponent's hand is drawn from the rest (the pool), and the flip's average weighs a
    sure card by 1, one of the pool by the chance that it is not in the opponent's hand."""

    def __init__(self, view: View, sure: Iterable[str]) -> None:
        super().__init__(view)
        self.sure_stock = frozenset(sure)
        self.pool = len(self.unseen) - len(self.sure_stock)
        self.wild_in_pool = self.wild_unseen and WILD not in self.sure_stock
        self.unseen_by_month = {}
        for c in self.unseen:
            if c != WILD and c not in self.sure_stock:
                self.unseen_by_month[MONTH[c]] = self.unseen_by_month.get(MONTH[c], 0) + 1
        self._pool_weight = 1.0
        if self.sure_stock and self.pool:
            self._pool_weight = (self.pool - self.opp_hand) / self.pool

    def p_holds(self, month: int | None, flipped: str | None, wild: bool) -> float:
        mates = 0 if month is None else self.unseen_by_month.get(month, 0)
        # (a flipped card from the pool is one of its month's cards the hand may hold; one
        # surely in the stock never was among them)
        if flipped is not None and flipped != WILD and MONTH[flipped] == month:
            mates -= flipped not in self.sure_stock
        if wild and self.wild_in_pool:
            mates += 1
        # (the cards the hand is drawn from, once ``flipped`` has come out of the stock)
        pool = self.pool - (flipped is not None and flipped not in self.sure_stock)
        return self.p_opp_holds(mates, pool)

    def stock_weight(self, card: str) -> float:
        return 1.0 if card in self.sure_stock else self._pool_weight


class ReadingPosition(SureStockPosition):
    """``normal``'s position with the opponent's hand read from its laid cards
    (:func:`opponent_reading`): the unseen cards it says the hand lacks lie in the stock.
    A reading that leaves fewer cards than its hand holds is wrong and is ignored."""

    def __init__(self, view: View) -> None:
        lacks, no_wild = opponent_reading(view)
        unseen = unseen_cards(view)
        sure = [c for c in unseen if _lacked(c, lacks, no_wild)]
        if len(unseen) - len(sure) < view["hand_counts"][1 - view["seat"]]:
            sure = []
        super().__init__(view, sure)


def choose_read(view: View, legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` with the opponent's hand read from its laid cards (stop 39)."""
    return choose(view, legal, rng, position=ReadingPosition)


def sample_read(view: View, rng: random.Random, trust: float) -> World:
    """One of ``strong``'s determinizations (:func:`bot.games.mushi.strong.sample_world`)
    that, in a share ``trust`` of the samples, deals the opponent's hand only from the
    cards its laid cards say it may hold (the others surely lie in the stock)."""
    hidden = unseen_cards(view)
    rng.shuffle(hidden)
    n_opp = view["hand_counts"][1 - view["seat"]]
    lacks, no_wild = opponent_reading(view)
    if (lacks or no_wild) and rng.random() < trust:
        pool = [c for c in hidden if not _lacked(c, lacks, no_wild)]
        if len(pool) >= n_opp:
            stock = [*pool[n_opp:], *(c for c in hidden if _lacked(c, lacks, no_wild))]
            rng.shuffle(stock)
            hidden = pool[:n_opp] + stock
    return deal_world(view, hidden)


def choose_strong_sampled(
    view: View,
    legal: Sequence[str],
    rng: random.Random,
    sample: Callable[[View, random.Random], World],
    budget: Budget | None = None,
) -> str:
    """``strong`` (:func:`bot.games.mushi.strong.choose_strong`, the same dice) whose
    endgame determinizations are drawn by ``sample(view, rng)``."""
    prior = choose(view, legal, random.Random(rng.random()))
    if not searchable(view, legal):
        return prior
    return endgame_choice(view, legal, rng, prior, sample, budget)


def choose_strong_read(
    view: View, legal: Sequence[str], rng: random.Random, trust: float = 0.8
) -> str:
    """``strong`` whose determinizations deal the opponent's hand by the reading in a
    share ``trust`` of the samples (stop 39)."""
    return choose_strong_sampled(view, legal, rng, lambda v, r: sample_read(v, r, trust))
