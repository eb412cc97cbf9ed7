"""Koi-Koi's ``strong`` AI: determinized Monte Carlo over the seat's own view.

Each determinization deals the cards this seat has not seen (the opponent's hand and the
stack) at random from exactly those cards; every candidate is then played out to the end
of the round by a fast greedy policy for both seats (each stops at its first yaku, as the
normal AI mostly does), so a ``koikoi`` is judged by what the rest of the round really
brings: our bigger score, or the opponent's yaku first. The outcome is the round's points
for us minus the opponent's; in the last round it is the match won or lost.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.core import State
from bot.engine.search import Budget, determinized_choice
from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BLUE_RIBBONS,
    BRIGHT,
    PLAIN,
    RED_POETRY_RIBBONS,
    RIBBON,
)
from bot.games.koikoi.ai import choose
from bot.games.koikoi.rules import (
    CHOOSE_FLIP,
    CLASS,
    DECIDE,
    INO_SHIKA_CHO,
    MONTH,
    PLAY,
    RAIN_MAN,
    SAKE_CUP,
    KoiKoiState,
    card_value,
    score_yaku,
)

View = Mapping[str, Any]
BUDGET = Budget(samples=96, seconds=0.2)
#: Round points (mean over the playouts) by which an action must beat the normal AI's
#: choice to replace it: greedy playouts misjudge plays that normal's risk and denial
#: terms get right, so only a clear gain overrules it (0.3 lost to normal: 39 %; 1.5: 48 %).
MARGIN = 1.5
#: In the last round only the match counts: a win is worth this many round points.
MATCH_POINTS = 30.0
#: The spread of one round's score difference (normal against greedy players, measured).
ROUND_SD = 3.7
_MAX = 40  # round points beyond this change the match chances no more


def unseen_cards(view: View) -> list[str]:
    """The cards the viewing seat has not seen: the opponent's hand and the stack."""
    me = view["seat"]
    seen = set(view["hand"] or []) | set(view["board"])
    seen |= set(view["captures"][0]) | set(view["captures"][1])
    pending = view.get("pending") or {}
    if pending.get("card"):
        seen.add(pending["card"])
    assert me in (0, 1)
    return [c for c in ALL_CARDS if c not in seen]


def sample_world(view: View, rng: random.Random) -> KoiKoiState:
    """One full state consistent with ``view``, built from the view alone: the unseen cards
    shuffled into the opponent's hand and the stack. The world's match is this one round
    (``rounds`` 1, scores 0), so its final scores are the round's outcome."""
    me = view["seat"]
    opp = 1 - me
    hidden = unseen_cards(view)
    rng.shuffle(hidden)
    n_opp = view["hand_counts"][opp]
    if len(hidden) != n_opp + view["stack_count"]:
        raise ValueError("the view's card counts do not add up")
    world = object.__new__(KoiKoiState)
    State.__init__(world, "world", ("A", "B"), {"rounds": 1})
    world.rounds = 1
    world._decks = []
    world.deal_count = view["deal"]
    world.void_deals = 0
    world._next_dealer = view["dealer"]
    world.dealer = view["dealer"]
    world.current = me
    world.phase = view["phase"]
    world.hands = [[], []]
    world.hands[me] = list(view["hand"])
    world.hands[opp] = hidden[:n_opp]
    world.board = list(view["board"])
    world.stack = hidden[n_opp:]
    world.captures = [list(view["captures"][0]), list(view["captures"][1])]
    world.yaku_points = list(view["yaku_points"])
    world.koikoi = list(view["koikoi"])
    world.match_scores = [0, 0]
    world.history = []
    world.flipped, world.flip_options = None, []
    world.last_play = world.last_flip = None
    world.turn_start_points = view["yaku_points"][me]
    if world.phase == CHOOSE_FLIP:
        world.flipped = view["pending"]["card"]
        world.flip_options = list(view["pending"]["options"])
        # Points at the turn's start: the pile without this turn's play.
        play = view.get("last_play") or {}
        this_turn = {play.get("card"), *(play.get("took") or [])}
        before = [c for c in view["captures"][me] if c not in this_turn]
        world.turn_start_points = world.yaku_points[me] = sum(p for _, p in score_yaku(before))
    elif world.phase == DECIDE:
        world.yaku_points[me] = view["pending"]["points"]
    return world


