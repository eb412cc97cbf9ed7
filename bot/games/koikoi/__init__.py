"""Koi-Koi: the two-player hanafuda matching game (rules: ``docs/rules/koikoi.md``).

Action grammar (card codes as in :mod:`bot.games.hanafuda.cards`):

- ``play <card>`` — play a hand card that matches 0, 1 or 3 board cards (no match: it
  stays on the board; one: it takes that card; three: it takes all four, compulsory).
- ``play <card> <target>`` — play a hand card that matches exactly two board cards and say
  which one it takes (``play <card>`` alone is then illegal).
- ``take <target>`` — after a play, the top card of the stack is flipped automatically; if
  it matches exactly two board cards, the same player chooses what it takes.
- ``koikoi`` / ``stop`` — when the player's yaku total went up this turn: play on, or end
  the round and score that total. On a player's last card there is no choice: they stop.

Everything else happens inside ``apply``: void deals (four of a month or four pairs on the
board, or both hands with an instant win) are redealt by the Second; teshi/kuttsuki win
6 points at once; the Second's last card without a new yaku makes a draw; the next round is
dealt at once. The first dealer is drawn from ``make_rng(seed, "first_dealer")``; deal
number ``n`` (1-based, void deals included) is shuffled with ``make_rng(seed, "deal", n)``.

A stacked ``deck`` (48 codes, top first; a list or a string such as ``"1b 1r 1p1 ..."``)
makes **seat 0 the first dealer** and is dealt as: cards 0-7 to the dealer's hand (seat 0),
8-15 to the Second's hand (seat 1), 16-23 face up to the board (in that order), 24-47 the
stack, top first (card 24 is the first card flipped). ``deck`` may also be a list of such
decks, used one per deal in order (void deals included); when they run out, deals come
from the seed again.
"""

from __future__ import annotations

from bot.engine.core import replayer
from bot.engine.spec import GameSpec
from bot.games.hanafuda.cards import answer_key
from bot.games.hanafuda.deal import card_label
from bot.games.koikoi.ai import choose, choose_easy, hint
from bot.games.koikoi.rules import (
    YAKU,
    KoiKoiOptions,
    KoiKoiState,
    describe,
    new_game,
    progress,
    score_yaku,
)
from bot.games.koikoi.strong import choose_strong
from bot.games.koikoi.ui import controls
from bot.games.koikoi.views import KoiKoiView
from bot.i18n import Text

NAME = "koikoi"
TITLE = Text("Koi-Koi")
SEATS = 2
OPTIONS = KoiKoiOptions


replay = replayer(new_game)

#: The levels beside ``normal`` (``choose``): the strong one searches as normal does, with
#: better playouts (:mod:`bot.games.koikoi.strong`).
LEVELS = {"easy": choose_easy, "strong": choose_strong}

SPEC: GameSpec[KoiKoiView] = GameSpec(
    name=NAME,
    title=TITLE,
    seats=SEATS,
    options=OPTIONS,
    new_game=new_game,
    replay=replay,
    choose=choose,
    levels=LEVELS,
    # Normal searches too (its one-ply judgement overruled by playouts): off the loop.
    searching_levels=frozenset({"normal", "strong"}),
    controls=controls,
    describe=describe,
    hint=hint,
    progress=progress,
    card_name=card_label,
    # Two plains of a month are the same card to every rule: taking either is one answer.
    answer_key=answer_key,
    # A match is rounds (the view's ``round``; its ``deal`` counts void deals too).
    deal_key="round",
    deal_word="round",
    said_by={"take": frozenset({"flip"})},  # the flipped card's choice
    long_options={"rounds": 12},
)

__all__ = [
    "NAME",
    "SPEC",
    "OPTIONS",
    "SEATS",
    "TITLE",
    "YAKU",
    "KoiKoiOptions",
    "KoiKoiState",
    "choose",
    "controls",
    "describe",
    "new_game",
    "replay",
    "score_yaku",
]
