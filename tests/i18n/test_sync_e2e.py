"""The real bot's command sync over the fake Discord carries the localisations."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import fake_discord  # noqa: F401  (the fixture)
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import RunningBot, settings_for

pytestmark = pytest.mark.asyncio


async def test_synced_commands_carry_their_translations(
    fake_discord: FakeDiscord,  # noqa: F811
    tmp_path,
) -> None:
    running = RunningBot(fake_discord, settings_for(str(tmp_path / "i18n.db")))
    await running.start()
    try:
        synced = {c["name"]: c for c in fake_discord.commands()}
    finally:
        await running.stop()
    koikoi = synced["koikoi"]
    assert koikoi["description_localizations"]["ja"] == "こいこい（花札・2人）"
    assert koikoi["description_localizations"]["ko"] == "코이코이 (화투, 2인)"
    assert not koikoi.get("name_localizations")  # names stay ASCII
    new = next(o for o in koikoi["options"] if o["name"] == "new")
    assert new["description_localizations"]["zh-TW"] == "在本頻道開一桌 Koi-Koi"
    rounds = next(o for o in new["options"] if o["name"] == "rounds")
    assert [c["name_localizations"]["ja"] for c in rounds["choices"]] == ["6回戦", "12回戦"]
    game = synced["rules"]["options"][0]
    names = {c["value"]: c["name_localizations"] for c in game["choices"]}
    assert names["mahjong"] == {"ja": "麻雀", "zh-CN": "麻将", "zh-TW": "麻將", "ko": "마작"}
    # Every synced command has its description in the four languages.
    for name, command in synced.items():
        assert set(command["description_localizations"]) == {"ja", "zh-CN", "zh-TW", "ko"}, name
