"""The game contract as the host sees it: every registered game's spec, and a sixth game
(``tests/twenty``) hosted with no edit of the host. Twenty through the cogs:
``tests/twenty/test_twenty_e2e.py``."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.engine.spec import GameSpec, Renderers
from bot.games import GAME_NAMES, check_games, game_spec
from bot.host.options import validate_options
from bot.store import SeatRow
from tests.host.offline import offline_host
from tests.twenty.registration import register


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
    assert spec.package == f"bot.games.{name}" and spec.cog == f"cogs.{name}"
    assert spec.render_module == f"bot.games.{name}.render"
    assert isinstance(spec.renderers(), Renderers)
    assert spec.deal_number(state.view(None)) == 1
    assert isinstance(spec.hand_of(state.view(seat)), list)
    spec.parse_options(spec.long_options)  # (the replay timing bench's: options it takes)


def test_a_render_module_without_a_required_renderer_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game whose renderers are incomplete stops the bot's start (``check_games``), not
    its first picture; the message names what is missing."""
    import tests.twenty.render

    spec = register(monkeypatch)
    check_games()  # complete: accepted
    check_games(load_renderers=True)
    broken = dataclasses.replace(spec, render_module="tests.host.test_game_spec")
    monkeypatch.setattr(tests.twenty, "SPEC", broken)
    for load in (False, True):  # read (the bot's process), imported (a render worker)
        with pytest.raises(TypeError, match="lacks render_table, render_hand, card_face"):
            check_games(load_renderers=load)
    monkeypatch.delattr(tests.twenty.render, "card_face")
    with pytest.raises(TypeError, match="lacks card_face"):
        Renderers.of(tests.twenty.render)


def test_unknown_games_are_refused() -> None:
    with pytest.raises(KeyError):
        game_spec("chess")


def test_option_bounds_come_from_the_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)
    assert validate_options("twenty", {"goal": 30, "rounds": 1, "turn_seconds": 60})
    for bad in ({"goal": 4}, {"goal": True}, {"rounds": 6}, {"turn_seconds": 5}, {"colour": 1}):
        with pytest.raises(ValueError):
            validate_options("twenty", bad)


async def test_a_sixth_game_is_hosted_without_editing_the_host(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch)
    host = await offline_host(str(tmp_path / "six.db"), ai_delay=0.0, edit_interval=0.0)
    store = host.store
    try:
        table_id = await store.create_table(
            guild_id=1,
            channel_id=2,
            game="twenty",
            options={"goal": 12, "rounds": 2},
            seed="6",
            host_id=7,
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
        final = game_spec("twenty").replay("6", ["AI 1", "AI 2"], {"goal": 12, "rounds": 2}, log)
        assert final.is_over and sum(final.scores) == 2  # two rounds, each won by one
        assert table.state.snapshot() == final.snapshot()
    finally:
        await host.close()
        await store.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)
