"""Mah-Jongg in every language: every word the game produces is a Text the four catalogs
translate, and its pictures hold no English a catalog translates, nor a character the
bundled font lacks.

(a) Seeded playouts to the match's end (random legal moves and AI seats, the strict option
for penalties and void hands) collect every Text met: events, prompts, button labels,
select placeholders and options, ``describe`` of every legal code, hint reasons, progress,
the reasons of illegal attempts and the view's words (score sheets, penalties, the title).
(b) The table, every seat's hand and the deal summary at the start, mid-deal, a deal's end
and the match's end, drawn in ja, zh-CN, zh-TW and ko.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from copy import copy as copy_text
from functools import cache
from typing import Any

import pytest

from bot import i18n
from bot.engine.core import IllegalAction
from bot.games.mahjong import SPEC, choose, controls, describe, new_game
from bot.games.mahjong.ai import hint
from bot.games.mahjong.render import render_deal_summary, render_hand, render_table
from bot.games.mahjong.rules import CHOWS, DECLARE, DISCARD, EXTEND, KONG, VERB_LABELS
from bot.games.mahjong.scoring import (
    COMPOSITIONS,
    GROUP_LINE_NAMES,
    MULTIPLIERS,
    WINNER_ITEMS,
    SeasonOrFlower,
)
from bot.games.mahjong.specials import BONUS_HANDS, SPECIAL_HANDS
from bot.games.mahjong.tiles import NAMES, SUIT_NAMES, WIND_NAMES
from bot.i18n.text import Text, localize
from bot.render.charts import has_glyph
from tests.i18n.drawn import drawn_text, english_leaks
from tests.i18n.texts import texts_in, translated

LOCALES = i18n.TRANSLATED
#: Names no catalog message matches (the leak check looks for English words in what is shown).
PLAYERS = ["Aiko", "Bora", "Chen", "Dalia"]
#: Moves tried where they are not legal (each must be refused with a translated reason).
ATTEMPTS = (
    "pung",
    "kong",
    "chow 1b 2b 3b",
    "mahjong",
    "pass",
    "discard 5d",
    "discard f1",
    "kong 5d",
    "extend 5d",
    "declare 5d",
    "nonsense",
)
#: (seed, options, AI seats): every playout runs to the end of its match.
PLAYOUTS = (
    (3, {}, frozenset({0, 1, 2, 3})),  # a whole regular game
    (8, {"max_hands": 4, "strict": True}, frozenset({0, 1, 2})),
    (21, {"max_hands": 4, "strict": True, "settlement": "classical"}, frozenset({0, 1, 3})),
    (34, {"max_hands": 4, "last_card": "only_wait"}, frozenset({1, 3})),
    (55, {"game": "extended", "max_hands": 6, "random_seats": False}, frozenset({0, 1, 2, 3})),
)


#: Fields holding action codes or card codes (``pass``, ``chow 3c 4c 5c``, ``5d``): notation,
#: the same in every language (like the ``kong <card>`` syntax), not words to translate.
CODE_FIELDS = frozenset({"code", "codes", "legal", "cards", "shown"})
CODE_SPAN = re.compile(r"`[^`]*`")


def without_codes(text: Text) -> Text:
    """``text`` with its code fields left out, for the check for English words."""
    copy = copy_text(text)
    copy.fields = {k: "" if k in CODE_FIELDS else v for k, v in text.fields.items()}
    return copy


class Seen:
    """The Texts a playout met: each checked once per message (and each shown line once)."""

    def __init__(self) -> None:
        self.messages: dict[tuple[str, str | None], Text] = {}
        self.shown: list[Text] = []

    def add(self, value: Any, *, shown: bool = False) -> None:
        for text in texts_in(value):
            self.messages.setdefault((text.msgid, text.context), text)
        if shown and isinstance(value, Text):
            self.shown.append(value)

    def must_be_text(self, what: str, value: Any) -> None:
        assert isinstance(value, Text), f"{what} is not a Text: {value!r}"
        self.add(value, shown=True)


def _ui_words(ctrl: Any) -> Iterator[tuple[str, Any]]:
    yield "prompt", ctrl.prompt
    for row in ctrl.rows:
        if isinstance(row, tuple):
            for button in row:
                yield "button label", button.label
        else:
            yield "select placeholder", row.placeholder
            for option in row.options:
                yield "option label", option.label
                if option.description is not None:
                    yield "option description", option.description


def _look(g: Any, seen: Seen) -> None:
    """Everything a person can be shown of this state, for every seat."""
    public = g.view(None)
    seen.must_be_text("progress", SPEC.progress(public))
    for seat in range(4):
        view = g.view(seat)
        legal = g.legal_actions(seat)
        for what, word in _ui_words(controls(view, legal)):
            seen.must_be_text(what, word)
        for code in legal:
            seen.must_be_text(f"describe({code!r})", describe(code))
        if legal:
            _, reason = hint(view, legal)
            seen.must_be_text("hint reason", reason)
            for code in ATTEMPTS:
                if code in legal:
                    continue
                with pytest.raises(IllegalAction) as refused:
                    g.apply(seat, code)
                seen.must_be_text(f"the refusal of {code!r}", refused.value.reason)
        else:
            # (the engine refuses a seat not asked before asking the game: its words)
            with pytest.raises(IllegalAction) as refused:
                g.check(seat, "pass")
            seen.must_be_text("the refusal of a seat not asked", refused.value.reason)
            with pytest.raises(IllegalAction) as refused:
                g.default_action(seat)
            seen.must_be_text("default_action's refusal", refused.value.reason)


@cache
def playout(seed: int, options: tuple[tuple[str, Any], ...], ai: frozenset[int]) -> Seen:
    """One seeded match to its end, looking at everything every few moves."""
    rng = random.Random(seed)
    g = new_game(seed, PLAYERS, dict(options))
    seen = Seen()
    for event in g.events:
        seen.must_be_text("an event's text", event.text)
    seen.add(g.view(None))
    hands, step = 0, 0
    while not g.is_over:
        if step % 5 == 0 or g.phase == "prelude":
            _look(g, seen)
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        code = choose(g.view(seat), legal, rng) if seat in ai else rng.choice(legal)
        for event in g.apply(seat, code):
            seen.must_be_text(f"the text of a {event.kind} event", event.text)
        if len(g.history) != hands:
            hands = len(g.history)
            seen.add(g.view(None))  # the score sheets, penalties and void reasons
        step += 1
    _look(g, seen)
    seen.add(g.view(None))
    return seen


def _playout(index: int) -> Seen:
    seed, options, ai = PLAYOUTS[index]
    return playout(seed, tuple(sorted(options.items())), ai)


@pytest.mark.parametrize("index", range(len(PLAYOUTS)))
def test_every_text_of_a_playout_is_translated_in_every_locale(index: int) -> None:
    seen = _playout(index)
    assert len(seen.messages) > 40
    # the match was played to its end
    assert "The game is over. {names} wins with {points} point." in {t.msgid for t in seen.shown}
    for locale in LOCALES:
        missing = sorted(repr(t.msgid) for t in seen.messages.values() if not translated(locale, t))
        assert missing == [], f"{locale}: {missing}"
        for text in seen.messages.values():
            said = localize(locale, text)
            assert isinstance(said, str) and said.strip()
        # what a person reads, as a whole: no English the catalogs translate is left in it
        # (code spans, `kong <card>`, are notation too)
        lines = sorted({CODE_SPAN.sub("", localize(locale, without_codes(t))) for t in seen.shown})
        assert english_leaks(lines, locale) == []


def test_the_playouts_meet_the_game_s_many_words() -> None:
    """The playouts reach deal ends, penalties, void hands, standing hands and claims (so
    the test above checks more than the first turns)."""
    kinds: set[str] = set()
    for index in range(len(PLAYOUTS)):
        kinds |= {t.msgid for t in _playout(index).shown}
    for needed in (
        "Hand {n} won by {name}. Hand totals: {lines}.",
        "{name} loses {points} points: {reason}.",
        "{name} discarded {card}. Claim it?",
        "The game is over. {names} wins with {points} point.",
        "Discard {card}: keeps you {away}",
    ):
        assert needed in kinds, needed


def test_every_name_the_game_can_show_is_translated() -> None:
    """Cards, suits, winds, special hands, score items and multipliers, and the label of
    every action code, whether or not a playout met them."""
    names: list[Any] = [*NAMES, *SUIT_NAMES, *WIND_NAMES, SeasonOrFlower.name]
    names += [h.name for h in (*SPECIAL_HANDS, *BONUS_HANDS)]
    names += [i.name for i in (*WINNER_ITEMS, *MULTIPLIERS, *COMPOSITIONS)]
    names += [line for pair in GROUP_LINE_NAMES.values() for line in pair]
    codes = [*DISCARD, *KONG, *EXTEND, *DECLARE, *VERB_LABELS]
    codes += [code for row in CHOWS for code, _, _ in row]
    names += [describe(code) for code in codes]
    seen = Seen()
    for name in names:
        seen.must_be_text("a name", name)
    for locale in LOCALES:
        missing = sorted(repr(t.msgid) for t in seen.messages.values() if not translated(locale, t))
        assert missing == [], f"{locale}: {missing}"
        said = [localize(locale, n) for n in names]
        assert english_leaks(said, locale) == []
        # no two cards, nor two lines of a score sheet, read the same
        for group in (NAMES, [h.name for h in (*SPECIAL_HANDS, *BONUS_HANDS)], names[42:]):
            words = [localize(locale, n) for n in group]
            assert len(set(words)) == len(set(group)), (locale, sorted(words))


# ----- (b) the pictures ----------------------------------------------------------------------
def _states() -> dict[str, Any]:
    """Start, just after the first deal's end, a busy moment of the second deal (melds,
    long discard rows, a claim window), the match's end."""
    rng = random.Random(5)
    g = new_game(5, PLAYERS, {"max_hands": 3})
    out = {"start": g.clone()}
    while not g.is_over:
        seat = g.to_act[0]
        busy = sum(map(len, g.river)) >= 24 and any(g.melds) and g.phase == "claim"
        if "mid-deal" not in out and len(g.history) == 1 and busy:
            out["mid-deal"] = g.clone()
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
        if g.history and "deal end" not in out:
            out["deal end"] = g.clone()
    out["match end"] = g
    assert list(out) == ["start", "deal end", "mid-deal", "match end"]
    return out


