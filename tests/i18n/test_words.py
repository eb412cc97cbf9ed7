"""Cards by their names, counts by their plurals — the cases people met: "Hands at the end:
Alice 2r 7p2 12p2", "hand shown: 4b 5b 6b…", "⚠️ 2t Panda is not a combination.",
"discarded 1 Dots", "scores 1 points", "seat(s)" — in English and as translated."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.engine import IllegalAction
from bot.games import GAME_NAMES, game_spec
from bot.games.mahjong.rules import describe as mahjong_describe
from bot.games.mahjong.tiles import hand_text, name, run_name, tile, tiles
from bot.host.spectate import hands_line
from bot.i18n import localize, ntext

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "panda"))
from panda_helpers import start_hand  # noqa: E402


def test_the_hands_at_the_end_are_named() -> None:
    koikoi = game_spec("koikoi").card_name
    line = hands_line(["Alice", "Bob"], [["2r", "7p2", "12p2"], []], "en-US", koikoi)
    assert line == (
        "Hands at the end: Alice: Plum red poetry ribbon, Bush clover plain, Paulownia plain"
        " · Bob (no cards)"
    )
    ja = hands_line(["Alice"], [["1b", "8a"]], "ja", koikoi)
    crane, geese = (localize("ja", koikoi(c)) for c in ("1b", "8a"))
    assert ja == f"終了時の手：Alice：{crane}、{geese}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_names_its_cards(game: str) -> None:
    card = {"koikoi": "3b", "mushi": "11p1", "panda": "Mr", "sandayi": "QS", "mahjong": "5d"}[game]
    named = game_spec(game).card_name(card)
    assert card not in named
    for locale in ("ja", "zh-CN", "zh-TW", "ko"):
        assert card not in localize(locale, named)


def test_mahjong_names_one_dot_and_shows_a_hand_by_name() -> None:
    assert name(tile("1d")) == "1 Dot" and name(tile("5d")) == "5 Dots"
    assert name(tile("1c")) == "1 Character" and name(tile("1b")) == "1 Bamboo"
    assert localize("ja", name(tile("1d"))) == "1筒"
    assert mahjong_describe("discard 1d") == "Discard 1 Dot"
    shown = hand_text(tiles("4b 5b 6b 2d 2d S S"))
    assert shown == "4 5 6 Bamboo, 2 2 Dots, South wind, South wind"
    assert localize("ja", shown) == "4 5 6索子、2 2筒子、南、南"
    assert run_name(tile("3c")) == "3-4-5 Characters"


def test_panda_refuses_with_card_names() -> None:
    state = start_hand(["stork 2t panda", "", "", ""])
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "play 2t panda")
    assert refused.value.reason == "2 of Tamahagane, Panda is not a combination."
    assert localize("ja", refused.value.reason).startswith("Tamahaganeの2、Panda")


def test_counts_say_one_and_many() -> None:
    seat = ntext(
        "{n} seat still empty: wait for a player to join or Add AI.",
        "{n} seats still empty: wait for players to join or Add AI.",
        1,
    )
    assert seat == "1 seat still empty: wait for a player to join or Add AI."
    assert localize("ja", seat).startswith("まだ1")
