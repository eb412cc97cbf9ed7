"""San Da Yi speaks every locale: what the game says (events, controls, refusals, labels,
progress, hints, the view's words) is a Text the catalogs translate, and its pictures in
ja, zh-CN, zh-TW and ko draw no English and no character the bundled font lacks."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot import i18n
from bot.engine.core import IllegalAction
from bot.engine.ui import Controls, Select
from bot.games import sandayi
from bot.games.sandayi import render
from bot.games.sandayi.ai import hint
from bot.games.sandayi.cards import DECK
from bot.games.sandayi.rules import Options, SanDaYiState
from bot.i18n.text import Text, localize
from bot.render.charts import has_glyph
from tests.i18n.drawn import drawn_text, english_leaks
from tests.i18n.texts import texts_in, translated

#: Names that are no English word, so a leak check never mistakes one for a label.
PLAYERS = ["Aiko", "Bora", "Chen", "Dara"]
SEEDS = [1, 9, 24, 31]
LOCALES = i18n.TRANSLATED
#: Attempts that are illegal in some phase (each phase refuses some of them).
ATTEMPTS = [
    "bid 55",
    "bid 60",
    "bid 70",
    "bury",
    "bury ZZ",
    "bury AS AS",
    "bury 2S 3S 4S 5S 6S 7S 8S",
    "play ZZ",
    "play",
    "trump X",
    "shuffle",
]


def english_words(text: str) -> list[str]:
    """Runs of two or more Latin letters, player names taken out."""
    for name in PLAYERS:
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]{2,}", text)


class Said:
    """Everything a playout made the game say: Texts, and plain strings shown as they are."""

    def __init__(self) -> None:
        self.texts: dict[tuple[str, str | None, int | None], Text] = {}
        self.plain: set[str] = set()

    def add(self, value: Any, *, must_be_text: bool = False) -> None:
        if must_be_text:
            assert isinstance(value, Text), f"not a Text: {value!r}"
        if isinstance(value, str) and not isinstance(value, Text):
            self.plain.add(value)
        for text in texts_in(value):
            self.texts.setdefault((text.msgid, text.context, text.count), text)

    def add_controls(self, controls: Controls) -> None:
        self.add(controls.prompt, must_be_text=True)
        for row in controls.rows:
            if isinstance(row, Select):
                self.add(row.placeholder, must_be_text=True)
                for option in row.options:
                    self.add(option.label)
                    if option.description is not None:
                        self.add(option.description, must_be_text=True)
            else:
                for button in row:
                    self.add(button.label)


def _attempts(state: SanDaYiState, seat: int, rng: random.Random) -> list[str]:
    hand = state.hands[seat]
    elsewhere = [c for c in DECK if c not in hand]
    out = list(ATTEMPTS)
    out.append(f"play {rng.choice(elsewhere)}")
    out.append(f"bury {rng.choice(elsewhere)}")
    out.extend(f"play {c}" for c in hand)  # some of them do not follow suit
    return out


def playout(seed: int, said: Said | None = None) -> dict[str, SanDaYiState]:
    """A random match of 2 or 3 hands to the end (random moves, low bids, the hint's move
    now and then, several-card buries); returns copies of the state at its interesting
    moments."""
    rng = random.Random(seed)
    options = {"hands": 2 + seed % 2, "fixed_minimums": seed % 2 == 0}
    state = sandayi.new_game(seed, PLAYERS, options)
    moments = {"start": state.clone()}
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        if said is not None:
            said.add_controls(sandayi.controls(view, legal))
            other = (seat + 1) % 4
            said.add_controls(sandayi.controls(state.view(other), state.legal_actions(other)))
            said.add(sandayi.SPEC.progress(state.view(None)), must_be_text=True)
            said.add(view)
            for code in legal:
                said.add(sandayi.describe(code), must_be_text=True)
            code, reason = hint(view, legal)
            said.add(reason, must_be_text=True)
            said.add(sandayi.describe(code), must_be_text=True)
            said.add(hint(state.view(other), state.legal_actions(other))[1], must_be_text=True)
            for attempt in _attempts(state, seat, rng):
                try:
                    state.check(seat, state.normalize(seat, attempt))
                except IllegalAction as refused:
                    said.add(refused.reason, must_be_text=True)
            try:
                state.default_action(other)
            except IllegalAction as refused:
                said.add(refused.reason, must_be_text=True)
        if state.phase == "bury" and rng.random() < 0.5:
            code = hint(view, legal)[0]  # every card still to bury at once
        elif state.phase == "bidding":
            bids = legal[1:]
            roll = rng.random()
            code = bids[0] if bids and roll < 0.35 else rng.choice(legal) if roll < 0.5 else "pass"
        elif rng.random() < 0.3:
            code = hint(view, legal)[0]
        else:
            code = rng.choice(legal)
        history, phase = len(state.history), state.phase
        events = state.apply(seat, code)
        if said is not None:
            for event in events:
                said.add(event.text, must_be_text=True)
                said.add(event.data)
        if phase == "bidding" and state.phase == "bury":
            moments.setdefault("bury", state.clone())
        if state.phase == "play" and len(state.tricks) == 5 and len(state.trick) == 2:
            moments.setdefault("mid-deal", state.clone())
        if len(state.history) > history and not state.is_over:
            moments.setdefault("deal end", state.clone())
    moments["match end"] = state
    if said is not None:
        for s in range(4):
            said.add_controls(sandayi.controls(state.view(s), state.legal_actions(s)))
        with pytest.raises(IllegalAction) as refused:
            state.check(0, "play AS")
        said.add(refused.value.reason, must_be_text=True)
    return moments


@pytest.fixture(scope="module")
def said() -> Said:
    said = Said()
    for seed in SEEDS:
        playout(seed, said)
    with pytest.raises(ValueError) as refused:
        Options(hands=0)
    said.add(refused.value.args[0], must_be_text=True)
    return said


def test_the_playouts_meet_every_kind_of_text(said: Said) -> None:
    ids = {msgid for msgid, _, _ in said.texts}
    for expected in (
        "{name} bids {bid}.",
        "{name} passes.",
        "{name} plays {card}.",
        "Hand {hand}: {name} bid {bid} (trump {symbol}); the defenders took "
        "{points}/{target} points, {kou} — case {case} ({case_name}, stake {stake}): {pay}.",
        "You must follow suit: play one of your {suit}.",
        "Name the trump suit.",
        "Choose exactly {n} card to bury",
        "hand {deal}/{deals}",
        "Pass",
        "`{code}` is not a card: cards are written like `QS`, `10H`, `BJ` (big joker).",
        "There is nothing to decide for this seat now.",
        "hands must be between 1 and 40.",
        "{before}Big joker{after}",  # a list of cards with a joker's name in it
        "{names} and {last}",
    ):
        assert expected in ids
    assert len(said.texts) > 90


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_of_a_match_is_translated_and_says_itself(said: Said, locale: str) -> None:
    missing = sorted({t.msgid for t in said.texts.values() if not translated(locale, t)})
    assert missing == []
    for text in said.texts.values():
        out = localize(locale, text)
        assert isinstance(out, str) and out.strip()
        assert type(out) is str  # said: no Text left inside
        assert not re.search(r"\{\w*\}", out), out  # every field filled
    # Nothing the game shows is English left untranslated: the plain strings are names,
    # codes and card labels (10♥), never words.
    assert [s for s in said.plain if english_words(s)] == []


def test_the_english_is_the_text_itself(said: Said) -> None:
    for text in said.texts.values():
        assert localize("en-US", text) == str(text)


def _views(moments: dict[str, SanDaYiState]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, state in moments.items():
        out.append((f"{name} table", state.view(None)))
        out.extend((f"{name} hand {s}", state.view(s)) for s in range(4))
    return out


@pytest.fixture(scope="module")
def moments() -> list[tuple[str, dict[str, Any]]]:
    views = []
    for seed in SEEDS[:2]:
        moments = playout(seed)
        assert {"start", "bury", "mid-deal", "deal end", "match end"} <= set(moments)
        views.extend(_views(moments))
    return views


@pytest.mark.parametrize("locale", LOCALES)
def test_images_draw_no_english_and_only_the_fonts_characters(
    moments: list[tuple[str, dict[str, Any]]], locale: str
) -> None:
    with drawn_text() as drawn:
        for name, view in moments:
            if name.endswith("table"):
                render.render_table(view, locale=locale)
                render.render_deal_summary(view, locale=locale)
            else:
                render.render_hand(view, locale=locale)
    assert drawn
    assert english_leaks(drawn, locale) == []
    assert sorted({s for s in drawn if english_words(s)}) == []
    chars = {ch for s in drawn for ch in s if not ch.isspace()}
    missing = sorted(ch for ch in chars if not (has_glyph(ch) and has_glyph(ch, True)))
    assert missing == [], f"the font lacks {''.join(missing)!r}: run scripts/subset_font.py"
