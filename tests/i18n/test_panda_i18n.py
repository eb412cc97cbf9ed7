"""Panda in every language: what the game says (events, controls, refusals, labels, hints,
progress, the strings inside its views) is translated in every catalog, and its pictures in
ja, zh-CN, zh-TW and ko hold no English the catalogs translate and no character the
bundled font lacks.

Seeded random playouts (random legal moves, out-of-turn ones too, with the AI for two
seats so that hands are won and lost the usual way) are played to the match's end; every
string a player reads is walked down to the :class:`Text` objects it is made of.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import i18n
from bot.engine import IllegalAction
from bot.engine.ui import Button, Controls, Form, Option, Select
from bot.games import panda
from bot.games.panda.ai import hint
from bot.games.panda.cards import RANK_NAMES, SPECIAL_NAMES
from bot.games.panda.render import render_deal_summary, render_hand, render_table
from bot.games.panda.stacking import fill, stack
from bot.i18n.text import Text, localize
from bot.render.charts import has_glyph
from tests.i18n.drawn import drawn_text, english_leaks
from tests.i18n.texts import texts_in, translated

NAMES = ["Ann", "Bob", "Cid", "Dee"]
#: (seed, options, the first deal's hands after the passing or None: dealt by the seed).
MATCHES = (
    (1, {"target": 600}, None),
    (2, {"target": 500, "free_first_lead": True}, None),
    # Kingdoms and Ambushes in the first deal (stacked as in tests/games/panda).
    (3, {"target": 500}, ["stork", "5t 5g 5r 5a", "Br Gr Er Mr 3r", "Ba Ga Ea Ma"]),
    (4, {"target": 400, "kingdom_ends_hand": True}, ["stork 9t 9g 9r 9a", "", "Bt Gt Et Mt", ""]),
)
LOCALES = i18n.TRANSLATED

#: Words a player reads that are the same in every language: the deck's names (Latin
#: letters, docs/localisation.md) and the ranks' numbers.
DECK_WORDS = (
    frozenset(SPECIAL_NAMES.values())
    | frozenset(RANK_NAMES.values())
    | {str(n) for n in range(1, 11)}
)

#: Attempts that the rules refuse in most states, each with a reason to read.
ILLEGAL = (
    "",
    "pass",
    "call",
    "wish 7",
    "wish Q",
    "gift 1",
    "give left",
    "give up 5t",
    "give left 5t left 6t",
    "play",
    "play xx",
    "play catfish=Z",
    "play 2t 3g",
    "play 7t 7g 7r 7a",
    "play Bt Gt Et Mt",
    "play cat catfish",
    "dance",
)


def _shown(controls: Controls) -> list[Any]:
    """The strings of the controls a player reads."""
    out: list[Any] = [controls.prompt]
    for row in controls.rows:
        if isinstance(row, Form):  # its button, the modal's title and questions
            out += [row.label, row.title]
            for f in row.fields:
                out += [f.label, f.description]
                for option in f.options:
                    out += [option.label, option.description]
        elif isinstance(row, Select):
            out.append(row.placeholder)
            for option in row.options:
                assert isinstance(option, Option)
                out += [option.label, option.description]
        else:
            for button in row:
                assert isinstance(button, Button)
                out.append(button.label)
    return [s for s in out if s is not None]


class Seen:
    """The Texts met along the playouts, and the strings a player reads that are not."""

    def __init__(self) -> None:
        self.texts: dict[tuple[str, str | None, str | None], Text] = {}
        self.tops: list[Text] = []
        self.plain: set[str] = set()

    def read(self, value: Any, *, top: bool = True) -> None:
        """``value`` is shown to a player as it is: a Text, or one of the deck's words."""
        if isinstance(value, Text):
            if top and len(self.tops) < 4000:
                self.tops.append(value)
            for t in texts_in(value):
                self.texts.setdefault((t.msgid, t.plural, t.context), t)
        elif isinstance(value, str) and value not in DECK_WORDS:
            self.plain.add(value)

    def inside(self, value: Any) -> None:
        """Texts found anywhere inside ``value`` (a view, an event's data)."""
        for t in texts_in(value):
            self.texts.setdefault((t.msgid, t.plural, t.context), t)


