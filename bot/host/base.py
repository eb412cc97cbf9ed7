"""What every part of the host shares: the bot, the store, the settings, the running tables,
the REST budget and the render slots.

:class:`~bot.host.manager.TableHost` is assembled from one mixin per concern (lobby, start
and restore, clicks, driver, presenter, finish, cluster); each subclasses :class:`HostBase`,
so the state they share is declared here once.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

import discord

from bot.host.budget import RestBudget, Slots
from bot.host.table import Table
from bot.store import Store

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)


class HostBase:
    def __init__(self, bot: discord.Client, store: Store, settings: Settings) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
        #: Tables this process holds in memory: driven here, or a cache serving clicks.
        self.tables: dict[int, Table] = {}
        self._lobby_locks: dict[int, asyncio.Lock] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        self._last_new: dict[int, float] = {}  # user id -> monotonic time of their last /new
        self._closing = False
        self.budget = RestBudget(settings.rest_budget)
        # As many renders at once as the pool has workers; the rest wait by priority.
        workers = settings.render_processes
        if workers is None:
            workers = max(1, (os.cpu_count() or 2) - 1)
        self.render_slots = Slots(max(1, workers))
        #: Active tables a restart left to replay (row by id), and replays under way.
        self._pending: dict[int, Any] = {}
        self._restoring: dict[int, asyncio.Task[Table | None]] = {}
        self._restore_task: asyncio.Task[int] | None = None
        #: Tables being loaded only to serve a click (another process drives them).
        self._serve_only: set[int] = set()

    def _channel(self, channel_id: int | None) -> Any:
        """A channel to send to, without a lookup request."""
        if channel_id is None:
            return None
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    def _turn_seconds(self, table: Table) -> float:
        """The time for the decisions pending now: the claim window's, or the table's turn."""
        if table.in_answer_phase():
            return self.settings.claim_seconds
        return float(table.options.get("turn_seconds") or self.settings.turn_seconds)