_VALUE = {c: card_value(c) for c in ALL_CARDS}


def _best_target(targets: Sequence[str]) -> str:
    return max(targets, key=_VALUE.__getitem__)


# A capture pile as counts, for the playouts' yaku totals: brights, the Rain Man, animals,
# ribbons, plains (the Sake cup is an animal and a plain), Ino-Shika-Cho, red and blue
# poetry ribbons.
def _card_vector(code: str) -> tuple[int, ...]:
    cls = CLASS[code]
    return (
        int(cls == BRIGHT),
        int(code == RAIN_MAN),
        int(cls == ANIMAL),
        int(cls == RIBBON),
        int(cls == PLAIN or code == SAKE_CUP),
        int(code in INO_SHIKA_CHO),
        int(code in RED_POETRY_RIBBONS),
        int(code in BLUE_RIBBONS),
    )


_VECTOR = {c: _card_vector(c) for c in ALL_CARDS}


def _counts(pile: Sequence[str]) -> list[int]:
    counts = [0] * 8
    for c in pile:
        for i, n in enumerate(_VECTOR[c]):
            counts[i] += n
    return counts


def _add(counts: list[int], code: str) -> None:
    for i, n in enumerate(_VECTOR[code]):
        counts[i] += n


def count_points(counts: Sequence[int]) -> int:
    """The yaku total of a pile from its counts: :func:`score_yaku`'s sum, computed fast."""
    brights, rain, animals, ribbons, plains, isc, red, blue = counts
    points = max(0, plains - 9) + max(0, ribbons - 4) + max(0, animals - 4)
    points += 5 * (isc == 3) + 6 * (red == 3) + 6 * (blue == 3)
    if brights == 5:
        points += 15
    elif brights - rain >= 4:
        points += 10
    elif rain and brights >= 4:
        points += 8
    elif brights - rain >= 3:
        points += 6
    return points


def _capture(board: list[str], pile: list[int], card: str, target: str | None) -> bool:
    """Koi-Koi's matching (as the rules): none lays it, one or a chosen one is taken,
    three are all taken. True if it took something."""
    month = MONTH[card]
    same = [b for b in board if MONTH[b] == month]
    if not same:
        board.append(card)
        return False
    took = [target or _best_target(same)] if len(same) == 2 else same
    for t in took:
        board.remove(t)
        _add(pile, t)
    _add(pile, card)
    return True


def _greedy_play(hand: Sequence[str], board: Sequence[str]) -> tuple[str, str | None]:
    """The playout policy's play: the most valuable capture, else lay the cheapest card."""
    by_month: dict[int, list[str]] = {}
    for b in board:
        by_month.setdefault(MONTH[b], []).append(b)
    best: tuple[int, str, str | None] | None = None
    for card in hand:
        same = by_month.get(MONTH[card])
        if not same:
            option: tuple[int, str, str | None] = (-_VALUE[card] - 100, card, None)
        elif len(same) == 2:
            target = _best_target(same)
            option = (_VALUE[card] + _VALUE[target], card, target)
        else:
            option = (_VALUE[card] + sum(map(_VALUE.__getitem__, same)), card, None)
        if best is None or option[0] > best[0]:
            best = option
    assert best is not None
    return best[1], best[2]


