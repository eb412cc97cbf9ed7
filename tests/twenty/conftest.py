"""Twenty's tests run the bot against the fake Discord of tests/e2e (its fixtures and
markers), with Twenty registered for each test."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import (  # noqa: F401  (fixtures and hooks, re-exported for pytest)
    alice,
    bob,
    fake_discord,
    games_channel,
    guild_id,
    pytest_configure,
)
from tests.twenty.registration import register


@pytest.fixture(autouse=True)
def twenty_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)