def _playout(
    seed: int, options: dict[str, Any], seen: Seen, hands: list[str] | None = None
) -> list[Any]:
    """A whole match (its first deal stacked from ``hands`` after the passing, if given);
    returns the states worth drawing (start, mid-deal, deal ends, end)."""
    rng = random.Random(f"panda-i18n-{seed}")
    if hands is None:
        state = panda.new_game(seed, NAMES, options)
        pictures: list[Any] = [_frozen(state)]
    else:
        deck, codes = stack(fill(hands))
        state = panda.new_game(seed, NAMES, options, deck=deck)
        pictures = [_frozen(state)]
        for seat, code in enumerate(codes):
            for event in state.apply(seat, code):
                seen.read(event.text)
    described: set[str] = set()
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 5000, "the playout does not end"
        public = state.view(None)
        seen.read(panda.SPEC.progress(public))
        seen.inside(public["trick"])
        acting = list(dict.fromkeys(list(state.to_act) + list(state.may_act)))
        for seat in acting:
            view, legal = state.view(seat), state.legal_actions(seat)
            for s in _shown(panda.controls(view, legal)):
                seen.read(s)
            for code in set(legal) - described:
                seen.read(panda.describe(code))
            described.update(legal)
            code, reason = hint(view, legal)
            seen.read(reason)
        idle = [s for s in range(4) if s not in acting]
        if idle:
            view = state.view(idle[0])
            seen.read(panda.controls(view, []).prompt)
            seen.read(hint(view, [])[1])
        if steps % 5 == 0:
            for seat in {rng.randrange(4), *state.to_act}:
                for code in ILLEGAL + _attempts(state.view(seat)):
                    try:
                        state.check(seat, state.normalize(seat, code))
                    except IllegalAction as exc:
                        seen.read(exc.reason)
        seats = list(state.to_act)
        if state.may_act and rng.random() < 0.3:
            seats = list(state.may_act)
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        if seat == 0 and seat in state.to_act:
            code = panda.choose(state.view(seat), legal, rng) or rng.choice(legal)
        else:
            code = rng.choice(legal)
        events = state.apply(seat, code)
        for event in events:
            seen.read(event.text)
            seen.inside(event.data)
        kinds = {e.kind for e in events}
        if ("deal_end" in kinds and len(pictures) < 4) or (steps == 40 and state.phase == "play"):
            pictures.append(_frozen(state))
    seen.read(panda.controls(state.view(0), []).prompt)
    seen.inside(state.view(None)["history"])
    pictures.append(_frozen(state))
    return pictures


def _attempts(view: dict[str, Any]) -> tuple[str, ...]:
    """Moves made of the seat's own cards, most of them refused now."""
    hand = [c for c in view["hand"] if c not in SPECIAL_NAMES] or ["2t", "3t"]
    h = (hand * 5)[:5]
    return (
        f"play {h[0]}",
        f"play {h[0]} {h[1]}",
        f"play {' '.join(h)}",
        f"play {h[0]} {h[0]}",
        "play catfish catfish=5",
        "play catfish=Z 5t",
        f"play {h[0]} catfish=M",
        "play cat",
        "play panda",
        "play catfish",
        "play stork",
        f"give left {h[0]}",
        f"give partner {h[1]}",
        f"give right {h[2]}",
        f"give left {h[0]} partner {h[0]}",
        f"give left {h[0]} right {h[1]}",
        f"give partner {h[0]} partner {h[1]}",
        "give left 5t partner 6t right 7t",
        "gift 0",
        "wish none",
    )


