"""Koi-Koi speaks every language: each text it produces is a translated message, and its
pictures in ja, zh-CN, zh-TW and ko draw no English the catalogs translate and no character
the bundled font lacks.

(a) Seeded playouts to the end of the match (random and AI moves, and stacked decks for
the rare deals: teshi, kuttsuki, void deals) collect every Text met — event texts,
prompts, button labels, select placeholders and options, the reasons of illegal attempts,
``describe`` of every legal code, the progress line, hints and the strings of the views —
and each one, with the Texts inside its fields, must be in every catalog and say itself
in every locale. (b) The table, each seat's hand and (for games that draw one) the deal
summary of states of those playouts are drawn in each locale and checked.

The helpers here serve ``test_mushi_i18n.py`` too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import pytest

from bot import i18n
from bot.engine.core import Event, IllegalAction, State
from bot.engine.spec import GameSpec
from bot.engine.ui import Select
from bot.games import game_spec
from bot.games.hanafuda.cards import ALL_CARDS, card
from bot.games.koikoi.rules import four_of_a_month, four_pairs, instant_win
from bot.i18n import Text, localize
from bot.render.charts import has_glyph
from tests.i18n.drawn import drawn_text, english_leaks
from tests.i18n.texts import texts_in, translated

LOCALES = i18n.TRANSLATED
PLAYERS = ["Ann", "Bo"]

# ----- collecting and checking Texts -------------------------------------------------------


def plain_strings(value: Any) -> Iterator[str]:
    """Every str of ``value`` that is not a Text (codes, names, machine words)."""
    if isinstance(value, Text):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from plain_strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from plain_strings(v)


class Collector:
    """The Texts a playout met, by the message they say (and where one was first met)."""

    def __init__(self) -> None:
        self.texts: dict[tuple[str | None, str], Text] = {}
        self.where: dict[tuple[str | None, str], str] = {}
        self.plain: list[tuple[str, str]] = []  # (where, text) said without a Text

    def text(self, where: str, value: Any) -> None:
        """``value`` must be a Text (a str without one reads English to everyone)."""
        if isinstance(value, Text):
            self.add(where, value)
        else:
            self.plain.append((where, str(value)))

    def add(self, where: str, value: Any) -> None:
        for t in texts_in(value):
            key = (t.context, t.msgid)
            if key not in self.texts:
                self.texts[key] = t
                self.where[key] = where

    def view(self, where: str, view: Mapping[str, Any]) -> None:
        """The strings of a view: Texts are collected; a plain str must not be a message
        (that would be a name or word that lost its Text on the way)."""
        self.add(where, dict(view))
        for s in plain_strings({k: v for k, v in view.items() if k != "players"}):
            if any(i18n.has_translation(loc, s) for loc in LOCALES):
                self.plain.append((f"{where} (view)", s))

    def check(self) -> None:
        assert self.plain == [], "said without a Text"
        problems = []
        for key, text in self.texts.items():
            for loc in LOCALES:
                if not translated(loc, text):
                    problems.append(f"{loc}: {text.msgid!r} ({self.where[key]})")
                    continue
                said = localize(loc, text)
                assert isinstance(said, str) and said
                leaks = english_leaks([said], loc)
                assert leaks == [], (loc, self.where[key], said)
        assert problems == []

    def msgids(self) -> set[str]:
        return {msgid for _, msgid in self.texts}


def collect_controls(c: Collector, where: str, controls: Any) -> None:
    c.text(f"{where} prompt", controls.prompt)
    for row in controls.rows:
        if isinstance(row, Select):
            c.text(f"{where} placeholder", row.placeholder)
            for option in row.options:
                c.text(f"{where} option", option.label)
                if option.description:
                    c.text(f"{where} option description", option.description)
        else:
            for button in row:
                c.text(f"{where} button {button.code}", button.label)


def collect_events(c: Collector, events: Iterable[Event]) -> set[str]:
    kinds = set()
    for e in events:
        c.text(f"event {e.kind}", e.text)
        c.add(f"event {e.kind} data", dict(e.data))
        kinds.add(e.kind)
    return kinds


def playout(
    spec: GameSpec,
    state: State,
    c: Collector,
    *,
    seed: int,
    illegal: Callable[[State, int], list[str]],
    on_state: Callable[[str, State], None] | None = None,
    prefer: tuple[str, ...] = (),
) -> set[str]:
    """Play ``state`` to the end (AI and random moves, and any code of ``prefer`` when it
    is legal), collecting every Text met; returns the kinds of the events.
    ``on_state(label, state)`` sees the start, a mid-deal state, each deal end and the
    match end."""
    rng = random.Random(seed)
    kinds = collect_events(c, state.events)
    if on_state:
        on_state("start", state)
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        c.view("seat view", view)
        c.view("public view", state.view(None))
        c.text("progress", spec.progress(state.view(None)))
        collect_controls(c, "controls", spec.controls(view, legal))
        other = 1 - seat
        collect_controls(c, "idle controls", spec.controls(state.view(other), []))
        for code in legal:
            c.text(f"describe {code}", spec.describe(code))
        assert spec.hint is not None
        hint_code, reason = spec.hint(view, legal)
        assert hint_code in legal
        c.text("hint", reason)
        for code in illegal(state, seat):
            if state.normalize(seat, code) in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                state.apply(seat, code)
            c.text(f"illegal {code!r}", err.value.reason)
        code = spec.choose(view, legal, rng) if rng.random() < 0.6 else rng.choice(legal)
        code = next((p for p in prefer if p in legal), code)
        events = state.apply(seat, code)
        kinds |= collect_events(c, events)
        steps += 1
        if on_state and steps == 7:
            on_state("mid-deal", state)
        if on_state and any(e.kind == "deal_end" for e in events):
            on_state("deal end", state)
    c.view("final view", state.view(0))
    c.view("final public view", state.view(None))
    collect_controls(c, "final controls", spec.controls(state.view(0), []))
    with pytest.raises(IllegalAction) as err:
        state.default_action(0)
    c.text("default action", err.value.reason)
    if on_state:
        on_state("match end", state)
    return kinds


# ----- pictures ----------------------------------------------------------------------------


def check_pictures(game: str, state: State, label: str) -> None:
    """The table, each seat's hand and the deal summary in every translated locale: no
    English the catalogs translate, no character the font lacks."""
    renderers = game_spec(game).renderers()
    views = [("table", "render_table", state.view(None))]
    views += [(f"hand {s}", "render_hand", state.view(s)) for s in (0, 1)]
    views += [(f"seat {s}'s table", "render_table", state.view(s)) for s in (0, 1)]
    if renderers.render_deal_summary is not None:
        views.append(("deal summary", "render_deal_summary", state.view(None)))
    for locale in LOCALES:
        for what, fn, view in views:
            with drawn_text() as drawn:
                getattr(renderers, fn)(view, locale=locale)
            where = f"{game} {label} {what} {locale}"
            assert english_leaks(drawn, locale) == [], where
            missing = sorted({ch for s in drawn for ch in s if not has_glyph(ch)})
            missing += sorted({ch for s in drawn for ch in s if not has_glyph(ch, True)})
            assert missing == [], f"{where}: the font lacks {''.join(missing)!r}"


# ----- Koi-Koi --------------------------------------------------------------------------------


def _koikoi_illegal(state: State, seat: int) -> list[str]:
    """A few wrong moves for the seat to act: each gets a reason."""
    view = state.view(seat)
    hand = view["hand"] or []
    board = view["board"]
    out = ["bogus", "play", "play 13x", "koikoi", "take 1b"]
    others = [c for c in ALL_CARDS if c not in hand]
    out.append(f"play {others[0]}")
    for code in hand:
        months = [b for b in board if card(b).month == card(code).month]
        out.append(f"play {code} {months[0] if months else code}")
        if len(months) == 2:
            out.append(f"play {code}")
            other = next(b for b in ALL_CARDS if b not in months and b != code)
            out.append(f"play {code} {other}")
    if view["phase"] == "choose_flip":
        out.append("take 1b")
        out.append("take")
    return out


def stacked_deck(
    cards: Iterable[str],
    parts: tuple[str, str, str],
    seed: int,
    ok: Callable[[list[str], list[str], list[str]], bool],
) -> list[str]:
    """A stacked deck: the dealer's hand, the other hand and the board start with the
    cards of ``parts`` (card lists), the rest shuffled by ``seed`` until ``ok(dealer,
    other, board)``."""
    fixed = [p.split() for p in parts]
    rng = random.Random(seed)
    used = {c for p in fixed for c in p}
    for _ in range(10_000):
        rest = [c for c in cards if c not in used]
        rng.shuffle(rest)
        slots = []
        for p in fixed:
            slots.append(p + [rest.pop() for _ in range(8 - len(p))])
        deck = slots[0] + slots[1] + slots[2] + rest
        if ok(*slots):
            return deck
    raise AssertionError("no such deal")


def _clean(board: list[str]) -> bool:
    return four_of_a_month(board) is None and not four_pairs(board)


def _special_decks() -> list[list[str]]:
    """Stacked first deals for what random deals rarely bring: teshi, kuttsuki, a board of
    four of a month, both hands with an instant win."""
    return [
        stacked_deck(ALL_CARDS, ("1b 1r 1p1 1p2", "", ""), 1,
                     lambda a, b, board: not instant_win(b) and _clean(board)),
        stacked_deck(ALL_CARDS, ("1b 1r 2a 2r 3b 3r 4a 4r", "", ""), 2,
                     lambda a, b, board: not instant_win(b) and _clean(board)),
        stacked_deck(ALL_CARDS, ("", "", "5a 5r 5p1 5p2"), 3,
                     lambda a, b, board: not instant_win(a) and not instant_win(b)),
        stacked_deck(ALL_CARDS, ("6a 6r 6p1 6p2", "7a 7r 7p1 7p2", ""), 4,
                     lambda a, b, board: _clean(board)),
    ]  # fmt: skip


SEEDS = [1, 2, 3, 4]


def _koikoi_playouts(
    on_state: Callable[[str, State], None] | None = None,
) -> tuple[Collector, set[str]]:
    spec = game_spec("koikoi")
    c = Collector()
    kinds: set[str] = set()
    for seed in SEEDS:
        state = spec.new_game(seed, PLAYERS, {"rounds": 6})
        kinds |= playout(spec, state, c, seed=seed, illegal=_koikoi_illegal, on_state=on_state)
    for i, deck in enumerate(_special_decks()):
        state = spec.new_game(100 + i, PLAYERS, {"rounds": 6}, deck=[deck])
        kinds |= playout(spec, state, c, seed=100 + i, illegal=_koikoi_illegal)
    return c, kinds


def test_every_koikoi_text_is_translated_in_every_locale() -> None:
    c, kinds = _koikoi_playouts()
    # The playouts met what they are meant to cover.
    assert {"deal", "play", "flip", "yaku", "stop", "koikoi", "deal_end", "match_end"} <= kinds
    assert {"teshi", "kuttsuki", "void"} <= kinds
    assert len(c.texts) > 100
    c.check()


def test_koikoi_texts_say_their_english_unchanged() -> None:
    """A Text is the English string it always was: the English locale says it as it is."""
    spec = game_spec("koikoi")
    state = spec.new_game(5, PLAYERS, {})
    for e in state.events:
        assert localize("en-US", e.text) == str(e.text)
    assert str(spec.progress(state.view(None))) == "round 1/6"
    assert localize("ja", spec.progress(state.view(None))) == "1/6回戦"


def test_koikoi_pictures_in_every_locale_hold_no_english_and_no_missing_glyph() -> None:
    seen: dict[str, int] = {}

    def on_state(label: str, state: State) -> None:
        # Two states of each kind over the playouts (the last deal end is the match end's).
        if seen.get(label, 0) >= (1 if label != "deal end" else 2):
            return
        seen[label] = seen.get(label, 0) + 1
        check_pictures("koikoi", state, label)

    spec = game_spec("koikoi")
    for seed in SEEDS[:2]:
        state = spec.new_game(seed, PLAYERS, {"rounds": 6})
        playout(spec, state, Collector(), seed=seed, illegal=lambda s, seat: [], on_state=on_state)
    assert set(seen) == {"start", "mid-deal", "deal end", "match end"}