STATES = _states()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("moment", list(STATES))
def test_pictures_hold_no_english_and_only_characters_the_font_draws(
    moment: str, locale: str
) -> None:
    g = STATES[moment]
    public = g.view(None)
    with drawn_text() as drawn:
        render_table(public, locale=locale)
        for seat in range(4):
            render_hand(g.view(seat), locale=locale)
        render_hand(public, locale=locale)  # a spectator's
        summary = render_deal_summary(public, locale=locale)
    assert (summary is None) == (moment == "start")
    assert drawn
    assert english_leaks(drawn, locale) == []
    missing = sorted(
        {ch for text in drawn for ch in text if not (has_glyph(ch) and has_glyph(ch, True))}
    )
    assert missing == [], f"the font lacks {''.join(missing)!r}"


def test_english_pictures_still_say_it_in_english() -> None:
    """The same states drawn in English show the English labels (the default locale)."""
    g = STATES["deal end"]
    with drawn_text() as drawn:
        render_table(g.view(None))
        render_deal_summary(g.view(None))
    assert any(text.startswith("Mah-Jongg — hand") for text in drawn)
    assert "Basic points" in drawn


def test_scores_are_written_as_each_locale_writes_numbers() -> None:
    """A special hand's thousands on the score sheet: ``2,900`` where the locale groups
    digits, the plain ``2900`` the English sheet always showed."""
    east = "5b 5b 5b 5c 5c 5c 5d 5d 5d C C C E E".split()  # three adopted sons, golden coin
    g = new_game(1, PLAYERS, {"random_seats": False}, deck=east)
    while g.phase == "prelude":
        g.apply(g.to_act[0], "pass")
    g.apply(0, "mahjong")
    rng = random.Random(1)
    while not g.history:
        seat = g.to_act[0]
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
    total = g.history[-1]["sheets"][0]["total"]
    assert total >= 1000
    for locale in i18n.LOCALES:
        with drawn_text() as drawn:
            render_deal_summary(g.view(None), locale=locale)
        expected = str(total) if locale == "en-US" else i18n.format_number(locale, total)
        assert expected in drawn, (locale, expected)
    assert i18n.format_number("ja", total) != str(total)