def _frozen(state: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The public view and each seat's view, as they are now."""
    return state.view(None), [state.view(s) for s in range(4)]


@pytest.fixture(scope="module")
def playouts() -> tuple[Seen, list[Any]]:
    seen = Seen()
    pictures: list[Any] = []
    for seed, options, hands in MATCHES:
        pictures += _playout(seed, options, seen, hands)
    return seen, pictures


def test_every_string_a_player_reads_is_a_text(playouts: tuple[Seen, list[Any]]) -> None:
    seen, _ = playouts
    # Codes (card lists) and names are the only plain strings a player reads.
    assert seen.plain <= {""}, sorted(seen.plain)[:20]
    assert len(seen.texts) > 120, "the playouts met too few messages"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_met_is_translated(playouts: tuple[Seen, list[Any]], locale: str) -> None:
    seen, _ = playouts
    missing = sorted({t.msgid for t in seen.texts.values() if not translated(locale, t)})
    assert missing == []
    for text in seen.tops:
        said = localize(locale, text)
        assert isinstance(said, str) and said.strip(), (locale, text.msgid)
        assert localize("en-US", text) == str(text)


def test_the_playouts_meet_the_main_messages(playouts: tuple[Seen, list[Any]]) -> None:
    seen, _ = playouts
    ids = {key[0] for key in seen.texts}
    for msgid in (
        "{name} plays {combo}.",
        "{name} passes.",
        "{name} wins the trick; {leader} leads.",
        "Hand {deal}: {a} {a_points:+d}, {b} {b_points:+d} ({detail}). Match: {a_total} – {b_total}.",
        "{names} win the match {score} – {other}.",
        "Card for {name}",
        "Your partner",
        "Your turn: beat {combo} by {name} with the same kind and number of cards, or pass.",
        "You played the Stork: wish for a rank? Whoever can play it on their turn must.",
        "{name} calls Panda!",
        "Give {cards}",
        "{combo}: {cards}",
        "hand {deal}",
    ):
        assert msgid in ids, msgid


# ----- the pictures -----------------------------------------------------------------------


_DRAWN: dict[str, list[str]] = {}


def _drawn(pictures: list[Any], locale: str) -> list[str]:
    """Every string drawn on the pictures of the playouts in ``locale`` (drawn once)."""
    if locale not in _DRAWN:
        with drawn_text() as drawn:
            for public, seats in pictures:
                render_table(public, locale)
                render_table(seats[0], locale)
                for view in seats:
                    render_hand(view, locale)
                render_deal_summary(public, locale)
        _DRAWN[locale] = drawn
    return _DRAWN[locale]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_pictures_hold_no_english_the_catalog_translates(
    playouts: tuple[Seen, list[Any]], locale: str
) -> None:
    _, pictures = playouts
    assert len(pictures) >= 10
    drawn = _drawn(pictures, locale)
    assert len(drawn) > 100
    assert english_leaks(drawn, locale) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_font_draws_every_character_of_the_pictures(
    playouts: tuple[Seen, list[Any]], locale: str
) -> None:
    _, pictures = playouts
    chars = set("".join(_drawn(pictures, locale)))
    missing = sorted(ch for ch in chars if not (has_glyph(ch) and has_glyph(ch, True)))
    assert missing == [], f"the font lacks {''.join(missing)!r}: run scripts/subset_font.py"


def test_english_pictures_say_the_same_as_before() -> None:
    """The English table and summary of a finished hand still speak English."""
    state = panda.new_game(4, NAMES, {"target": 200})
    rng = random.Random(4)
    while not state.history:
        seat = state.to_act[0]
        state.apply(seat, panda.choose(state.view(seat), state.legal_actions(seat), rng))
    with drawn_text() as drawn:
        render_table(state.view(None))
        render_deal_summary(state.view(None))
    assert any(s.startswith("Panda · hand ") for s in drawn)
    assert any(s.startswith("Hand 1 — score") for s in drawn)
