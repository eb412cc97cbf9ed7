"""The bot token's REST budget split between processes: a process running k of n shards
takes k/n of ``TEAHOUSE_REST_BUDGET`` unless ``TEAHOUSE_REST_SHARE`` names its own share."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings
from tests.host.offline import offline_host

BASE = {"DISCORD_TOKEN": "t"}


def _budget(**env: str) -> float:
    return Settings.from_env({**BASE, **env}).rest_budget


def test_one_process_running_every_shard_takes_the_whole_budget() -> None:
    assert _budget() == 45.0
    assert _budget(TEAHOUSE_REST_BUDGET="400") == 400.0
    assert _budget(TEAHOUSE_SHARD_COUNT="4") == 45.0  # no TEAHOUSE_SHARDS: all four
    assert _budget(TEAHOUSE_SHARD_COUNT="4", TEAHOUSE_SHARDS="0-3") == 45.0


@pytest.mark.parametrize(
    ("count", "ranges"),
    [(2, ["0", "1"]), (4, ["0", "1-3"]), (5, ["0,1", "2", "3-4"]), (8, ["0-2", "3-5", "6,7"])],
)
def test_processes_splitting_the_shards_stay_within_the_tokens_budget(
    count: int, ranges: list[str]
) -> None:
    shares = [
        _budget(TEAHOUSE_REST_BUDGET="50", TEAHOUSE_SHARD_COUNT=str(count), TEAHOUSE_SHARDS=r)
        for r in ranges
    ]
    assert sum(shares) == pytest.approx(50.0)
    for share, r in zip(shares, ranges, strict=True):
        shards = len(
            Settings.from_env(
                {**BASE, "TEAHOUSE_SHARD_COUNT": str(count), "TEAHOUSE_SHARDS": r}
            ).shard_ids
            or []
        )
        assert share == pytest.approx(50.0 * shards / count)


def test_an_explicit_share_overrides_the_split() -> None:
    env = {"TEAHOUSE_SHARD_COUNT": "2", "TEAHOUSE_SHARDS": "0", "TEAHOUSE_REST_SHARE": "30"}
    assert _budget(**env) == 30.0
    assert _budget(TEAHOUSE_SHARD_COUNT="2", TEAHOUSE_SHARDS="0") == 22.5


@pytest.mark.parametrize("name", ["TEAHOUSE_REST_BUDGET", "TEAHOUSE_REST_SHARE"])
def test_a_budget_of_nothing_is_refused(name: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({**BASE, name: "0"})
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({**BASE, name: "-5"})


async def test_the_host_spends_its_processs_share(tmp_path) -> None:
    host = await offline_host(
        str(tmp_path / "db.sqlite"), token_rest_budget=60.0, shard_count=3, shards="1-2"
    )
    try:
        assert host.budget.rate == pytest.approx(40.0)
    finally:
        await host.close()
        await host.store.close()
