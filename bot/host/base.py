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
import secrets
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.host.budget import Priority, RestBudget, Slots, gate_requests
from bot.host.lag import LoopWatch
from bot.host.locales import LocaleMemory
from bot.host.table import Seat, Table
from bot.i18n import DEFAULT_LOCALE
from bot.render.pipes import PipePool
from bot.render.worker import RENDER_DEPTH, default_render_processes
from bot.render.worker import pool as render_pool
from bot.store import Store

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from bot.config import Settings
    from bot.host.presenter import DmPlan
    from bot.host.tokens import ClickToken
    from bot.i18n.text import Text
    from bot.store.rows import LeaseClaim, SeatRow, SharedClick, TableRow

log = logging.getLogger(__name__)

T = TypeVar("T")


async def draw_on_request(bot: Any, fn: Callable[..., T], *args: Any) -> T:
    """:meth:`HostBase.draw_on_request` through the bot's host (cogs' pictures); a bot
    without one (a stand-in in tests) draws in the render pool directly."""
    host = getattr(bot, "host", None)
    if isinstance(host, HostBase):
        return await host.draw_on_request(fn, *args)
    processes = getattr(getattr(bot, "settings", None), "render_processes", None)
    return await asyncio.get_running_loop().run_in_executor(render_pool(processes), fn, *args)


