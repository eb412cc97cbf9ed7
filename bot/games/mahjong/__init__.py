"""Mah-Jongg, Israeli rules (144 cards), for four players (rules: ``docs/rules/mahjong.md``).

Cards: ``1b``..``9b`` bamboo, ``1c``..``9c`` characters, ``1d``..``9d`` dots, winds
``E S W N``, dragons ``C`` red, ``F`` green, ``P`` white, flowers ``f1``..``f4``, seasons
``s1``..``s4``. Extras are laid out automatically with a replacement from the kong box.

Action grammar (verb first; ``legal_actions`` lists exactly what is allowed now):

- Before play (``phase == "prelude"``), all four players answer at once, holding four
  of a card or not: ``kong <card>`` (declare a concealed kong, draw a replacement) or
  ``pass`` (the only answer without a four, given by the host when the question closes),
  so nothing public shows who holds four. When
  all have answered the kongs are carried out in turn order from the round player, and
  whoever declared one is asked again. The public view's ``prelude`` shows ``asked`` and
  ``waiting``; a seat's own view adds ``my_options`` and ``my_answer``.
- On one's turn (``phase == "discard"``), holding 14 cards:
  ``discard <card>``; ``kong <card>`` (concealed kong of four in hand); ``extend <card>``
  (add the card to one's own melded pung: a melded kong); both draw a replacement;
  ``mahjong`` (Mah-Jongg by wall, or the round player's original hand before the first
  discard); ``declare <card>`` — announce a standing hand calling ``<card>``; the next
  action is the discard that leaves the hand one card from Mah-Jongg with exactly that
  card (the hand is then shown and locked: later draws that are not the named card are
  discarded automatically; drawing it, the only action is ``mahjong``).
- In a claim window (``phase == "claim"``; every discard outside the one more turn opens
  one for all three other players at once, whether they can claim or not — then ``pass``
  is their only action — so nothing public shows who holds a matching card; it resolves
  when all three have answered — the host asks only those who can claim and answers
  ``pass`` for the others when the window's time is up, or as soon as a claim is in that
  they could not beat: ``moot_answers``): ``mahjong``,
  ``kong``, ``pung``, ``chow <c1> <c2> <c3>`` (the three cards in order, the discard
  among them; only from the previous player), ``pass``. The public view's ``claim`` shows
  the card, the discarder, ``asked`` (the three) and ``waiting`` (who has not answered
  yet); a seat's own view adds ``my_options`` and ``my_answer``. Priority:
  Mah-Jongg > kong > pung > chow, ties to the player nearest the discarder; between
  Mah-Jongg claims special hand > completing a pung > a chow > the pair.
- The one more turn after a Mah-Jongg (``phase == "last_turns"``): ``discard <card>``,
  ``kong <card>``, ``extend <card>`` (no claims, no Mah-Jongg).

A hand is dealt from a deck (top first): the round player gets cards 0-13, the next
players in turn order 14-26, 27-39, 40-52; cards 53.. are the live wall in draw order and
the last 14 cards the kong box (replacements taken from its first card on; top-ups come
from the far end of the live wall). A stacked ``deck`` (codes, a list or a string) may be
shorter than 144 cards: the remaining cards follow in a seeded order. ``deck`` may also be
a list of decks, one per hand; later hands use ``make_rng(seed, "deal", n)``. Seat winds
are drawn with ``make_rng(seed, "seats")`` unless option ``random_seats`` is off (then
player i starts in wind i: 0 East, 1 South, 2 West, 3 North).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.core import replayer
from bot.engine.spec import GameSpec
from bot.games.mahjong.ai import LEVELS, choose, hint
from bot.games.mahjong.rules import TITLE_TEXT, MahjongOptions, MahjongState, describe, new_game
from bot.games.mahjong.tiles import code_name
from bot.games.mahjong.ui import controls
from bot.games.mahjong.views import MahjongView
from bot.i18n.text import Text

NAME = "mahjong"
TITLE = TITLE_TEXT  # "Mah-Jongg", said as the catalogs name the game (teahouse.po)
SEATS = 4
OPTIONS = MahjongOptions


replay = replayer(new_game)


def progress(view: Mapping[str, Any]) -> str:
    """The status line's progress: ``hand 3`` (a Text, said in the table's language)."""
    deal = view.get("deal")
    return Text("hand {n}", n=deal) if deal else ""


SPEC: GameSpec[MahjongView] = GameSpec(
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
    summary_shows_hands=True,
    card_name=code_name,
    option_bounds={"max_hands": (0, 200)},
    # Claim windows and the before-play kong question: everyone answers, most only pass.
    answer_phases=frozenset({"claim", "prelude"}),
    match_end_kind="game_end",
    said_by={verb: frozenset({"claim"}) for verb in ("chow", "pung", "kong")},
    long_options={"max_hands": 0},
)

__all__ = [
    "NAME",
    "SPEC",
    "OPTIONS",
    "SEATS",
    "TITLE",
    "MahjongOptions",
    "MahjongState",
    "choose",
    "controls",
    "describe",
    "new_game",
    "replay",
]
