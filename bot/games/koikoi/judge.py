"""Koi-Koi's one-ply judgement of a play (pure; it reads only the seat's view).

A capture pile is judged by a *potential*: its yaku points plus partial credit for yaku
still within reach (cards the opponent holds in their captures are dead). A play is worth
what it adds to our potential, plus what it denies the opponent, minus what the board we
leave offers the opponent next turn; a capture that makes or upgrades a yaku (ours, or one
denied to the opponent) is worth :data:`WIN` more, for its taker may end the round with it
(the potential alone credited a fifth animal with a few hundredths). A capture the
opponent cannot take first (they hold none of its month) can wait: it counts less now, and
the turn goes to one they could take from us. An opponent who laid a card and took
nothing is believed to hold no card of a month then on the board (:func:`opponent_lacks`:
true of a player who takes whenever they can, not a rule). :func:`_decide` is the rule of
thumb for the Koi-Koi call; the call itself is weighed by playing the round out
(``strong.choose_one_ply``), since playouts need the search's machinery, which plays by
this judgement.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.hanafuda.cards import (
    ALL_CARDS,
    ANIMAL,
    BLUE_RIBBONS,
    BRIGHT,
    PLAIN,
    RED_POETRY_RIBBONS,
    RIBBON,
)
from bot.games.koikoi.rules import CLASS, INO_SHIKA_CHO, MONTH, RAIN_MAN, SAKE_CUP, yaku_total

# Weights (tuned against random and greedy opponents).
DENY = 0.4  # a card we take is a card the opponent cannot
RISK = 1.0  # what the board we leave offers the opponent's next turn
THREAT = 1.6  # the opponent already has a yaku: any upgrade of theirs ends the round
WIN = 4.0  # a capture that makes or upgrades a yaku can end the round (its taker may stop)

_NON_RAIN_BRIGHTS = frozenset({"1b", "3b", "8b", "12b"})
# Set yaku: (cards, points, credit for having 1, 2 of the 3 cards).
_SETS = (
    (INO_SHIKA_CHO, 5.0),
    (RED_POETRY_RIBBONS, 6.0),
    (BLUE_RIBBONS, 6.0),
)
_SET_CREDIT = (0.0, 0.15, 0.45)
# A capture that can wait is worth less now: we hold the card that takes it, so it is lost
# only if the opponent takes the board's card first (their hand holds its month). Taking
# it now spends a turn another capture, one they could take from us, may need.
SURE_WAIT = 1.0  # its month's other cards are all seen: nobody else can take it
WAIT = 0.75  # otherwise, times the chance the opponent holds none of its month
#: Whether the plays of the match's last round weigh the match (see ``_Position``).
LAST_ROUND = True
#: How far normal trusts that an opponent who laid a card without taking anything held no
#: card of a month then on the board (1: fully; 0: not at all). The rules let a player lay
#: a card while holding a capture (normal itself holds back a capture that can wait), so
#: this is a belief about players who take whenever they can; 1 was measured against
#: greedy, which does.
INFER = 1.0
#: Whether that reading takes every laid card of the round (``plays``), not just the last.
WHOLE_ROUND = True
COUNT_CREDIT = 1.5  # credit for a counting yaku's progress, times (have / need) squared
# Counting yaku: class, how many make the yaku, how many exist.
_COUNTS = ((PLAIN, 10, 25), (RIBBON, 5, 10), (ANIMAL, 5, 9))


def _class_counts(cards: Iterable[str]) -> dict[str, int]:
    counts = {BRIGHT: 0, ANIMAL: 0, RIBBON: 0, PLAIN: 0}
    for c in cards:
        counts[CLASS[c]] += 1
    if SAKE_CUP in cards:
        counts[PLAIN] += 1  # the cup is an animal and a plain at once
    return counts


def potential(caps: frozenset[str] | set[str], dead: frozenset[str] | set[str]) -> float:
    """Yaku points of ``caps`` plus partial credit for yaku ``dead`` cards do not rule out."""
    counts = _class_counts(caps)
    value = 0.0
    # Brights: only the best bright yaku counts.
    brights = len(_NON_RAIN_BRIGHTS & caps)
    rain = RAIN_MAN in caps
    if brights == 4:
        value += 15.0 if rain else 10.0
    elif brights == 3:
        value += 8.0 if rain else 6.0
    else:
        live = 4 - len(_NON_RAIN_BRIGHTS & dead)
        if live >= 3:
            value += 6.0 * _SET_CREDIT[brights] * (1.0 if live == 4 else 0.6)
    for cards, points in _SETS:
        have = len(cards & caps)
        if have == 3:
            value += points
        elif not cards & dead:
            value += points * _SET_CREDIT[have]
    dead_counts = _class_counts(dead)
    for cls, need, exist in _COUNTS:
        n = counts[cls]
        if n >= need:
            value += n - need + 1
        elif exist - dead_counts[cls] >= need:
            value += COUNT_CREDIT * (n / need) ** 2
    return value


def _p_holds(n: int, total: int, hand: int) -> float:
    """Chance a hand of ``hand`` cards drawn from ``total`` holds one of ``n`` given ones."""
    miss = 1.0
    for i in range(hand):
        miss *= max(0, total - n - i) / (total - i)
    return 1.0 - miss


def opponent_lacks(view: Mapping[str, Any]) -> frozenset[int]:
    """The months of which the opponent's hand is believed to hold no card. Each time this
    round they laid a card and took nothing, their hand then held no card of a month on
    the board they played to — if they take whenever they can, which the rules do not
    demand (see :data:`INFER`) — and a hand only shrinks (nothing is drawn into it), so it
    holds none of them now either. The boards are rebuilt from the round's record
    (``plays``: a play from a hand, then its flip, turn after turn), backwards from
    today's board. A view without the record (older code) reads their last play only."""
    if view.get("phase") not in ("play", "choose_flip", "decide"):
        return frozenset()
    record = view.get("plays")
    if not WHOLE_ROUND or record is None:
        return _last_play_lacks(view)
    opp = 1 - view["seat"]
    board = list(view["board"])
    lacks: set[int] = set()
    for i in range(len(record) - 1, -1, -1):
        play = record[i]
        # Undo it: what it took goes back on the board; a laid card comes off it.
        if play["took"]:
            board.extend(play["took"])
            continue
        if play["card"] not in board:
            return _last_play_lacks(view)  # (a record that does not fit the board)
        board.remove(play["card"])
        if i % 2 == 0 and play["seat"] == opp:  # a play from their hand (odd: a flip)
            lacks.update(MONTH[c] for c in board)
    return frozenset(lacks)


