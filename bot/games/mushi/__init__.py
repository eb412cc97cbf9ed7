"""Mushi: the two-player hanafuda fishing game of Kansai (rules: ``docs/rules/mushi.md``).

40 cards (the hanafuda deck without Peony and Bush clover), 230 card points in all; the
Willow junk card ``11p1`` is the wild card. A hand scores ``(card points − 115)`` plus the
combinations made minus those of the opponent, so the two scores always sum to zero.

Action grammar (card codes as in :mod:`bot.games.hanafuda.cards`):

- ``play <card>`` — play a hand card that takes 0, 1 or 3 table cards (none: it stays on the
  table; one: it takes it; three of its month: it takes all three), or the wild with
  exactly one legal target (or none: it stays and the next flip must take it).
- ``play <card> <target>`` — play a hand card that has a choice: a card matching two table
  cards, or the wild with several legal targets (never a rain card nor a month with three
  cards on the table; the wild on the table cannot be taken from a hand).
- ``take <target>`` — after a play the top stock card is flipped automatically; when it
  has a choice (two matches, the flipped wild's targets, or the bottom wild's rain cards
  with the ``bottom_wild_takes_rain`` option) the same player chooses.
- ``cancel`` — on a player's first turn, before they play a card (option
  ``four_of_a_kind_cancel``), a player dealt four cards of one month (the wild counts as a
  Willow) may show them and cancel the deal; playing a card keeps it. Nobody else is told
  of a four unless it is shown.

Everything else happens inside ``apply``: table redeals (four of a month or the three rain
cards on the table; the same elder deals again), the flip that must take the wild, the
younger keeping the bottom wild, the end-of-hand leftovers (rule 8), scoring and the next
deal. The first elder is drawn from the seed; deals shuffle with
``make_rng(seed, "deal", n)`` (``n`` = number of deals so far, redeals included).

A stacked ``deck`` (the 40 codes, top first; a list or a string such as ``"1b 1r ..."``)
makes **seat 0 the first elder** and is dealt as: cards 0-7 to the elder's hand, 8-15 to
the younger's hand, 16-23 face up to the table (in that order), 24-39 the stock, top first
(card 24 is the first card flipped). ``deck`` may also be a list of such decks, used one
per deal in order (redeals included, dealt to whoever is elder then); when they run out,
deals come from the seed again.
"""

from __future__ import annotations

from bot.engine.core import replayer
from bot.engine.spec import GameSpec
from bot.games.hanafuda.cards import answer_key
from bot.games.mushi.ai import choose, choose_easy, hint
from bot.games.mushi.rules import (
    COMBINATIONS,
    DECK,
    RAIN_CARDS,
    WILD,
    Combination,
    MushiOptions,
    MushiState,
    card_label,
    card_points,
    describe,
    new_game,
    progress,
    score_hand,
)
from bot.games.mushi.strong import choose_strong
from bot.games.mushi.ui import controls
from bot.games.mushi.views import MushiView
from bot.i18n import Text

NAME = "mushi"
TITLE = Text("Mushi")
SEATS = 2
OPTIONS = MushiOptions


replay = replayer(new_game)

#: The levels beside ``normal`` (``choose``): the strong one searches the hand's end
#: exactly over its view (:mod:`bot.games.mushi.strong`).
LEVELS = {"easy": choose_easy, "strong": choose_strong}

SPEC: GameSpec[MushiView] = GameSpec(
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
    progress=progress,
    card_name=card_label,
    # Two plains of a month are the same card to every rule: taking either is one answer.
    answer_key=answer_key,
    said_by={"take": frozenset({"flip"})},  # the flipped card's choice
    long_options={"hands": 12},
)

__all__ = [
    "COMBINATIONS",
    "DECK",
    "NAME",
    "OPTIONS",
    "RAIN_CARDS",
    "SEATS",
    "TITLE",
    "WILD",
    "Combination",
    "MushiOptions",
    "MushiState",
    "card_points",
    "choose",
    "controls",
    "describe",
    "new_game",
    "replay",
    "score_hand",
]
