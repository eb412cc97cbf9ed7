"""Languages without Discord: each user's last locale remembered (in memory on the click path,
written to the store only when it changed) and read back after a restart; a table's
language kept with it; what the host says in each of them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.engine.ui import Button, Controls, Option, Select
from bot.host.components import controls_view, lobby_view, table_view
from bot.host.locales import LocaleMemory
from bot.host.options import shown_options
from bot.host.replies import say
from bot.i18n import Text
from bot.store import SeatRow, Store
from tests.host.offline import Click, offline_host, until


class CountingStore:
    """A store that counts the languages it is asked to read and write."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads: list[set[int]] = []
        self.writes: list[dict[int, str]] = []

    async def user_locales(self, user_ids: Any) -> dict[int, str]:
        ids = set(user_ids)
        self.reads.append(ids)
        return await self.store.user_locales(ids)

    async def set_user_locales(self, locales: dict[int, str]) -> None:
        self.writes.append(dict(locales))
        await self.store.set_user_locales(locales)


async def _settled(memory: LocaleMemory) -> None:
    await memory.flush(timeout=10)


async def test_an_unchanged_locale_costs_no_database_round_trip(tmp_path) -> None:
    store = await Store.open(str(tmp_path / "l.db"))
    counting = CountingStore(store)
    memory = LocaleMemory(counting)  # type: ignore[arg-type]
    try:
        assert memory.remember(1, "ja") == "ja"
        assert memory.get(1) == "ja"  # at once, before the write
        await _settled(memory)
        assert counting.writes == [{1: "ja"}]
        for _ in range(50):  # clicks in the same language: nothing to read or write
            memory.remember(1, "ja")
        await _settled(memory)
        assert counting.writes == [{1: "ja"}] and counting.reads == []
        # A new language is written, and several users' changes go in one write.
        memory.remember(1, "ko")
        memory.remember(2, "zh-TW")
        await _settled(memory)
        assert counting.writes[1:] == [{1: "ko", 2: "zh-TW"}]
        assert await store.user_locales([1, 2]) == {1: "ko", 2: "zh-TW"}
    finally:
        await store.close()


async def test_locales_are_normalised(tmp_path) -> None:
    store = await Store.open(str(tmp_path / "l.db"))
    memory = LocaleMemory(store)
    try:
        japanese = SimpleNamespace(value="ja")  # a discord.Locale
        assert memory.remember(1, japanese) == "ja"
        assert memory.remember(2, "en-GB") == "en-US"
        assert memory.remember(3, "fr") == "en-US"
        assert memory.remember(4, None) == "en-US"
        await _settled(memory)
        assert await store.user_locales([1, 2, 3, 4]) == {
            1: "ja",
            2: "en-US",
            3: "en-US",
            4: "en-US",
        }
    finally:
        await store.close()


async def test_a_restarted_process_reads_the_remembered_locales(tmp_path) -> None:
    path = str(tmp_path / "l.db")
    store = await Store.open(path)
    memory = LocaleMemory(store)
    memory.remember(1, "zh-CN")
    await _settled(memory)
    await store.close()

    store = await Store.open(path)
    counting = CountingStore(store)
    memory = LocaleMemory(counting)  # type: ignore[arg-type]
    try:
        assert memory.get(1) is None
        await memory.load([1, 2, None])
        assert memory.get(1) == "zh-CN" and memory.get(2) is None
        await memory.load([1])  # known: not read again
        assert counting.reads == [{1, 2}]
        await memory.load([1], refresh=True)  # another process may have seen them since
        assert counting.reads[-1] == {1}
    finally:
        await store.close()


async def test_the_cache_is_bounded_and_forgets_the_least_recently_seen(tmp_path) -> None:
    store = await Store.open(str(tmp_path / "l.db"))
    memory = LocaleMemory(store, limit=3)
    try:
        for user in (1, 2, 3):
            memory.remember(user, "ja")
        memory.remember(1, "ja")  # seen again: the most recent
        memory.remember(4, "ko")
        assert [memory.get(u) for u in (1, 2, 3, 4)] == ["ja", None, "ja", "ko"]
        await _settled(memory)
        assert await store.user_locales([2]) == {2: "ja"}  # the store still knows
    finally:
        await store.close()


