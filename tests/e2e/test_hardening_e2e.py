"""Hardening over the fake Discord: other guilds, forged options and ids, quotas, lobby
expiry, AI-only tables, mentions, errors, a failing AI, and the ephemeral-hand DM."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.games import GAME_NAMES
from tests.e2e.fakediscord import APPLICATION_COMMAND, FakeDiscord, FakeInteraction, find_components
from tests.e2e.teahouse import RunningBot, eventually, settings_for, shorten_turns

pytestmark = pytest.mark.asyncio


def _text(inter: FakeInteraction) -> str:
    """What the bot answered, through the callback or a follow-up."""
    parts = []
    if inter.callback is not None:
        parts.append(str((inter.callback.data or {}).get("content") or ""))
    parts += [m.content for m in inter.followups]
    return "\n".join(parts)


async def _lobby(fake: FakeDiscord, channel: int, user: int, options=None, game="koikoi"):
    inter = await fake.slash(user, channel, f"{game} new", options or {})
    await inter.wait_response()
    if not inter.callback or not inter.callback.data.get("embeds"):
        return None, inter
    lobby = fake.message(inter.original_id)
    return int(lobby.embeds[0]["title"].split("#")[1]), lobby


async def _forged_slash(
    fake: FakeDiscord, user: int, channel_id: int, group: str, sub: str, options: dict[str, Any]
) -> FakeInteraction:
    """A slash command whose options skip the client's checks (as a forged request would)."""
    channel = fake._get_channel(channel_id)
    cmd = fake._lookup_command(channel, group)
    leaf = [{"name": k, "type": 4, "value": v} for k, v in options.items()]
    data = {
        "id": cmd["id"],
        "name": cmd["name"],
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": leaf}],
    }
    iid, token, payload = fake._base_interaction(APPLICATION_COMMAND, user, channel, data, "en-US")
    inter = FakeInteraction(
        id=iid,
        token=token,
        type=APPLICATION_COMMAND,
        user_id=user,
        channel_id=channel.id,
        payload=payload,
        command_name=f"{group} {sub}",
    )
    return await fake._send_interaction(inter)


async def _forged_click(
    fake: FakeDiscord, user: int, message, custom_id: str, channel_id: int | None = None
) -> FakeInteraction:
    """A click on ``message`` carrying any custom id (from any channel the user is in)."""
    channel = fake.channel(channel_id if channel_id is not None else message.channel_id)
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._component_interaction(user, message, channel, data, "en-US")


async def _started_table(
    fake, bot, channel, host, *, guests=(), ais=1, options=None, game="koikoi"
):
    table_id, lobby = await _lobby(fake, channel, host, options, game=game)
    for guest in guests:
        await (await fake.click(guest, lobby, label="Join")).wait_response()
    for _ in range(ais):
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    await (await fake.click(host, lobby, label="Start")).wait_response()
    table = await eventually(lambda: bot.host.tables.get(table_id))
    return table_id, lobby, table


async def test_a_first_dm_opens_the_channel_without_looking_the_player_up(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    """A player discord.py does not cache (it holds users only while something uses them):
    their first DM opens the DM channel from their id, one request, not two."""
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "u.db")))
    bot = await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice)
        await (await fake.click(bob, lobby, label="Join")).wait_response()
        bot._connection._users.clear()  # as after the cache let them go
        fake.ratelimits.reset_counters()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        await eventually(lambda: fake.dms(alice) and fake.dms(bob))
        calls = fake.ratelimits.calls
        assert calls.get("GET /users/{user_id}", 0) == 0, dict(calls)
        assert calls.get("POST /users/@me/channels", 0) == 2, dict(calls)
        table = bot.host.tables[table_id]
        assert {s.dm_channel_id for s in table.seats} == {
            fake.dm_channel_of(alice),
            fake.dm_channel_of(bob),
        }
    finally:
        await running.stop()