class HostBase:
    def __init__(self, bot: discord.Client, store: Store, settings: Settings) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
        #: Tables this process holds in memory: driven here, or a cache serving clicks.
        self.tables: dict[int, Table] = {}
        self._lobby_locks: dict[int, asyncio.Lock] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        #: Posts tried again after Discord's server errors (they outlive their table's
        #: eviction: a match's "is over" is posted once it is gone from memory).
        self._late_posts: set[asyncio.Task[None]] = set()
        self._closing = False
        self.budget = rest_budget(settings)
        #: Whether the event loop keeps up (background work waits while it does not).
        self.loop_watch = LoopWatch()
        if hasattr(bot, "http"):  # (not the offline tests' stand-in)
            gate_requests(bot.http, self.budget)
        # Render threads (no worker processes: see ``_in_render_pool``) take as many
        # renders at once as workers would hold; the rest wait here by priority.
        workers = settings.render_processes
        if workers is None:
            workers = default_render_processes()
        self.render_slots = Slots(RENDER_DEPTH * max(1, workers))
        #: Tables being loaded from the log (a click and a takeover may ask at once).
        self._loading: dict[int, asyncio.Task[Table | None]] = {}
        #: Tables read in bulk for a takeover and not built yet: id -> (row, seats, log).
        self._preloaded: dict[int, tuple[Any, list[Any], list[tuple[int, str]]]] = {}
        #: Leases claimed for a takeover whose table is not taken over yet: id -> (claim,
        #: until when the lease holds); and the takeovers under way (see ``_take_over_now``).
        self._claimed: dict[int, tuple[Any, float]] = {}
        self._taking_over: dict[int, asyncio.Task[bool]] = {}
        self._restore_task: asyncio.Task[int] | None = None
        #: This process's name on the table leases it holds (see bot.host.cluster): its
        #: lasting name (``lineage``, shared with its earlier runs) and this run's own part.
        self.lineage = process_lineage(settings)
        self.owner = f"{self.lineage}{os.getpid()}:{secrets.token_hex(4)}"
        #: Table id -> until when (monotonic) this process's lease on it is confirmed.
        self._held: dict[int, float] = {}
        self._lease_tasks: list[asyncio.Task[None]] = []
        #: Set when a renewal of the leases has been tried (then replaced for the next one).
        self._renewal_tried = asyncio.Event()
        #: Each user's language as of their last interaction (their DMs are written in it).
        self.locales = LocaleMemory(store)
        add_listener = getattr(bot, "add_listener", None)
        if add_listener is not None:  # every interaction, whichever cog answers it
            add_listener(self._interaction_seen, "on_interaction")

    async def _interaction_seen(self, interaction: discord.Interaction) -> None:
        self.remember_locale(interaction)

    async def _in_render_pool(self, priority: Priority, fn: Callable[..., T], *args: Any) -> T:
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
        return await self._in_render_pool(Priority.BACKGROUND, fn, *args)

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

    def _channel(self, channel_id: int | None) -> Any:
        """A channel to send to, without a lookup request."""
        if channel_id is None:
            return None
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    def _turn_seconds(self, table: Table) -> float:
        """The time for the decisions pending now: the claim window's, or the table's turn
        (each the table's option, else the server's setting)."""
        if table.in_answer_phase():
            return float(table.options.get("claim_seconds") or self.settings.claim_seconds)
        return float(table.options.get("turn_seconds") or self.settings.turn_seconds)

    if TYPE_CHECKING:
        # What the mixins call on one another through ``self``, declared for the type
        # checker only (each is defined in the mixin named; mypy checks the definition
        # against the declaration here).
        # ClicksMixin (bot.host.clicks)
        def _precheck(
            self, table: Table | None, user_id: int, seat: int, version: int
        ) -> Text | None: ...
        async def _seat_returned(self, table: Table, s: Seat) -> None: ...
        # ClusterMixin (bot.host.cluster)
        async def _apply(
            self,
            table: Table,
            seat: int,
            code: str,
            source: str,
            click: SharedClick | None = None,
        ) -> list[Any]: ...
        async def _apply_together(
            self,
            table: Table,
            requests: list[tuple[int, str]],
            source: str,
            clicks: dict[int, SharedClick] | None = None,
        ) -> list[Any]: ...
        async def _sync_with_log(
            self, table: Table, read: list[tuple[int, str]] | None = None
        ) -> bool: ...
        def _log_poll_seconds(self) -> float: ...
        async def _catch_up(self, table: Table) -> None: ...
        def start_leases(self) -> None: ...
        def _may_drive(self, table: Table) -> bool: ...
        async def _lease_late(self, table: Table) -> bool: ...
        def _stop_driving(self, table: Table, why: str) -> None: ...
        async def _release(self, table_id: int) -> None: ...
        async def _take_over_free(self) -> int: ...
        async def _take_over_now(self, table_id: int) -> bool: ...
        # DriverMixin (bot.host.driver)
        async def _drive(self, table: Table) -> None: ...
        # FinishMixin (bot.host.finish)
        async def _finish(self, table: Table, *, quiet: bool = True) -> None: ...
        async def _retire(self, table: Table, note: str, *, in_thread: bool) -> None: ...
        async def _close_lobby_message(
            self, table_id: int, channel_id: int, message_id: int | None, note: str
        ) -> None: ...
        def _evict(self, table: Table) -> None: ...
        # HintsMixin (bot.host.hints)
        async def _settle_hints(self, row: Any, seats: Sequence[SeatRow]) -> Any: ...

        # LifecycleMixin (bot.host.lifecycle)
        async def _start(
            self, interaction: discord.Interaction, row: Any, seats: list[SeatRow]
        ) -> None: ...
        async def table(self, table_id: int) -> Table | None: ...
        async def _take_over(self, claim: LeaseClaim, lease_until: float) -> bool: ...
        # LobbyMixin (bot.host.lobby)
        def _schedule_lobby_expiry(self, table_id: int, delay: float) -> None: ...
        def _lobby_closed(self, table_id: int) -> None: ...
        async def _lobby_embed(
            self, table_id: int, note: str = "", row: TableRow | None = None
        ) -> discord.Embed: ...
        # PresenterMixin (bot.host.presenter)
        async def _dm_channel(self, seat: Seat) -> Any: ...

        async def _after_change(
            self,
            table: Table,
            events: Sequence[Any],
            *,
            via: discord.Interaction | None = None,
            changed: Iterable[int] = (),
        ) -> None: ...
        async def _render(
            self, table: Table, what: str, seat: int | None, locale: str = DEFAULT_LOCALE
        ) -> discord.File | None: ...
        async def _render_view(
            self,
            table: Table,
            what: str,
            view: dict[str, Any],
            priority: Priority,
            filename: str,
            locale: str = "en-US",
        ) -> discord.File | None: ...
        async def _show_table(self, table: Table, new: bool = False) -> None: ...
        async def _table_updater(self, table: Table) -> None: ...
        def _hand_content(self, table: Table, seat: Seat, locale: str = DEFAULT_LOCALE) -> str: ...
        def _hand_view(
            self, table: Table, seat: Seat, locale: str = DEFAULT_LOCALE
        ) -> discord.ui.View | None: ...
        async def _refresh_dm(
            self,
            table: Table,
            seat: Seat,
            fresh: bool = False,
            via: discord.Interaction | None = None,
        ) -> None: ...
        async def _carry_out(
            self, table: Table, seat: Seat, plan: DmPlan, attempt: int = 0
        ) -> None: ...
        def _plan_dm(
            self, table: Table, seat: Seat, fresh: bool, via: discord.Interaction | None
        ) -> DmPlan | None: ...
        async def _edit_dm(
            self,
            seat: Seat,
            clicked: ClickToken | None,
            edit: dict[str, Any],
            priority: Priority = Priority.DM,
        ) -> None: ...
        async def _post(
            self,
            table: Table,
            text: str,
            file: discord.File | None = None,
            *,
            ping: Sequence[int] = (),
            priority: Priority = Priority.POST,
        ) -> None: ...
        # RecoveryMixin (bot.host.recovery)
        def _send_permission(self, table: Table) -> str: ...
        async def _check_permissions(self, table: Table) -> tuple[str, ...]: ...
        async def _tell_host_missing(self, table: Table, missing: Iterable[str]) -> None: ...
        async def _edit_table_message(self, table: Table, **edit: Any) -> None: ...
        async def _recovered(
            self, table: Table, error: BaseException, *, with_file: bool
        ) -> bool: ...
        # SpectateMixin (bot.host.spectate)
        async def _post_deal_summary(self, table: Table, text: str) -> None: ...


def rest_budget(settings: Settings) -> RestBudget:
    """This process's REST budget: with ``TEAHOUSE_REDIS_URL``, the token's whole budget
    drawn live from the bucket all its processes share (its static share only while Redis
    does not answer); without, its static share (``Settings.rest_budget``)."""
    if settings.redis_url is None:
        return RestBudget(settings.rest_budget)
    from bot.host.shared_budget import SharedBucket

    rate = settings.token_rest_budget
    shared = SharedBucket(
        settings.redis_url, settings.token, rate, max(1.0, rate * RestBudget.BURST_SECONDS)
    )
    return RestBudget(rate, shared=shared, fallback_rate=settings.rest_budget)


def process_lineage(settings: Settings) -> str:
    """The prefix of every lease owner name this process has used, run after run: the
    configured process name, else the host and the shards it runs. A restarted process
    takes back its previous run's leases at once (see ``Store.claim_free_leases``)."""
    name = settings.process_name or f"{socket.gethostname()}/shards {settings.shards or 'all'}"
    return f"{name}#"