class _Round:
    """A fast copy of one round for playouts: plain lists, no events, no checks (the first
    action comes from ``legal`` and the rest from the policy, so all are legal)."""

    __slots__ = ("hands", "board", "stack", "piles", "start", "current", "phase", "flipped")

    def __init__(self, world: KoiKoiState) -> None:
        self.hands = [list(world.hands[0]), list(world.hands[1])]
        self.board = list(world.board)
        self.stack = list(world.stack)
        self.piles = [_counts(world.captures[0]), _counts(world.captures[1])]
        # The points each seat must beat to score: its total when its turn began.
        self.start = list(world.yaku_points)
        self.start[world.current] = world.turn_start_points
        self.current = world.current
        self.phase = world.phase
        self.flipped = world.flipped

    def run(self, code: str) -> tuple[int | None, int]:
        """Apply the searching seat's ``code``, play on to the round's end; return the
        winner (None: a draw) and their points."""
        words = code.split()
        seat = self.current
        if words[0] == "stop":
            return seat, count_points(self.piles[seat])
        if words[0] == "koikoi":
            self.start[seat] = count_points(self.piles[seat])
            return self._next_turns()
        if words[0] == "take":
            assert self.flipped is not None
            _capture(self.board, self.piles[seat], self.flipped, words[1])
        else:
            self.hands[seat].remove(words[1])
            _capture(self.board, self.piles[seat], words[1], words[2] if len(words) > 2 else None)
            _capture(self.board, self.piles[seat], self.stack.pop(), None)
        return self._finish(seat) or self._next_turns()

    def _finish(self, seat: int) -> tuple[int | None, int] | None:
        points = count_points(self.piles[seat])
        if points > self.start[seat]:
            return seat, points  # the policy stops at once (and must on the last card)
        if not self.hands[0] and not self.hands[1]:
            return None, 0
        return None

    def _next_turns(self) -> tuple[int | None, int]:
        seat = self.current
        while True:
            seat = 1 - seat
            card, target = _greedy_play(self.hands[seat], self.board)
            self.hands[seat].remove(card)
            took = _capture(self.board, self.piles[seat], card, target)
            took = _capture(self.board, self.piles[seat], self.stack.pop(), None) or took
            if took:
                done = self._finish(seat)
                if done:
                    return done
            elif not self.hands[0] and not self.hands[1]:
                return None, 0


def playout_value(
    view: View, match_chances: bool = False
) -> Callable[[_Round, str, random.Random], float]:
    """The playout function for ``view``'s seat (the outcome measure reads the match).

    In the last round a playout is judged by the match won or lost. Before it, by the
    round's points, or with ``match_chances`` by the chance of winning the match that the
    lead after this round gives (the rounds left each moving the lead by about
    :data:`ROUND_SD` points): a point matters more when the match is close."""
    me = view["seat"]
    opp = 1 - me
    last_round = view["round"] >= view["rounds"]
    lead = view["scores"][me] - view["scores"][opp]
    spread = ROUND_SD * math.sqrt(2 * max(1, view["rounds"] - view["round"]))
    chances = [MATCH_POINTS * math.erf((lead + d) / spread) for d in range(-_MAX, _MAX + 1)]

    def playout(world: _Round, code: str, rng: random.Random) -> float:
        winner, points = world.run(code)
        delta = 0 if winner is None else points if winner == me else -points
        if last_round:
            final = lead + delta
            return delta + MATCH_POINTS * ((final > 0) - (final < 0))
        if match_chances:
            return chances[max(-_MAX, min(_MAX, delta)) + _MAX]
        return float(delta)

    return playout


def sample_round(view: View, rng: random.Random) -> _Round:
    return _Round(sample_world(view, rng))


def copy_round(r: _Round) -> _Round:
    new = object.__new__(_Round)
    new.hands = [list(r.hands[0]), list(r.hands[1])]
    new.board = list(r.board)
    new.stack = list(r.stack)
    new.piles = [list(r.piles[0]), list(r.piles[1])]
    new.start = list(r.start)
    new.current, new.phase, new.flipped = r.current, r.phase, r.flipped
    return new


def choose_strong(
    view: View, legal: Sequence[str], rng: random.Random, budget: Budget | None = None
) -> str:
    """The strong AI's action (one of ``legal``), searching over the view only."""
    if len(legal) == 1 or view.get("phase") not in (PLAY, CHOOSE_FLIP, DECIDE):
        return legal[0]
    return determinized_choice(
        view,
        legal,
        rng,
        sample=sample_round,
        playout=playout_value(view),
        copy=copy_round,
        budget=budget or BUDGET,
        prior=choose(view, legal, random.Random(rng.random())),
        margin=MARGIN,
    )


__all__ = ["BUDGET", "choose_strong", "sample_world", "unseen_cards"]
