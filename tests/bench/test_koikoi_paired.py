"""``python -m bench.koikoi_paired``: variants on the same arena deals, settings restored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import koikoi_paired
from bench.arena import play_deal
from bot.games.koikoi import judge


def test_a_variant_plays_the_arenas_deals_and_the_settings_are_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "paired.json"
    koikoi_paired.main(
        ["normal", "greedy", "2", "7", "--base", "bot.games.koikoi.judge.WHOLE_ROUND=False"]
        + ["--new", "--new", "bot.games.koikoi.judge.RISK=0.0", "--json", str(out)]
    )
    assert judge.WHOLE_ROUND is True and judge.RISK == 1.0
    rows = json.loads(out.read_text())["per_deal"]
    assert [r[0] for r in rows] == [0, 1]
    for deal, _, as_is, *_ in rows:
        assert as_is == play_deal(("koikoi", "normal", "greedy", "7", deal, {})).win
    assert "paired new-base" in capsys.readouterr().out
