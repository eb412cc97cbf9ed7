"""Panda: the 60-card Tichu-family climbing game, two teams of two (``docs/rules/panda.md``).

Seats 0+2 and 1+3 are partners; play goes to the left (0 → 1 → 2 → 3). Cards are written
``<rank><suit>`` with ranks ``1 2 … 10 B G E M`` and suits ``t g r a``, or ``stork cat
catfish panda`` (see :mod:`bot.games.panda.cards`). A match is played to ``target`` (1000).

Action grammar (``legal_actions`` lists them; ``apply`` also takes the shorthands noted):

- ``call`` — call Panda (±100): any time before one's first card, also during the passing
  and out of turn (the seat is then in ``may_act``).
- Passing (all four seats decide at once, in secret): ``give <recipient> <card>`` with
  recipient ``left`` (the next player, an opponent who plays after you), ``partner`` or
  ``right`` (the opponent who plays before you) — one code per recipient in any order, or
  several pairs in one code (``give left 2t partner Mg right 3a``, the canonical form
  ``normalize`` writes; ``pass_cards <to_left> <to_partner> <to_right>`` is accepted as a
  shorthand and logged that way). ``legal_actions`` lists the single-pair codes. The cards
  change hands when all four have chosen.
- ``play <card> <card> …`` — a combination; the cards are sorted canonically by
  ``normalize``. When the Catfish could be read two ways (``5t 5g 6t 6g catfish``: a full
  house of 5s or 6s; a straight with the Catfish at either end) the code states its
  reading as ``catfish=<rank>`` (``play 5t 5g 6t 6g catfish=5``); unstated, the higher
  reading is meant (rule 13); ``catfish=low`` / ``catfish=high`` are accepted too. An
  Ambush or a Kingdom may be played out of turn (``may_act``) on any combination on the
  table, until the trick is taken. ``play cat`` leads the Cat.
- ``pass`` — on one's turn, when not leading and not forced by the wish.
- ``wish <rank>`` / ``wish none`` — right after playing the Stork (option ``wish``).
- ``gift <seat>`` — when one's Panda wins a trick: the opponent who gets the trick.

A trick that everyone passed on stays on the table until its next leader leads (or the
Panda's owner gives it away): Ambushes may still be laid on it until then. When several
seats act at the same moment, :meth:`PandaState.apply_simultaneous` applies them in the
priority order of rule 11.

Dealing: the first deal may be stacked with ``deck`` (60 codes, top first, or a string):
seat ``s`` receives cards ``15*s`` to ``15*s + 14``. ``deck`` may also be a list of decks,
one per deal; later deals are shuffled with ``make_rng(seed, "deal", n)``.

AI note: :func:`choose` returns ``""`` (do nothing now) when the seat only has optional
out-of-turn actions (it is in ``may_act``, not ``to_act``) and prefers to wait.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.core import replayer
from bot.engine.spec import GameSpec
from bot.games.panda.ai import choose, choose_easy, hint
from bot.games.panda.cards import card_name
from bot.games.panda.combos import Combo, beats, classify, readings
from bot.games.panda.rules import PandaOptions, PandaState, describe, new_game
from bot.games.panda.strong import choose_strong
from bot.games.panda.ui import controls
from bot.games.panda.views import PandaView
from bot.i18n.text import Text

NAME = "panda"
TITLE = "Panda"
SEATS = 4
TEAMS = PandaState.teams  # partners sit opposite
OPTIONS = PandaOptions


replay = replayer(new_game)


def progress(view: Mapping[str, Any]) -> str:
    """The status line's progress: ``hand 3`` (a match runs until a team reaches the
    target, so there is no number of hands)."""
    return Text("hand {deal}", context="panda", deal=view["deal"]) if view.get("deal") else ""


#: The levels beside ``normal`` (``choose``): the strong one searches the decisions that
#: matter over its view (:mod:`bot.games.panda.strong`).
LEVELS = {"easy": choose_easy, "strong": choose_strong}

SPEC: GameSpec[PandaView] = GameSpec(
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
    teams=TEAMS,
    option_bounds={"target": (100, 10000)},
    progress=progress,
    card_name=card_name,
    long_options={"target": 10000},
)

__all__ = [
    "NAME",
    "SPEC",
    "OPTIONS",
    "SEATS",
    "TITLE",
    "Combo",
    "PandaOptions",
    "PandaState",
    "beats",
    "choose",
    "classify",
    "controls",
    "describe",
    "new_game",
    "readings",
    "replay",
]
