"""A TableHost without Discord, on a real store: no channel is found, nothing is sent, no
image is drawn. For host tests that need the game flow and the store, not the messages."""

from __future__ import annotations

from typing import Any

from bot.config import Settings
from bot.host.manager import TableHost
from bot.store import Store


class NoDiscord:
    """The few bot methods the host calls when it has nothing to send to."""

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> None:
        return None

    async def wait_until_ready(self) -> None:
        return None


async def offline_host(path: str, **settings: Any) -> TableHost:
    store = await Store.open(path)
    host = TableHost(NoDiscord(), store, Settings(token="t", database=path, **settings))  # type: ignore[arg-type]

    async def no_image(*args: Any, **kwargs: Any) -> None:
        return None

    host._render = no_image  # type: ignore[method-assign]
    return host