async def test_a_table_is_reached_from_its_own_guild_only(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    other_guild = fake.add_guild("Elsewhere")
    other_channel = fake.add_text_channel(other_guild, "lounge")
    mallory = fake.add_user("Mallory", admin=True)  # Manage Server everywhere
    running = RunningBot(fake, settings_for(str(tmp_path / "g.db")))
    bot = await running.start()
    try:
        table_id, lobby, table = await _started_table(
            fake, bot, games_channel, alice, guests=[bob], ais=0
        )
        # An admin of another server cannot abort it by number...
        inter = await fake.slash(mallory, other_channel, "table abort", {"table": table_id})
        await inter.wait_response()
        assert "no open table" in _text(inter)
        assert (await bot.store.get_table(table_id)).status == "active"
        assert table_id in bot.host.tables
        # ...nor can its host from there.
        inter = await fake.slash(alice, other_channel, "table abort", {"table": table_id})
        await inter.wait_response()
        assert "no open table" in _text(inter)
        assert (await bot.store.get_table(table_id)).status == "active"
        # A lobby button or Show-my-hand forged from another guild changes nothing.
        second_id, second_lobby = await _lobby(fake, games_channel, bob)
        before = await bot.store.get_seats(second_id)
        inter = await _forged_click(
            fake, mallory, second_lobby, f"th:l:{second_id}:join", other_channel
        )
        await inter.wait_response()
        assert "no such lobby" in _text(inter)
        assert await bot.store.get_seats(second_id) == before
        table_message = fake.message(await eventually(lambda: table.table_message_id))
        inter = await _forged_click(fake, alice, table_message, f"th:h:{table_id}", other_channel)
        await inter.wait_response()
        assert "no longer running" in _text(inter)
        # An id that is not on the message is answered too (discord.py would drop it).
        inter = await _forged_click(fake, alice, second_lobby, f"th:h:{table_id}")
        await inter.wait_response()
        assert "not valid any more" in _text(inter)
        # Table commands make no sense in DMs: Discord is told so (dm_permission false).
        commands = {c["name"]: c for c in fake.commands()}
        for name in (*GAME_NAMES, "table", "leaderboard"):
            assert commands[name].get("dm_permission") is False, name
        # The host, in the table's own guild, still can.
        inter = await fake.slash(alice, games_channel, "table abort", {"table": table_id})
        await inter.wait_response()
        assert "aborted" in _text(inter)
    finally:
        await running.stop()


async def test_forged_options_are_refused_by_the_server(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "o.db")))
    bot = await running.start()
    try:
        for group, options, words in (
            ("koikoi", {"turn_seconds": 1}, "between 15 and 3600"),
            ("koikoi", {"rounds": 7}, "not valid"),  # not a choice: discord.py refuses it
            ("panda", {"target": 50}, "between 100 and 10000"),
            ("sandayi", {"hands": 0}, "between 1 and 40"),
            ("mahjong", {"max_hands": -1}, "between 0 and 200"),
        ):
            inter = await _forged_slash(fake, alice, games_channel, group, "new", options)
            await inter.wait_response()
            assert words in _text(inter), (group, options, _text(inter))
            assert inter.callback.data.get("flags", 0) & 64  # ephemeral
        assert await bot.store.count_tables("lobby") == 0
    finally:
        await running.stop()


async def test_quotas_cooldown_and_lobby_expiry(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    fake = fake_discord
    settings = settings_for(
        str(tmp_path / "q.db"),
        max_lobbies_per_user=1,
        max_lobbies_per_guild=2,
        new_cooldown=0.0,
        lobby_ttl=600.0,
    )
    running = RunningBot(fake, settings)
    bot = await running.start()
    try:
        first, _ = await _lobby(fake, games_channel, alice)
        assert first is not None
        refused, inter = await _lobby(fake, games_channel, alice)
        assert refused is None and "open lobby" in _text(inter)
        second, _ = await _lobby(fake, games_channel, bob)
        assert second is not None
        carol = fake.add_user("Carol")
        refused, inter = await _lobby(fake, games_channel, carol)
        assert refused is None and "This server has 2 open lobbies" in _text(inter)
        assert await bot.store.count_tables("lobby") == 2
    finally:
        await running.stop()

    # The cooldown, and a lobby nobody starts closing itself (also after a restart).
    settings = settings_for(str(tmp_path / "c.db"), new_cooldown=60.0, lobby_ttl=1.0)
    running = RunningBot(fake, settings)
    bot = await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice)
        refused, inter = await _lobby(fake, games_channel, alice)
        assert refused is None and "try again in" in _text(inter)
        await fake.wait_until(
            lambda: (
                "Closed: nobody started" in (lobby.embeds[0].get("footer") or {}).get("text", "")
            ),
            timeout=10,
        )
        assert (await bot.store.get_table(table_id)).status == "aborted"
        assert all(c["disabled"] for c in find_components(lobby))
        assert not bot.host.board.lobby_locks
        assert not any(t.get_name().startswith("lobby-") for t in bot.host.ctx.scheduler.tasks())
    finally:
        await running.stop()


