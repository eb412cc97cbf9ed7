"""Mushi speaks every language: each text it produces is a translated message, and its
pictures (table, hands, the hand's score sheet) in ja, zh-CN, zh-TW and ko draw no English
the catalogs translate and no character the bundled font lacks.

Seeded playouts to the end of the match under each table option, and stacked decks for the
rare deals (a four in hand shown to cancel the deal, a four or the three rain cards on the
table, the wild as the last stock card); see ``test_koikoi_i18n.py`` for the checks.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core import State
from bot.games import game_spec
from bot.games.mushi.rules import (
    DECK,
    WILD,
    capture_choices,
    table_four_months,
    three_rain_on_table,
)
from bot.i18n import localize
from tests.i18n.test_koikoi_i18n import (
    PLAYERS,
    Collector,
    check_pictures,
    playout,
    stacked_deck,
)

OPTIONS = [
    {},
    {"hands": 6, "elder_takes_table_four": True, "bottom_wild_takes_rain": True},
    {"hands": 6, "four_of_a_kind_cancel": False},
]


def _illegal(state: State, seat: int) -> list[str]:
    """A few wrong moves for the seat to act: each gets a reason."""
    view = state.view(seat)
    hand = view["hand"] or []
    table = view["table"]
    out = ["bogus", "play", "play 6a", "cancel", "take 1b", "play 1b 1r 1p1"]
    out.append(f"play {next(c for c in DECK if c not in hand)}")
    for code in hand:
        out.append(f"play {code} 6a")
        out.append(f"play {code} {WILD}")
        out.append(f"play {code} 11b")
        choices = capture_choices(code, table)
        taken = [t for took in choices for t in took]
        out.append(f"play {code} {taken[0] if taken else code}")
        other = next((t for t in table if t not in taken and t != WILD), None)
        if other:
            out.append(f"play {code} {other}")
    return out


def _fresh(board: list[str]) -> bool:
    return not table_four_months(board) and not three_rain_on_table(board)


def _decks() -> list[tuple[dict, list[list[str]]]]:
    """(options, stacked first deals) for what random deals rarely bring."""
    four_in_hand = stacked_deck(DECK, ("1b 1r 1p1 1p2", "", ""), 1, lambda a, b, t: _fresh(t))
    table_four = stacked_deck(DECK, ("", "", "2a 2r 2p1 2p2"), 2, lambda a, b, t: True)
    rain = stacked_deck(DECK, ("", "", "11b 11a 11r"), 3, lambda a, b, t: not table_four_months(t))
    # The wild is the last card of the stock (the deck's last card), three rain cards left
    # out of the first hands and table so that they are still to be played.
    bottom = stacked_deck(
        DECK, ("", "", ""), 4, lambda a, b, t: WILD not in a + b + t and _fresh(t)
    )
    bottom.remove(WILD)
    bottom.append(WILD)
    return [
        ({}, [four_in_hand]),
        ({}, [table_four, rain]),
        ({"elder_takes_table_four": True}, [table_four]),
        ({"elder_takes_table_four": True}, [rain]),
        ({"bottom_wild_takes_rain": True}, [bottom]),
        ({}, [bottom]),
    ]


def _mushi_playouts(
    on_state: Callable[[str, State], None] | None = None,
) -> tuple[Collector, set[str]]:
    spec = game_spec("mushi")
    c = Collector()
    kinds: set[str] = set()
    for seed, options in enumerate(OPTIONS, start=1):
        state = spec.new_game(seed, PLAYERS, options)
        kinds |= playout(spec, state, c, seed=seed, illegal=_illegal, on_state=on_state)
    for i, (options, decks) in enumerate(_decks()):
        state = spec.new_game(100 + i, PLAYERS, {"hands": 6, **options}, deck=decks)
        kinds |= playout(spec, state, c, seed=100 + i, illegal=_illegal, prefer=("cancel",))
    return c, kinds


def test_every_mushi_text_is_translated_in_every_locale() -> None:
    c, kinds = _mushi_playouts()
    assert {"deal", "play", "flip", "deal_end", "match_end", "leftover"} <= kinds
    assert {"cancel", "redeal", "table_four", "rain_aside"} <= kinds
    assert len(c.texts) > 100
    c.check()


def test_mushi_texts_say_their_english_unchanged() -> None:
    spec = game_spec("mushi")
    state = spec.new_game(5, PLAYERS, {})
    for e in state.events:
        assert localize("en-US", e.text) == str(e.text)
    assert str(spec.progress(state.view(None))) == "hand 1/12"
    assert localize("ko", spec.progress(state.view(None))) == "1/12판"


def test_mushi_pictures_in_every_locale_hold_no_english_and_no_missing_glyph() -> None:
    seen: dict[str, int] = {}

    def on_state(label: str, state: State) -> None:
        if seen.get(label, 0) >= (1 if label != "deal end" else 2):
            return
        seen[label] = seen.get(label, 0) + 1
        check_pictures("mushi", state, label)

    spec = game_spec("mushi")
    for seed, options in enumerate(OPTIONS[:2], start=1):
        state = spec.new_game(seed, PLAYERS, options)
        playout(spec, state, Collector(), seed=seed, illegal=lambda s, seat: [], on_state=on_state)
    assert set(seen) == {"start", "mid-deal", "deal end", "match end"}
