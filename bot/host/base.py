"""What every part of the host shares: the bot, the store, the settings, the running tables,
the REST budget, the render slots and the scheduler.

:class:`HostContext` is handed to each part of :class:`~bot.host.manager.TableHost` in its
constructor (no part inherits from another); it holds no behaviour of theirs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.host.budget import Priority, RestBudget, Slots, gate_requests
from bot.host.lag import LoopWatch
from bot.host.locales import LocaleMemory
from bot.host.scheduler import Scheduler
from bot.host.table import Seat, Table
from bot.i18n import DEFAULT_LOCALE
from bot.render.pipes import PipePool
from bot.render.worker import RENDER_DEPTH, default_render_processes
from bot.render.worker import pool as render_pool
from bot.store import Store

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")


async def draw_on_request(bot: Any, fn: Callable[..., T], *args: Any) -> T:
    """:meth:`HostContext.draw_on_request` through the bot's host (cogs' pictures); a bot
    without one (a stand-in in tests) draws in the render pool directly."""
    draw: Callable[..., Awaitable[T]] | None = getattr(
        getattr(bot, "host", None), "draw_on_request", None
    )
    if draw is not None:
        return await draw(fn, *args)
    processes = getattr(getattr(bot, "settings", None), "render_processes", None)
    return await asyncio.get_running_loop().run_in_executor(render_pool(processes), fn, *args)


class HostContext:
    def __init__(self, bot: discord.Client, store: Store, settings: Settings) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
        #: Tables this process holds in memory: driven here, or a cache serving clicks.
        self.tables: dict[int, Table] = {}
        #: The host's timers and background tasks (see bot.host.scheduler).
        self.scheduler = Scheduler()
        self.budget = rest_budget(settings)
        #: Whether the event loop keeps up (background work waits while it does not).
        self.loop_watch = LoopWatch()
        if hasattr(bot, "http"):  # (not the offline tests' stand-in)
            gate_requests(bot.http, self.budget)
        # Render threads (no worker processes: see ``in_render_pool``) take as many
        # renders at once as workers would hold; the rest wait here by priority.
        workers = settings.render_processes
        if workers is None:
            workers = default_render_processes()
        self.render_slots = Slots(RENDER_DEPTH * max(1, workers))
        #: This process's name on the table leases it holds (see bot.host.cluster): its
        #: lasting name (``lineage``, shared with its earlier runs) and this run's own part.
        self.lineage = process_lineage(settings)
        self.owner = f"{self.lineage}{os.getpid()}:{secrets.token_hex(4)}"
        #: Each user's language as of their last interaction (their DMs are written in it).
        self.locales = LocaleMemory(store)
        add_listener = getattr(bot, "add_listener", None)
        if add_listener is not None:  # every interaction, whichever cog answers it
            add_listener(self._interaction_seen, "on_interaction")

    @property
    def closing(self) -> bool:
        """The host is closing: nothing new is worth starting."""
        return self.scheduler.closing

    async def _interaction_seen(self, interaction: discord.Interaction) -> None:
        self.remember_locale(interaction)

    async def in_render_pool(self, priority: Priority, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the render pool; while it is full, jobs of a more urgent
        ``priority`` go first (a decision's hand picture before table pictures)."""
        pool = render_pool(self.settings.render_processes)
        if isinstance(pool, PipePool):  # (it queues by rank itself, with no loop turn)
            return await asyncio.wrap_future(pool.submit_ranked(int(priority), fn, *args))
        await self.render_slots.acquire(priority)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        finally:
            self.render_slots.release()

    async def draw_on_request(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the render pool at the lowest priority (``BACKGROUND``): a
        picture someone asked for outside a game — a replay's step, a leaderboard, stats —
        waits behind the decisions' and the tables' pictures, never in front of them."""
        return await self.in_render_pool(Priority.BACKGROUND, fn, *args)

    def remember_locale(self, interaction: Any) -> str:
        """Remember the language of the user behind ``interaction`` (written to the store
        only when it changed); returns it, normalised."""
        user = getattr(interaction, "user", None)
        locale = getattr(interaction, "locale", None)
        if user is None:
            return DEFAULT_LOCALE
        return self.locales.remember(user.id, locale)

    def seat_locale(self, seat: Seat) -> str:
        """The language of the seat's player (their DMs): their last interaction's, English
        if unknown."""
        return self.locales.get(seat.user_id) or DEFAULT_LOCALE

    def channel(self, channel_id: int | None) -> Any:
        """A channel to send to, without a lookup request."""
        if channel_id is None:
            return None
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    def turn_seconds(self, table: Table) -> float:
        """The time for the decisions pending now: the claim window's, or the table's turn
        (each the table's option, else the server's setting)."""
        if table.in_answer_phase():
            return float(table.options.get("claim_seconds") or self.settings.claim_seconds)
        return float(table.options.get("turn_seconds") or self.settings.turn_seconds)

    def evict(self, table: Table) -> None:
        """Forget a finished table (its messages are final; a click on them finds the table
        finished in the store and is refused) and stop its updater and driver."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self.scheduler.cancel_table(table)

    def table_in_channel(self, channel_id: int | None) -> int | None:
        for table in self.tables.values():
            if channel_id in (table.thread_id, table.channel_id) and not table.finished:
                return table.id
        return None


def rest_budget(settings: Settings) -> RestBudget:
    """This process's REST budget: with ``TEAHOUSE_REDIS_URL``, the token's whole budget
    drawn live from the bucket all its processes share (its static share only while Redis
    does not answer); without, its static share (``Settings.rest_budget``)."""
    if settings.redis_url is None:
        return RestBudget(settings.rest_budget)
    from bot.host.shared_budget import SharedBucket

    rate = settings.token_rest_budget
    shared = SharedBucket(
        settings.redis_url, settings.token, rate, max(1.0, rate * RestBudget.SHARED_BURST_SECONDS)
    )
    return RestBudget(rate, shared=shared, fallback_rate=settings.rest_budget)


def process_lineage(settings: Settings) -> str:
    """The prefix of every lease owner name this process has used, run after run: the
    configured process name, else the host and the shards it runs. A restarted process
    takes back its previous run's leases at once (see ``Store.claim_free_leases``)."""
    name = settings.process_name or f"{socket.gethostname()}/shards {settings.shards or 'all'}"
    return f"{name}#"