async def test_a_lobby_expires_after_a_restart_too(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "r.db"), lobby_ttl=3600.0))
    await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice)
        running.settings = settings_for(str(tmp_path / "r.db"), lobby_ttl=0.5)
        bot = await running.restart()
        await fake.wait_until(
            lambda: (
                "Closed: nobody started" in (lobby.embeds[0].get("footer") or {}).get("text", "")
            ),
            timeout=10,
        )
        assert (await bot.store.get_table(table_id)).status == "aborted"
    finally:
        await running.stop()


async def test_a_table_left_to_ais_ends_without_a_result(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    fake = fake_discord
    settings = settings_for(
        str(tmp_path / "a.db"), timeouts_before_ai=1, ai_only_grace=0.5, ai_delay=0.05
    )
    running = RunningBot(fake, settings)
    bot = await running.start()
    try:
        table_id, _, table = await _started_table(fake, bot, games_channel, alice)
        shorten_turns(table, 0.2)  # the command's minimum is 15 s
        await fake.wait_until(lambda: table.finished, timeout=30)
        assert (await bot.store.get_table(table_id)).status == "aborted"
        thread = table.thread_id
        await fake.wait_until(
            lambda: any("ended without a result" in m.content for m in fake.messages_in(thread))
        )
        assert table_id not in bot.host.tables
        assert await bot.store.leaderboard(table.guild_id, "koikoi") == []
    finally:
        await running.stop()


async def test_names_cannot_ping_and_every_message_says_whom_it_may_ping(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, bob: int
) -> None:
    fake = fake_discord
    eve = fake.add_user("@everyone <@" + str(bob) + "> **Eve**")
    running = RunningBot(fake, settings_for(str(tmp_path / "m.db")))
    bot = await running.start()
    try:
        table_id, lobby, table = await _started_table(fake, bot, games_channel, eve)
        assert table.seats[0].name == "everyone Eve"
        inter = await fake.slash(eve, games_channel, "table abort", {"table": table_id})
        await inter.wait_response()
        thread = table.thread_id
        await fake.wait_until(lambda: any("aborted" in m.content for m in fake.messages_in(thread)))
        posted = [
            m
            for ch in (games_channel, thread)
            for m in fake.messages_in(ch)
            if m.author_id == fake.bot_user_id
        ]
        assert posted
        for m in posted:
            assert m.allowed_mentions is not None, m.content
            assert "everyone" not in m.pinged and f"user:{bob}" not in m.pinged, m.content
        assert all("@everyone" not in m.content for m in posted)
    finally:
        await running.stop()


async def test_errors_are_answered_with_an_incident_id_and_change_nothing(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, monkeypatch
) -> None:
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "e.db")))
    bot = await running.start()
    try:
        table_id, lobby = await _lobby(fake, games_channel, alice)
        # An id that matches no template is answered, not left to fail.
        inter = await _forged_click(fake, alice, lobby, "th:x:garbage")
        await inter.wait_response()
        assert "not valid any more" in _text(inter)
        # A handler that raises: an apology with an incident id, nothing changed.
        seats_before = await bot.store.get_seats(table_id)

        async def broken(*args, **kwargs):
            raise RuntimeError("injected failure")

        monkeypatch.setattr(bot.host.lobby, "_on_lobby", broken)
        inter = await fake.click(alice, lobby, label="Add AI")
        await inter.wait_response()
        assert "incident `" in _text(inter)
        # The apology itself is private, wherever it came (the answer or a follow-up).
        callback_text = str(inter.callback.data.get("content") or "")
        if "incident `" in callback_text:
            assert inter.callback.data.get("flags", 0) & 64
        else:
            carriers = [m for m in inter.followups if "incident `" in m.content]
            assert carriers and all(m.ephemeral for m in carriers)
        assert await bot.store.get_seats(table_id) == seats_before
    finally:
        await running.stop()


