"""The game contract as the host sees it: every registered game's spec, and a sixth game
hosted with no edit of the host."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.engine.spec import GameSpec
from bot.games import GAME_NAMES, game_spec
from bot.host.options import validate_options
from bot.store import SeatRow
from tests.host import toy_game
from tests.host.offline import offline_host


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_registered_game_has_a_consistent_spec(name: str) -> None:
    spec = game_spec(name)
    assert isinstance(spec, GameSpec) and spec.name == name and spec.title
    option_names = {f.name for f in dataclasses.fields(spec.options)}
    assert set(spec.option_bounds) <= option_names
    for low, high in spec.option_bounds.values():
        assert low <= high
    assert all(0 <= seat < spec.seats for team in spec.teams for seat in team)
    state = spec.new_game("1", [f"P{i}" for i in range(spec.seats)])
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    assert spec.controls(state.view(seat), legal).prompt
    assert all(isinstance(spec.describe(code), str) for code in legal)
    assert spec.replay("1", state.players, {}, []).snapshot() == state.snapshot()
    assert spec.render_module == f"bot.games.{name}.render"


def test_unknown_games_are_refused() -> None:
    with pytest.raises(KeyError):
        game_spec("chess")


def test_option_bounds_come_from_the_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    toy_game.register(monkeypatch)
    assert validate_options("twenty", {"goal": 30, "turn_seconds": 60})
    for bad in ({"goal": 4}, {"goal": True}, {"turn_seconds": 5}, {"colour": 1}):
        with pytest.raises(ValueError):
            validate_options("twenty", bad)


async def test_a_sixth_game_is_hosted_without_editing_the_host(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toy_game.register(monkeypatch)
    host = await offline_host(str(tmp_path / "six.db"), ai_delay=0.0, edit_interval=0.0)
    store = host.store
    try:
        table_id = await store.create_table(
            guild_id=1, channel_id=2, game="twenty", options={"goal": 12}, seed="6", host_id=7
        )
        await store.set_seats(
            table_id,
            [SeatRow(seat=s, user_id=None, name=f"AI {s + 1}", is_ai=True) for s in (0, 1)],
        )
        assert await store.transition(table_id, ("lobby",), "active")
        assert await host.restore() == 1  # loaded from the (empty) log and driven here
        table = host.tables[table_id]
        assert table.title == "Twenty"
        await asyncio.wait_for(_until(lambda: table.finished), 30)
        assert (await store.get_table(table_id)).status == "finished"
        log = await store.actions(table_id)
        assert sum(int(code.split()[1]) for _, code in log) == 12
    finally:
        await host.close()
        await store.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)