async def test_a_failed_write_is_tried_again_at_the_next_interaction(tmp_path) -> None:
    store = await Store.open(str(tmp_path / "l.db"))
    calls = []

    class Failing:
        async def set_user_locales(self, locales: dict[int, str]) -> None:
            calls.append(dict(locales))
            if len(calls) == 1:
                raise RuntimeError("database away")
            await store.set_user_locales(locales)

    memory = LocaleMemory(Failing())  # type: ignore[arg-type]
    try:
        memory.remember(1, "ja")
        await _settled(memory)
        assert memory.get(1) is None  # not remembered in the store: not here either
        memory.remember(1, "ja")
        await _settled(memory)
        assert calls == [{1: "ja"}, {1: "ja"}]
        assert await store.user_locales([1]) == {1: "ja"}
    finally:
        await store.close()


async def _table_row(host: Any, locale: str) -> int:
    table_id = await host.store.create_table(
        guild_id=1, channel_id=2, game="koikoi", options={}, seed="s", host_id=7, locale=locale
    )
    await host.store.set_seats(
        table_id,
        [
            SeatRow(seat=0, user_id=7, name="Aiko", dms_closed=True),
            SeatRow(seat=1, user_id=8, name="Bora", dms_closed=True),
        ],
    )
    assert await host.store.transition(table_id, ("lobby",), "active")
    return table_id


async def test_a_table_keeps_its_language_across_a_restart_and_its_players_theirs(
    tmp_path,
) -> None:
    path = str(tmp_path / "t.db")
    host = await offline_host(path, process_name="same")
    table_id = await _table_row(host, "ja")
    click = Click(7)
    click.locale = "ko"  # type: ignore[attr-defined]
    assert host.remember_locale(click) == "ko"
    await host.close()
    await host.store.close()

    host = await offline_host(path, process_name="same")  # the next run of that process
    try:
        table = await host.table(table_id)
        assert table is not None and table.locale == "ja"
        # The players' languages were read with the table: DMs need no lookup.
        assert [host.seat_locale(s) for s in table.seats] == ["ko", "en-US"]
        status = host.presenter._status_text(table)
        assert status.startswith("**こいこい** · 卓 #") and "の番" in status
        # Seat 0 reads Korean, whatever the table speaks.
        assert "코이코이" in host.presenter.hand_content(
            table, table.seats[0], host.seat_locale(table.seats[0])
        )
        assert host.presenter.hand_content(table, table.seats[1]).startswith("**Koi-Koi**")
    finally:
        await host.close()
        await host.store.close()


async def test_an_unknown_player_reads_english(tmp_path) -> None:
    host = await offline_host(str(tmp_path / "t.db"))
    try:
        table = await host.table(await _table_row(host, "zh-TW"))
        assert table is not None
        assert host.seat_locale(table.seats[1]) == "en-US"
        assert host.seat_locale(SimpleNamespace(user_id=None)) == "en-US"  # type: ignore[arg-type]
    finally:
        await host.close()
        await host.store.close()


async def test_a_click_remembers_its_locale_before_anything_else(tmp_path) -> None:
    host = await offline_host(str(tmp_path / "t.db"))
    try:
        table_id = await _table_row(host, "en-US")
        click = Click(8)
        click.locale = "zh-CN"  # type: ignore[attr-defined]
        # A click for a seat that is not the clicker's: refused, in the clicker's language.
        await host.guarded(click, "action", table_id, host.on_action(click, table_id, 0, 0, "x"))
        assert host.locales.get(8) == "zh-CN"
        assert click.answers == ["这些按钮属于另一位玩家。"]
        await until(lambda: not host.locales._pending)
        await host.locales.flush()
        assert await host.store.user_locales([8]) == {8: "zh-CN"}
    finally:
        await host.close()
        await host.store.close()


def test_private_answers_are_said_in_the_clicks_language() -> None:
    click = SimpleNamespace(locale=SimpleNamespace(value="ja"))
    assert say(click, Text("It is not your turn.")) == "あなたの番ではありません。"
    assert say(click, Text("It is not your turn."), prefix="⚠️ ") == "⚠️ あなたの番ではありません。"
    assert say(click, "Plain words stay as they are") == "Plain words stay as they are"
    english = SimpleNamespace(locale="en-GB")
    assert say(english, Text("It is not your turn.")) == "It is not your turn."