async def test_a_failing_ai_falls_back_and_the_match_finishes(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, monkeypatch
) -> None:
    """The AI raises on every other call and the driver's step raises once: the match still
    ends (the human's seat is played by an AI after one timeout)."""
    fake = fake_discord
    settings = settings_for(
        str(tmp_path / "f.db"), timeouts_before_ai=1, ai_delay=0.0, ai_only_grace=3600.0
    )
    running = RunningBot(fake, settings)
    bot = await running.start()
    try:
        import dataclasses

        from bot.games import koikoi

        calls = {"n": 0}
        real_choose = koikoi.SPEC.choose

        def flaky_choose(view, legal, rng):
            calls["n"] += 1
            if calls["n"] % 2:
                raise RuntimeError("injected AI failure")
            return real_choose(view, legal, rng)

        # The host reaches a game through its spec: tables started from now on use this one.
        monkeypatch.setattr(koikoi, "SPEC", dataclasses.replace(koikoi.SPEC, choose=flaky_choose))
        real_step = bot.host.driver._drive_step
        failed = {"n": 0}

        async def step_failing_once(table):
            if failed["n"] == 0:
                failed["n"] += 1
                raise RuntimeError("injected driver failure")
            await real_step(table)

        monkeypatch.setattr(bot.host.driver, "_drive_step", step_failing_once)
        table_id, _, table = await _started_table(
            fake, bot, games_channel, alice, options={"rounds": 6}
        )
        shorten_turns(table, 0.1)
        await fake.wait_until(lambda: table.finished, timeout=120)
        assert (await bot.store.get_table(table_id)).status == "finished"
        assert failed["n"] == 1 and calls["n"] > 2
    finally:
        await running.stop()


async def test_closing_the_host_is_quick_even_with_busy_tables(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    import asyncio

    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "z.db")))
    bot = await running.start()
    try:
        for _ in range(3):
            _, _, table = await _started_table(fake, bot, games_channel, alice)
            # A table is in the host's map before its first messages are out and its driver
            # and updater are launched (under its lock): wait for them.
            await eventually(lambda table=table: bot.host.ctx.scheduler.table_tasks(table))
        tasks = [
            t
            for table in bot.host.tables.values()
            for t in bot.host.ctx.scheduler.table_tasks(table)
        ]
        assert len(tasks) >= 3
        # close() must return within its own bound (generously capped here, not timed).
        await asyncio.wait_for(bot.host.close(timeout=1.0), 30)
        assert all(t.done() for t in tasks)
    finally:
        await running.stop()


async def test_a_move_from_show_my_hand_retires_the_dm_controls(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """After a move made through the ephemeral hand, the DM no longer offers that decision,
    and the player's next decision, once she counts as away, arrives as a new DM (a
    notification), not an edit. (Attention span 0: every decision after another player's
    move finds her away; a player who keeps playing gets edits, see test_attention_e2e.)"""
    import random

    from tests.e2e.teahouse import action_components, click_legal_action, next_decision, settled

    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "h.db"), attention_seconds=0.0))
    bot = await running.start()
    try:
        table_id, _, table = await _started_table(fake, bot, games_channel, alice)
        rng = random.Random(14)
        _, (dm, _) = await eventually(lambda: next_decision(fake, table, [alice]))
        old_version = table.prompts[table.seat_of(alice).seat].version
        table_message = fake.message(table.table_message_id)
        shown = await fake.click(alice, table_message, label="Show my hand")
        await shown.wait_response()
        private = (await eventually(lambda: shown.followups))[0]
        seat = table.seat_of(alice).seat

        async def legal_click(message, comps):
            legal = table.state.legal_actions(seat)
            return await click_legal_action(
                fake, alice, message, comps, legal, rng, state=table.state, seat=seat
            )

        known = {m.id for m in fake.dms(alice)}  # Alice's DMs before her move
        inter = await legal_click(private, action_components(private))
        await inter.wait_response()
        await eventually(lambda: table.state.version > old_version and settled(table))

        def stamped(version: int) -> list[dict]:
            return [
                c
                for m in fake.dms(alice)
                for c in action_components(m)
                if int(c["custom_id"].split(":")[4]) == version
            ]

        await eventually(lambda: not stamped(old_version))
        # Play on by DM until someone else has moved and it is Alice's decision again: that
        # decision must come as a new DM (a notification), not as an edit of the old one.
        moved_at = old_version
        while True:
            _, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice]))
            others = [s for s, _ in table.state.log[moved_at:] if s != seat]
            if others:
                assert message.id not in known  # a new message, not an edit of an old one
                break
            moved_at = table.state.version
            known = {m.id for m in fake.dms(alice)}
            await (await legal_click(message, comps)).wait_response()
            await eventually(lambda v=moved_at: table.state.version > v and settled(table))
    finally:
        await running.stop()