def _last_play_lacks(view: Mapping[str, Any]) -> frozenset[int]:
    """:func:`opponent_lacks` from the opponent's last play alone (``last_play``): the
    board they played to is today's, less their play and their flip."""
    play = view.get("last_play")
    me = view["seat"]
    if not play or play["seat"] == me or play["took"] or view.get("phase") != "play":
        return frozenset()
    board = list(view["board"])
    flip = view.get("last_flip")
    if flip and flip["seat"] != me:
        if flip["took"]:
            board.extend(flip["took"])
        elif flip["card"] in board:
            board.remove(flip["card"])
    if play["card"] in board:
        board.remove(play["card"])
    return frozenset(MONTH[c] for c in board)


class _Position:
    """What the view tells: our pile, theirs, the board and the unseen cards."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.opp = 1 - self.me
        self.hand: list[str] = list(view["hand"] or [])
        self.board: list[str] = list(view["board"])
        self.mine = frozenset(view["captures"][self.me])
        self.theirs = frozenset(view["captures"][self.opp])
        seen = set(self.hand) | set(self.board) | self.mine | self.theirs
        pending = view.get("pending") or {}
        if pending.get("card"):
            seen.add(pending["card"])
        self.unseen = [c for c in ALL_CARDS if c not in seen]
        self.opp_hand = view["hand_counts"][self.opp]
        self.threat = THREAT if view["yaku_points"][self.opp] > 0 else 1.0
        self.urgency = 1.3 if view["yaku_points"][self.me] > 0 else 1.0
        # The yaku total with which each side may stop: any, but in the match's last round
        # what stopping needs to win (or tie) the match; the side ahead stops with any
        # yaku, so any of theirs is a threat, any of ours a win.
        self.need_me = self.need_opp = 0
        if LAST_ROUND and view.get("round", 1) >= view.get("rounds", 6):
            lead = view["scores"][self.me] - view["scores"][self.opp]
            self.need_me, self.need_opp = max(0, -lead), max(0, lead)
            if lead < 0:
                self.threat = THREAT
            elif lead > 0:
                self.urgency = 1.3
        self._base_me = potential(self.mine, self.theirs)
        self._base_opp = potential(self.theirs, self.mine)
        self._points_me = yaku_total(self.mine)
        self._points_opp = yaku_total(self.theirs)
        self._cache: dict[tuple[bool, frozenset[str]], float] = {}
        self._risk_cache: dict[tuple[str, ...], float] = {}
        self.unseen_by_month = {m: 0 for m in range(1, 13)}
        for c in self.unseen:
            self.unseen_by_month[MONTH[c]] += 1
        self.lacks = opponent_lacks(view) if INFER > 0 else frozenset()
        # The unseen cards the opponent's hand may hold (the months it lacks are all in the
        # stack), for the chance they hold a given month.
        self.pool = len(self.unseen) - sum(self.unseen_by_month[m] for m in self.lacks)

    def gain(self, cards: frozenset[str]) -> float:
        """What taking ``cards`` is worth to us (our progress plus what it denies them)."""
        key = (True, cards)
        if key not in self._cache:
            mine = potential(self.mine | cards, self.theirs) - self._base_me
            denied = potential(self.theirs | cards, self.mine) - self._base_opp
            mine += WIN * self._scores(yaku_total(self.mine | cards), True)
            denied += WIN * self._scores(yaku_total(self.theirs | cards), False)
            self._cache[key] = self.urgency * mine + DENY * self.threat * denied
        return self._cache[key]

    def _scores(self, total: int, ours: bool) -> bool:
        """Whether a pile's new yaku ``total`` lets its side stop (it is a raise, and in
        the last round enough to win the match)."""
        if ours:
            return total > self._points_me and total >= self.need_me
        return total > self._points_opp and total >= self.need_opp

    def makes_yaku(self, cards: frozenset[str]) -> bool:
        """Whether taking ``cards`` raises our yaku total (we may stop with it)."""
        return self._scores(yaku_total(self.mine | cards), True)

    def their_gain(self, cards: frozenset[str]) -> float:
        key = (False, cards)
        if key not in self._cache:
            gain = potential(self.theirs | cards, self.mine) - self._base_opp
            gain += WIN * self._scores(yaku_total(self.theirs | cards), False)
            self._cache[key] = self.threat * gain
        return self._cache[key]

    def p_opp_holds(self, month: int) -> float:
        """Chance the opponent's hand holds a card of ``month`` (unseen cards are alike)."""
        n = self.unseen_by_month[month]
        if n == 0 or self.opp_hand == 0:
            return 0.0
        if month in self.lacks:
            return (1.0 - INFER) * _p_holds(n, len(self.unseen), self.opp_hand)
        return _p_holds(n, max(self.pool, self.opp_hand), self.opp_hand)

    def month_risk(self, month_cards: Sequence[str]) -> float:
        """What the opponent may take of one month's board cards on their next turn."""
        if not month_cards:
            return 0.0
        return self.p_opp_holds(MONTH[month_cards[0]]) * self.month_prize(month_cards)

    def month_prize(self, month_cards: Sequence[str]) -> float:
        """What the opponent gains by taking one month's board cards (the best of them)."""
        key = tuple(sorted(month_cards))
        prize = self._risk_cache.get(key)
        if prize is None:
            if len(month_cards) == 3:
                best = self.their_gain(frozenset(month_cards))  # the fourth takes all three
            else:
                best = max(self.their_gain(frozenset((c,))) for c in month_cards)
            prize = self._risk_cache[key] = best + 0.3
        return prize

    def board_by_month(self, board: Iterable[str]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for c in board:
            out.setdefault(MONTH[c], []).append(c)
        return out


def _score_play(pos: _Position, by_month: dict[int, list[str]], code: str) -> float:
    words = code.split()
    played = words[1]
    month = MONTH[played]
    on_board = by_month.get(month, [])
    if not on_board:
        taken: frozenset[str] = frozenset()
        left = [played]
    elif len(on_board) == 2:
        taken = frozenset((played, words[2]))
        left = [c for c in on_board if c != words[2]]
    else:
        taken = frozenset((played, *on_board))
        left = []
    value = pos.gain(taken) if taken else 0.0
    if taken and len(pos.hand) > 1 and not pos.makes_yaku(taken):
        # It can wait (unless it makes our yaku: then we may stop now, before they score).
        if pos.unseen_by_month[month] == 0:
            value *= 1.0 - SURE_WAIT
        else:
            value *= 1.0 - WAIT * (1.0 - pos.p_opp_holds(month))
    # Only this month's part of the board changes; compare it before and after.
    value -= RISK * (pos.month_risk(left) - pos.month_risk(on_board))
    if not taken:
        # A card thrown away: better a cheap one, and one whose month we still hold.
        value -= 0.05 * _card_worth(played)
        if any(MONTH[c] == month and c != played for c in pos.hand):
            value += 0.2
    return value


_CLASS_WORTH = {BRIGHT: 6.0, ANIMAL: 3.0, RIBBON: 2.0, PLAIN: 1.0}


def _card_worth(code: str) -> float:
    return _CLASS_WORTH[CLASS[code]]


def _choose_play(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    pos = _Position(view)
    by_month = pos.board_by_month(pos.board)
    scored = [(_score_play(pos, by_month, code), i) for i, code in enumerate(legal)]
    best = max(s for s, _ in scored)
    ties = [legal[i] for s, i in scored if s >= best - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _choose_flip(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    pos = _Position(view)
    flipped = view["pending"]["card"]
    options = [code.split()[1] for code in legal]

    def worth(target: str) -> float:
        left = [c for c in options if c != target]
        return pos.gain(frozenset((flipped, target))) - RISK * pos.month_risk(left)

    return max(legal, key=lambda code: worth(code.split()[1]))


def _distance(caps: frozenset[str], dead: frozenset[str]) -> int:
    """How many more cards ``caps`` needs for its next yaku (or upgrade); 99 if none."""
    best = 99
    counts = _class_counts(caps)
    dead_counts = _class_counts(dead)
    for cls, need, exist in _COUNTS:
        if exist - dead_counts[cls] >= max(need, counts[cls] + 1):
            best = min(best, max(1, need - counts[cls]))
    for cards, _ in _SETS:
        if not cards & dead and not cards <= caps:
            best = min(best, len(cards - caps))
    brights = len(_NON_RAIN_BRIGHTS & caps)
    live = 4 - len(_NON_RAIN_BRIGHTS & dead)
    if brights < 3 and live >= 3:
        best = min(best, 3 - brights)
    return best


def _decide(view: Mapping[str, Any]) -> str:
    me = view["seat"]
    opp = 1 - me
    points = view["pending"]["points"]
    scores = view["scores"]
    hand_left = len(view["hand"] or [])
    last_round = view["round"] >= view["rounds"]
    if last_round and scores[me] + points < scores[opp] and hand_left >= 1:
        return "koikoi"  # stopping now loses the match anyway: chase
    if last_round:
        return "stop"
    mine = frozenset(view["captures"][me])
    theirs = frozenset(view["captures"][opp])
    opp_far = view["yaku_points"][opp] == 0 and _distance(theirs, mine) >= 3
    near_big = (
        any(len(cards - mine) == 1 and not cards & theirs for cards, _ in _SETS)
        or len(_NON_RAIN_BRIGHTS & mine) == 2
    )
    if points <= 2 and hand_left >= 5 and opp_far and near_big:
        return "koikoi"
    return "stop"
