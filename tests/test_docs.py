"""docs/: every game has its complete rules, naming every table option, and /rules finds
them at run time."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.games import GAME_NAMES, game_module
from cogs.rules import full_rules_path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_has_its_rules_naming_every_option(game: str) -> None:
    path = DOCS / "rules" / f"{game}.md"
    text = path.read_text(encoding="utf-8")
    options = [f.name for f in dataclasses.fields(game_module(game).OPTIONS)]
    assert options
    missing = [name for name in [*options, "turn_seconds", "hints"] if f"`{name}`" not in text]
    assert missing == [], f"{path.name} does not mention {missing}"
    assert "Teahouse's ruling" in text


@pytest.mark.parametrize("game", GAME_NAMES)
def test_rules_command_finds_the_complete_rules(game: str) -> None:
    assert full_rules_path(game) == DOCS / "rules" / f"{game}.md"


def test_architecture_document_exists() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for part in ("bot/engine", "bot/host", "bot/store", "tests/e2e"):
        assert part in text