async def test_after_a_restart_the_latest_dm_controls_work_at_once(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    """Tables are replayed in the background after a restart; a click on the controls a
    player already holds replays its table at once and is taken (no need to wait for the
    fresh DMs, which follow when the REST budget has room)."""
    import random

    from tests.e2e.teahouse import click_legal_action, next_decision

    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "s.db")))
    bot = await running.start()
    try:
        table_id, _, table = await _started_table(
            fake, bot, games_channel, alice, guests=[bob], ais=0
        )
        user, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice, bob]))
        seat = table.seat_of(user).seat
        legal = table.state.legal_actions(seat)
        state, version = table.state, table.state.version
        bot = await running.restart()
        inter = await click_legal_action(
            fake, user, message, comps, legal, random.Random(1), state=state, seat=seat
        )
        await inter.wait_response()
        assert "out of date" not in _text(inter)
        restored = await eventually(lambda: bot.host.tables.get(table_id))
        await eventually(lambda: restored.state.version > version)
        assert len(await bot.store.actions(table_id)) == version + 1
    finally:
        await running.stop()


async def test_dms_after_a_click_go_through_the_interaction(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """A player's next decision (and edits of it) is sent through their last DM click's
    interaction token, which Discord does not count against the bot's REST budget. (With
    an attention span of 0 every decision after the AI's move is a new message: those go
    through the token too.)"""
    import random

    from tests.e2e.teahouse import click_legal_action, next_decision, settled

    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "w.db"), attention_seconds=0.0))
    bot = await running.start()
    try:
        _, _, table = await _started_table(fake, bot, games_channel, alice)
        seat = table.seat_of(alice).seat
        rng = random.Random(3)
        thread = table.thread_id
        posted_before: set[int] = set()
        for n in range(7):
            _, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice]))
            if n == 1:
                # From Alice's first click on, her DMs can go through her interaction.
                posted_before = {m.id for m in fake.messages_in(thread)}
                fake.ratelimits.reset_counters()
                fake.plain_edits.clear()
            version = table.state.version
            legal = table.state.legal_actions(seat)
            inter = await click_legal_action(
                fake, alice, message, comps, legal, rng, state=table.state, seat=seat
            )
            await inter.wait_response()
            await eventually(lambda v=version: table.state.version > v and settled(table))
        exempt = fake.ratelimits.exempt_calls
        assert exempt.get("POST /webhooks/{app}/{token}", 0) >= 1, dict(exempt)
        # No DM went out as a plain (counted) message: every counted POST was a thread post.
        thread_posts = [m for m in fake.messages_in(thread) if m.id not in posted_before]
        counted = fake.ratelimits.calls.get("POST /channels/{cid}/messages", 0)
        assert counted == len(thread_posts), (counted, len(thread_posts))
        # ...and those DMs carry working controls: the loop above clicked them.
        assert table.seats[seat].token is not None
        # Nor was any of Alice's DMs edited plainly since her first click: even the first
        # DM, sent plainly before she had clicked anything, is edited through her click on it.
        plain = {m.id for m in fake.dms(alice) if fake.plain_edits[m.id]}
        assert not plain, [(m, fake.plain_edits[m]) for m in plain]
    finally:
        await running.stop()


