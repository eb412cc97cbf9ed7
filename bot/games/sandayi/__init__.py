"""San Da Yi (三打一, "three beat one"): a 4-player, 54-card point-trick game.

Each hand one player wins the bidding and becomes the declarer, who plays alone against
the three defenders; the match is a set number of hands with individual running totals.
Rules: ``docs/rules/sandayi.md``.

Cards (docs/architecture.md): rank ``2 … 10 J Q K A`` + suit ``S H D C`` (``10H``, ``QS``); jokers
``BJ`` (big) and ``SJ`` (small).

Action grammar (verb first, space-separated):

- ``bid 60`` | ``bid 65`` | ``bid 70`` | ``bid 75`` | ``bid 80`` — bid (once per hand);
- ``pass`` — pass in the bidding;
- ``bury c1 …`` — the declarer buries 6 of its 18 cards, one card per code or several
  at once (``bury 10H`` … or ``bury c1 c2 c3 c4 c5 c6``; any order, normalised to the
  canonical deck order); the phase ends when 6 are buried. ``legal_actions`` lists one
  code per card in hand (at most 18), never the 18,564 six-card sets; ``apply`` checks a
  several-card bury as a set (cards in hand, none twice, no more than still to bury).
  A timeout buries all the cards still to bury in one action, as does the AI;
- ``trump S`` | ``trump H`` | ``trump D`` | ``trump C`` — the declarer names trump;
- ``play QS`` — play one card to the trick.

Dealing: a deck (top first) deals its first 48 cards one at a time to seats 0, 1, 2, 3,
0, … (card ``i`` goes to seat ``i % 4``); the last 6 are the kitty. ``deck`` stacks the
first deal; a list of decks stacks the first deals in turn (redeals included). Later deals
are shuffled by ``make_rng(seed, "deal", n)`` where ``n`` counts deals from 0, redeals
included.

Options: ``hands`` (1..40, default 8) and ``fixed_minimums`` (default false: rule 5's
"if they pass" reading of the bidding minimums).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import parse_options, replayer
from bot.engine.spec import GameSpec
from bot.engine.ui import Controls
from bot.games.sandayi.ai import choose as _ai_choose
from bot.games.sandayi.ai import choose_easy, hint
from bot.games.sandayi.cards import label
from bot.games.sandayi.rules import Options, SanDaYiState, describe
from bot.games.sandayi.strong import choose_strong
from bot.games.sandayi.ui import controls as _controls
from bot.games.sandayi.views import SanDaYiView
from bot.i18n.text import Text

NAME = "sandayi"
TITLE = Text("San Da Yi")  # the catalogs name every game (teahouse.po)
SEATS = 4
OPTIONS = Options

__all__ = [
    "NAME",
    "SPEC",
    "OPTIONS",
    "SEATS",
    "TITLE",
    "Options",
    "SanDaYiState",
    "choose",
    "controls",
    "describe",
    "new_game",
    "replay",
]


def _decks(deck: Sequence[str] | Sequence[Sequence[str]] | None) -> list[list[str]]:
    if not deck:
        return []
    if isinstance(deck[0], str):
        return [[str(card) for card in deck]]  # (one deck: a sequence of str)
    return [list(d) for d in deck]


def new_game(
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | Options | None = None,
    deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
) -> SanDaYiState:
    """A new match. ``deck`` (top first) stacks the first deal, or a list of decks the
    first deals in turn."""
    opts = options if isinstance(options, Options) else parse_options(Options, options)
    return SanDaYiState(seed, players, opts, _decks(deck))


replay = replayer(new_game)


def choose(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """The AI's action for the seat whose view this is."""
    return _ai_choose(view, legal, rng)


def controls(view: SanDaYiView, legal: Sequence[str]) -> Controls:
    """The Discord controls for the seat's pending decision."""
    return _controls(view, legal)


def progress(view: Mapping[str, Any]) -> str:
    """The status line's progress, ``hand 2/8``, in the reader's language."""
    deal, deals = view.get("deal"), view.get("deals")
    if not deal:
        return ""
    if deals:
        return Text("hand {deal}/{deals}", deal=deal, deals=deals)
    return Text("hand {deal}", deal=deal)


#: The levels beside ``normal`` (``choose``): the strong one searches over its view
#: (:mod:`bot.games.sandayi.strong`).
LEVELS = {"easy": choose_easy, "strong": choose_strong}

SPEC: GameSpec[SanDaYiView] = GameSpec(
    name=NAME,
    title=TITLE,
    seats=SEATS,
    options=OPTIONS,
    new_game=new_game,
    replay=replay,
    choose=choose,
    levels=LEVELS,
    controls=controls,
    describe=describe,
    hint=hint,
    option_bounds={"hands": (1, 40)},
    progress=progress,
    card_name=label,
    # Each hand is the declarer against three (``Result.rating_games``).
    rated_per_hand=True,
    said_by={"pass": frozenset({"bid"})},  # a pass in the bidding
    long_options={"hands": 40},
)
