"""The host's side of AI levels: which level plays a seat, and strong off the event loop."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.games import game_spec
from bot.host import driver
from bot.host.lobby import ai_seat_name
from bot.host.table import Seat


def test_an_ai_seat_plays_its_level_and_a_takeover_plays_normal() -> None:
    assert Seat(
        seat=1, name="AI 1 (strong)", user_id=None, is_ai=True, ai_level="strong"
    ).level == ("strong")
    assert Seat(seat=1, name="AI 1", user_id=None, is_ai=True).level == "normal"  # stored NULL
    takeover = Seat(seat=0, name="Alice", user_id=5, ai_takeover=True, ai_level="strong")
    assert takeover.played_by_ai and takeover.level == "normal"


def test_ai_seat_names_say_the_level_in_the_tables_language() -> None:
    assert ai_seat_name(2, "strong", "en-US") == "AI 2 (strong)"
    assert ai_seat_name(1, "easy", "ja") == "AI 1（やさしい）"
    assert ai_seat_name(3, "normal", "ko") == "AI 3"


@pytest.mark.parametrize(
    "game, level, threaded",
    [
        ("mushi", "strong", True),
        ("mushi", "normal", False),
        ("mushi", "easy", False),
        ("mushi", "grandmaster", False),  # an unknown stored level plays normal
        # Koi-Koi's normal searches too (its one-ply judgement overruled by playouts).
        ("koikoi", "strong", True),
        ("koikoi", "normal", True),
        ("koikoi", "grandmaster", True),
        ("koikoi", "easy", False),
    ],
)
def test_only_the_searching_levels_think_in_a_worker_thread(
    monkeypatch, game, level, threaded
) -> None:
    spec = game_spec(game)
    state = spec.new_game(3, ["A", "B"], {})
    seat_no = state.to_act[0]
    seat = Seat(seat=seat_no, name="AI", user_id=None, is_ai=True, ai_level=level)
    table = type("T", (), {"spec": spec})()
    calls = []
    real = asyncio.to_thread

    async def spy(fn, *args):
        calls.append(fn)
        return await real(fn, *args)

    monkeypatch.setattr(driver.asyncio, "to_thread", spy)
    legal = state.legal_actions(seat_no)
    code = asyncio.run(
        driver._think(table, seat, state.view(seat_no), legal, random.Random(1))  # type: ignore[arg-type]
    )
    assert code in legal
    assert calls == ([spec.ai(level)] if threaded else [])