async def test_after_a_restart_a_player_whose_dm_never_came_gets_it_first(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int
) -> None:
    """If the process died between storing an action and sending the next player's DM,
    that player has no controls to act from: after the restart their DM goes first, before
    the restart notice (the other players' fresh DMs wait for spare budget after it)."""
    import random
    import sqlite3

    from tests.e2e.teahouse import action_components, next_decision, play_next_decision

    fake = fake_discord
    database = str(tmp_path / "behind.db")
    running = RunningBot(fake, settings_for(database))
    bot = await running.start()
    try:
        table_id, _, table = await _started_table(
            fake, bot, games_channel, alice, guests=[bob], ais=0
        )
        rng = random.Random(5)
        for _ in range(2):  # a couple of moves in
            await play_next_decision(fake, table, [alice, bob], rng)
        user, _ = await eventually(lambda: next_decision(fake, table, [alice, bob]))
        seat = table.seat_of(user).seat
        # The DM of that decision was stored as sent for it.
        stored = (await bot.store.get_seats(table_id))[seat]
        assert stored.dm_decision == table.decision_fingerprint(seat)
        other = bob if user == alice else alice
        await running.stop()
        # Now as if it had never been sent: the stored DM is one of another decision.
        with sqlite3.connect(database) as db:
            db.execute(
                "UPDATE seats SET dm_decision = ? WHERE table_id = ? AND seat = ?",
                (stored.dm_decision + 1, table_id, seat),
            )
        known = {m.id for u in (alice, bob) for m in fake.dms(u)}
        bot = await running.start()
        thread = table.thread_id

        def notice():
            return next((m for m in fake.messages_in(thread) if "restarted" in m.content), None)

        def fresh(u: int):
            return [m for m in fake.dms(u) if m.id not in known]

        posted = await eventually(notice)
        await eventually(lambda: fresh(user) and fresh(other))
        # Snowflakes grow with time: the behind player's DM came before the notice, the
        # other player's after it.
        assert fresh(user)[0].id < posted.id < fresh(other)[0].id
        restored = bot.host.tables[table_id]
        assert not restored.dm_behind(restored.seats[seat])
        # ...and it carries the controls of the decision.
        assert action_components(fresh(user)[0])
    finally:
        await running.stop()


async def test_the_dm_of_a_decision_made_in_steps_is_current_after_a_restart(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """Panda's pass is three steps of one decision, and each step edits the player's DM
    with the next step's controls. The DM is stored as offering the current step, so after
    a restart it is not taken for a DM sent for another decision (that one would be sent
    again, at a decision's priority, ahead of every other table's)."""
    import random

    from tests.e2e.teahouse import click_legal_action, next_decision, settled

    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "steps.db")))
    bot = await running.start()
    try:
        table_id, _, table = await _started_table(
            fake, bot, games_channel, alice, ais=3, game="panda"
        )
        _, (message, comps) = await eventually(lambda: next_decision(fake, table, [alice]))
        seat = table.seat_of(alice).seat
        first = table.decision_fingerprint(seat)
        version = table.state.version
        inter = await click_legal_action(
            fake,
            alice,
            message,
            comps,
            table.state.legal_actions(seat),
            random.Random(2),
            state=table.state,
            seat=seat,
        )
        await inter.wait_response()
        await eventually(lambda: table.state.version > version and settled(table))
        assert seat in table.state.to_act  # the next step of her pass
        now = table.decision_fingerprint(seat)
        assert now != first

        async def stored_decision() -> int | None:
            return (await bot.store.get_seats(table_id))[seat].dm_decision

        for _ in range(200):
            if await stored_decision() == now:
                break
            await asyncio.sleep(0.02)
        assert await stored_decision() == now
        bot = await running.restart()
        restored = await eventually(lambda: bot.host.tables.get(table_id))
        assert not restored.dm_behind(restored.seats[seat])
    finally:
        await running.stop()