def _labels(view: Any) -> list[str]:
    out = []
    for item in view.children:
        inner = getattr(item, "item", item)
        if getattr(inner, "label", None):
            out.append(inner.label)
        if getattr(inner, "placeholder", None):
            out.append(inner.placeholder)
        out += [o.label for o in getattr(inner, "options", [])]
        out += [o.description for o in getattr(inner, "options", []) if o.description]
    return out


def test_components_speak_the_language_they_are_built_for() -> None:
    assert _labels(lobby_view(1)) == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    assert _labels(lobby_view(1, locale="ja")) == ["参加", "抜ける", "AIを追加", "開始", "中止"]
    assert _labels(table_view(1, "zh-TW")) == ["查看我的手牌", "觀戰"]
    assert _labels(table_view(1, "ko")) == ["내 패 보기", "관전"]
    # The game's words (Text) are said in the view's language; codes never change.
    controls = Controls(
        prompt=Text("It is not your turn."),
        rows=(
            (Button(Text("Show the hint"), "go"),),
            Select(
                "play",
                Text("Choose an action ({first}–{last})", first=1, last=2),
                (Option(Text("Hint", context="button"), "a", Text("Spectate")), Option("b", "b")),
            ),
        ),
    )
    view = controls_view(1, 0, 3, controls, hint=True, locale="ja")
    assert _labels(view) == [
        "ヒントを見る",
        "行動を選ぶ（1–2）",
        "ヒント",
        "b",
        "観戦",
        "ヒント（レート対象外）",
    ]
    ids = sorted(getattr(i, "custom_id", "") or i.item.custom_id for i in view.children)
    english = controls_view(1, 0, 3, controls, hint=True)
    assert ids == sorted(getattr(i, "custom_id", "") or i.item.custom_id for i in english.children)
    assert _labels(english) == [
        "Show the hint",
        "Choose an action (1–2)",
        "Hint",
        "b",
        "Spectate",
        "Hint (unrated)",
    ]


def test_the_lobby_options_name_options_in_ascii_and_say_values_in_the_language() -> None:
    options = {"rounds": 6, "hints": True}
    assert shown_options(options) == "rounds: 6, hints: on"
    assert shown_options(options, "ja") == "rounds: 6, hints: オン"
    assert shown_options({"hints": False}, "zh-CN") == "hints: 关闭"
    assert shown_options({"hints": True, "hinted": [0]}, "ko") == "hints: 사용됨 (레이팅 미반영)"


async def test_the_driving_process_learns_a_language_seen_by_another(tmp_path) -> None:
    """A click served by another process (with the player's new language) reaches the
    process driving the table with the move, the player's stored language with it (in the
    same read): its next DM to that player uses it."""
    path = str(tmp_path / "shared.db")
    a, b = await offline_host(path), await offline_host(path)
    try:
        table_id = await _table_row(a, "ja")
        ta, tb = await a.table(table_id), await b.table(table_id)
        assert ta is not None and tb is not None
        ta.driven = True  # A drives the table; B only serves clicks
        seat = tb.state.to_act[0]
        user = tb.seats[seat].user_id
        assert user is not None and a.seat_locale(ta.seats[seat]) == "en-US"
        click = Click(user)
        click.locale = "ko"  # type: ignore[attr-defined]
        b.remember_locale(click)
        await b.locales.flush()
        async with tb.lock:
            await b.log.commit(tb, seat, tb.state.legal_actions(seat)[0], "player")
        reads: list[object] = []
        read_locales = a.store.user_locales

        async def counted(users: object) -> object:
            reads.append(users)
            return await read_locales(users)  # type: ignore[arg-type]

        a.store.user_locales = counted  # type: ignore[method-assign]
        async with ta.lock:
            assert await a.log.sync_with_log(ta)
        assert a.seat_locale(ta.seats[seat]) == "ko"
        assert reads == []  # (it came with the move)
    finally:
        for host in (a, b):
            await host.close()
            await host.store.close()
