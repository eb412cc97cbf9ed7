"""bot.host.session.TableSession: every move of a table is checked, appended to the log (the
commit point), applied, given its deadlines and published — and the session says no word
to Discord (issue 28)."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from bot.engine import IllegalAction
from bot.host.intents import Outcome, Play, Together
from bot.host.session import Refused, TableSession
from tests.host.test_host_layout import HOST, imported_host_modules
from tests.host.test_presenter import alice_and_bob
from tests.test_layering import top_level_imports

ALICE, BOB = 7, 8


class NoDiscordAtAll:
    """A bot that fails any use: a session must not touch Discord."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the session reached Discord: bot.{name}")


def listen(host: Any) -> list[Outcome]:
    heard: list[Outcome] = []

    async def subscriber(outcome: Outcome) -> None:
        heard.append(outcome)

    host.log.subscribe(subscriber)
    return heard


async def test_a_refused_click_changes_nothing_and_reaches_no_discord(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        heard = listen(host)
        session: TableSession = host.sessions.of(table)
        (mover,) = table.state.to_act
        other = 1 - mover
        user = [ALICE, BOB][mover]
        version = table.prompts[mover].version
        code = table.state.legal_actions(mover)[0]
        bot, host.ctx.bot = host.ctx.bot, NoDiscordAtAll()
        try:
            async with table.lock:
                before = (table.state.version, list(table.state.log), dict(table.deadlines))
                refusals = [
                    # another person's controls, out of turn, stale controls
                    Play(mover, code, "player", user_id=[ALICE, BOB][other], version=version),
                    Play(other, code, "player", user_id=[ALICE, BOB][other], version=version),
                    Play(mover, code, "player", user_id=user, version=table.state.version + 1),
                ]
                for play in refusals:
                    with pytest.raises(Refused):
                        await session.submit(play)
                with pytest.raises(IllegalAction):  # its own turn, an illegal code
                    await session.submit(Play(mover, "nonsense", "player", user, version))
                after = (table.state.version, list(table.state.log), dict(table.deadlines))
        finally:
            host.ctx.bot = bot
        assert after == before
        assert await host.store.actions(table.id) == before[1]
        assert heard == []  # nothing published


async def test_an_accepted_move_is_appended_before_it_is_applied(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        heard = listen(host)
        appended_at: list[int] = []
        append = host.store.append_action

        async def watched(table_id: int, index: int, *args: Any) -> Any:
            appended_at.append(table.state.version)  # the state as the append is made
            return await append(table_id, index, *args)

        host.store.append_action = watched
        (mover,) = table.state.to_act
        start = table.state.version
        code = table.state.legal_actions(mover)[0]
        play = Play(mover, code, "player", [ALICE, BOB][mover], table.prompts[mover].version)
        async with table.lock:
            outcome = await host.sessions.of(table).submit(play)
        assert appended_at == [start]  # logged while the state was still before the move
        assert table.state.version == start + 1
        assert outcome.made == ((mover, table.state.normalize(mover, code)),)
        assert await host.store.actions(table.id) == table.state.log
        assert heard == [outcome] and outcome.events  # published, with what it said
        assert table.seats[mover].acted_at is not None  # a person who moves is playing


async def test_a_published_move_sets_the_deadlines_of_the_new_decisions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        for _ in range(4):
            (mover,) = table.state.to_act
            code = table.state.legal_actions(mover)[0]
            async with table.lock:
                # (the driver's kind of play: nobody's click, not prechecked)
                await host.sessions.of(table).submit(Play(mover, code, "auto"))
            if table.state.is_over:
                break
            for seat in table.state.to_act:
                assert seat in table.deadlines
                assert table.deadline_versions[seat] == table.prompts[seat].version
            assert set(table.deadlines) == set(table.state.to_act)


async def test_plays_gathered_together_say_which_were_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        (mover,) = table.state.to_act
        other = 1 - mover
        code = table.state.legal_actions(mover)[0]
        version = table.prompts[mover].version
        good = Play(mover, code, "player", [ALICE, BOB][mover], version)
        out_of_turn = Play(other, code, "player", [ALICE, BOB][other], version)
        async with table.lock:
            gathered = await host.sessions.of(table).submit_together(Together((good, out_of_turn)))
        assert gathered.made == (good,)
        ((play, why),) = gathered.refused
        assert play is out_of_turn and isinstance(why, Refused)
        assert gathered.outcome is not None and len(gathered.outcome.made) == 1
        assert await host.store.actions(table.id) == table.state.log


def test_the_session_imports_nothing_that_talks_to_discord() -> None:
    """The session checks, logs, applies and publishes: it neither imports discord nor any
    part of the host that sends (the presenter, the outbox, the replies, the components)."""
    tree = ast.parse((HOST / "session.py").read_text(encoding="utf-8"))
    modules = {p.stem for p in HOST.glob("*.py")}
    imported = imported_host_modules(tree, modules)
    assert imported <= {"cluster", "intents", "table"}, imported
    assert "discord" not in top_level_imports(HOST / "session.py")
