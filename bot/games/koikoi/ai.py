"""The Koi-Koi AI levels, which read only the seat's view: normal (:func:`choose`), easy
(:func:`choose_easy`) and the hint (:func:`hint`, normal's choice and why).

Normal plays the one-ply judgement (:mod:`bot.games.koikoi.judge`, with the Koi-Koi call
weighed by playouts: ``strong.choose_one_ply``) unless a short determinized search over
its view (``strong.choose_searched``) is sure of a better play; strong
(``strong.choose_strong``) searches the same way, with better playouts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.hanafuda.deal import chain_and
from bot.games.koikoi.judge import _card_worth, _Position
from bot.games.koikoi.rules import MONTH
from bot.games.koikoi.strong import NORMAL_BUDGET, choose_one_ply, choose_searched
from bot.i18n import Text, ntext


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The normal AI's action for the seat whose ``view`` this is (one of ``legal``): the
    one-ply judgement (:func:`strong.choose_one_ply
    <bot.games.koikoi.strong.choose_one_ply>`), overruled only where a short determinized
    search over this view is sure of a better play (:func:`strong.choose_searched
    <bot.games.koikoi.strong.choose_searched>`)."""
    return choose_searched(view, legal, rng, NORMAL_BUDGET)


# ----- hints --------------------------------------------------------------------------------


def _name(code: str) -> Text:
    from bot.games.hanafuda.cards import card

    return card(code).name


def _new_yaku(before: Iterable[str], after: Iterable[str]) -> list[tuple[str, int]]:
    from bot.games.koikoi.rules import score_yaku

    had = dict(score_yaku(before))
    return [(n, p) for n, p in score_yaku(after) if had.get(n, 0) < p]


def hint(view: Mapping[str, Any], legal: Sequence[str]) -> tuple[str, str]:
    """What the AI would play from this view, and why in a line: ``(code, reason)``.

    Deterministic (ties are broken by a fixed die); ``code`` is one of ``legal``."""
    if not legal:
        return "", Text("Nothing to decide now.", context="hanafuda")
    code = choose(view, legal, random.Random(f"hint:{view.get('version')}"))
    phase = view.get("phase")
    me = view["seat"]
    mine = set(view["captures"][me])
    if phase == "decide":
        points = (view.get("pending") or {}).get("points", view["yaku_points"][me])
        if code == "koikoi":
            return code, Text(
                "Koi-Koi: play on for more than {points} — a bigger yaku is close", points=points
            )
        return code, ntext(
            "Stop and score {n} point while you can",
            "Stop and score {n} points while you can",
            points,
        )
    words = code.split()
    if phase == "choose_flip":
        flipped = view["pending"]["card"]
        taken = {flipped, words[1]}
        targets = {words[1]}
    else:
        played = words[1]
        month = MONTH[played]
        on_board = [c for c in view["board"] if MONTH[c] == month]
        if len(words) == 3:
            taken = {played, words[2]}
        elif on_board:
            taken = {played, *on_board}
        else:
            taken = set()
        targets = taken - {played}
    made = _new_yaku(mine, mine | taken)
    if made:
        text = chain_and(
            [Text("{name} ({points})", context="hanafuda", name=n, points=p) for n, p in made]
        )
        return code, Text("Completes {yaku}", yaku=text)
    if taken:
        best = max(targets or taken, key=_card_worth)
        theirs = set(view["captures"][1 - me])
        if _new_yaku(theirs, theirs | taken):
            return code, Text(
                "Takes {card} before the opponent completes a yaku with it", card=_name(best)
            )
        return code, Text("Takes {card}, the most useful capture now", card=_name(best))
    return code, Text("No capture: lays {card}, the cheapest card to give up", card=_name(words[1]))


# ----- levels -------------------------------------------------------------------------------

#: The easy AI's beginner habits (it lost 64.7 % of matches to ``normal`` when a tenth of
#: its plays were normal's and it called Koi-Koi on up to 3 points only; so it loses
#: 72.4 % and still beats uniform random in 91.5 %, 1,000 deals each).
EASY_GREEDY = 0.2  # grabs the most valuable capture in sight (else the first match it sees)
EASY_KOIKOI = 1.0  # pushes its luck: Koi-Koi on a small yaku with cards left
EASY_SMALL = 6  # what a beginner calls a small yaku (points): Sanko and below


def _grab(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random, best: bool) -> str:
    """A beginner's play: a capture (the most valuable, or any), else the cheapest card."""
    takes = [c for c in legal if c.startswith("take ")]
    if takes:
        return max(takes, key=lambda c: _card_worth(c.split()[1])) if best else rng.choice(takes)
    by_month = _Position(view).board_by_month(view["board"])
    captures = [c for c in legal if len(c.split()) == 3 or MONTH[c.split()[1]] in by_month]
    if not captures:
        return min(legal, key=lambda c: (_card_worth(c.split()[1]), c))
    if not best:
        return rng.choice(captures)

    def worth(code: str) -> float:
        words = code.split()
        taken = [words[2]] if len(words) == 3 else by_month[MONTH[words[1]]]
        return _card_worth(words[1]) + sum(_card_worth(c) for c in taken)

    return max(captures, key=worth)


def choose_easy(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The easy AI: a beginner's mistakes, never nonsense. It looks at captures, never at
    the board it leaves: a fifth of its plays grab the most valuable capture in sight, the
    rest take whatever match it notices first (with nothing to take it lays its cheapest
    card); on a yaku of up to Sanko it always calls Koi-Koi while cards are left (bigger
    ones it weighs as ``normal`` does)."""
    if len(legal) == 1:
        return legal[0]
    if view.get("phase") == "decide" and {"koikoi", "stop"} <= set(legal):
        small = (view.get("pending") or {}).get("points", 0) <= EASY_SMALL
        if small and len(view["hand"] or []) >= 2 and rng.random() < EASY_KOIKOI:
            return "koikoi"
        return choose_one_ply(view, legal, rng)
    return _grab(view, legal, rng, best=rng.random() < EASY_GREEDY)
