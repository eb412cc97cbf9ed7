"""The host: one :class:`TableHost` lives on the bot; cogs parse commands and call it, and
every component click arrives here through the dynamic items of :mod:`bot.host.components`.

It builds the host's parts, each a module a reader can take on its own and each handed
the parts it uses in its constructor (none inherits from another, no module imports one
that imports it back, and a part uses only the public methods of the parts it is handed:
see tests/host/test_host_layout.py), in the order a click goes through them:

1. the **gateway** (:mod:`bot.host.gateway`): an interaction comes in as a frozen intent
   (:mod:`bot.host.intents`: a ``Move``, a ``LobbyIntent``…), is answered, and is
   handed to its intake — :mod:`bot.host.clicks` (moves, forms, Show my hand, I'm back,
   Hint), :mod:`bot.host.lobby` (``/<game> new``, the lobby's buttons, ``/table abort``),
   :mod:`bot.host.spectate`; any failure gets the one error reply;
2. the **table's session** (:class:`bot.host.session.TableSession`): a
   :class:`~bot.host.intents.Play` is checked, appended to the store's log (the commit
   point, :class:`bot.host.cluster.TableLog`) and applied, and what it made is published as
   an :class:`~bot.host.intents.Outcome` to the subscribers (the deal summaries of
   :mod:`bot.host.spectate`, the new decisions' deadlines, the presenter, the results of
   :mod:`bot.host.finish`, in that order), with no Discord call; the driver
   (:mod:`bot.host.driver`: AI seats, deadlines, timeouts) submits its moves to it too.
   The registry (:class:`~bot.host.lifecycle.Sessions`) starts, loads, takes over (with
   the :class:`~bot.host.cluster.Leases`) and closes tables, and hands out their sessions;
3. the **presenter** (:mod:`bot.host.presenter`): what a change shows, planned as
   deliveries without awaiting anything (:mod:`bot.host.deliveries`: ``DmUpdate``,
   ``TableEdit``, ``ThreadPost``), and the table message's updater;
4. the **outbox** (:mod:`bot.host.outbox`): the deliveries carried to Discord —
   the REST budget (:mod:`bot.host.budget`), the render pool
   (:class:`~bot.host.base.HostContext`), click tokens (:mod:`bot.host.tokens`) and
   Discord's failure modes (:mod:`bot.host.recovery`).

Timers and background tasks are the :class:`~bot.host.scheduler.Scheduler`'s.

Order of work on an action: validate in memory (fast, so the interaction is acknowledged at
once), append to the store's action log, apply to the state, and only then show anything.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.engine.spec import NORMAL
from bot.host.base import HostContext
from bot.host.budget import RestBudget
from bot.host.clicks import Clicks
from bot.host.cluster import Conflict, Leases, TableLog
from bot.host.driver import Driver
from bot.host.finish import Results
from bot.host.gateway import Gateway
from bot.host.intents import (
    Abort,
    FormOpen,
    FormSent,
    HintIntent,
    LobbyIntent,
    Move,
    Reclaim,
    ShowHand,
    SpectateIntent,
)
from bot.host.lag import LoopWatch
from bot.host.lifecycle import Sessions
from bot.host.lobby import Lobby, derived_seed
from bot.host.lobby_board import LobbyBoard
from bot.host.locales import LocaleMemory
from bot.host.options import game_options
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.recovery import Recovery
from bot.host.replies import report_error
from bot.host.session import clocks
from bot.host.spectate import Spectate
from bot.host.table import Seat, Table

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")


class TableHost:
    """Game-agnostic hosting of lobbies and tables on Discord (see the module docstring):
    the parts, wired; and what the bot and the cogs call.

    Public: :meth:`open_lobby`, :meth:`on_lobby`, :meth:`on_action`, :meth:`on_show_hand`,
    :meth:`on_reclaim`, :meth:`on_hint`, :meth:`on_spectate`, :meth:`abort`, :meth:`table`,
    :meth:`table_in_channel`, :meth:`restore`, :meth:`start_restore`, :meth:`close`,
    :meth:`guarded`, and ``tables``.
    """

    def __init__(self, bot: discord.Client, store: Store, settings: Settings) -> None:
        self.ctx = ctx = HostContext(bot, store, settings)
        self.recovery = Recovery(ctx)
        self.outbox = Outbox(ctx, self.recovery)
        self.presenter = Presenter(ctx, self.recovery, self.outbox)
        self.board = LobbyBoard(ctx)
        self.leases = Leases(ctx)
        self.log = TableLog(ctx)
        self.results = Results(
            ctx, self.presenter, self.outbox, self.recovery, self.leases, self.board
        )
        self.driver = Driver(ctx, self.log, self.leases, self.results, self.presenter, self.outbox)
        self.sessions = Sessions(
            ctx,
            self.log,
            self.presenter,
            self.outbox,
            self.results,
            self.driver,
            self.leases,
            self.board,
        )
        self.clicks = Clicks(ctx, self.sessions, self.presenter, self.outbox, self.driver)
        self.spectate = Spectate(ctx, self.sessions, self.presenter, self.outbox)
        self.lobby = Lobby(ctx, self.board, self.leases, self.sessions, self.results)
        self.gateway = Gateway(ctx, self.clicks, self.lobby, self.spectate)
        # Data flows one way: a table's session publishes what a change made to its
        # subscribers, each awaited in this order, which is the order of the effects:
        # a deal's summary is posted first (before the next deal's prompts, as a player
        # reads the thread), then the new decisions' clocks start (their full time once the
        # summary is out), then the presenter shows the change (DMs, the table message
        # marked for its updater), and only then are the results written and announced
        # (the end shows the final table before the "is over" post).
        self.log.subscribe(self.spectate.on_outcome)
        self.log.subscribe(clocks(ctx.turn_seconds))
        self.log.subscribe(self.presenter.show)
        self.log.subscribe(self.results.on_outcome)

    # ------------------------------------------------------------------ shared state
    @property
    def bot(self) -> discord.Client:
        return self.ctx.bot

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    @property
    def tables(self) -> dict[int, Table]:
        """Tables this process holds in memory: driven here, or a cache serving clicks."""
        return self.ctx.tables

    @property
    def owner(self) -> str:
        return self.ctx.owner

    @property
    def lineage(self) -> str:
        return self.ctx.lineage

    @property
    def budget(self) -> RestBudget:
        return self.ctx.budget

    @property
    def locales(self) -> LocaleMemory:
        return self.ctx.locales

    @property
    def loop_watch(self) -> LoopWatch:
        return self.ctx.loop_watch

    def remember_locale(self, interaction: Any) -> str:
        return self.ctx.remember_locale(interaction)

    def seat_locale(self, seat: Seat) -> str:
        return self.ctx.seat_locale(seat)

    async def draw_on_request(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.ctx.draw_on_request(fn, *args)

    def table_in_channel(self, channel_id: int | None) -> int | None:
        return self.ctx.table_in_channel(channel_id)

    def permissions_changed(self, channel_id: int) -> None:
        self.recovery.permissions_changed(channel_id)

    # ------------------------------------------------------------------ interactions in
    async def guarded(
        self,
        interaction: discord.Interaction,
        what: str,
        table_id: int | None,
        work: Any,
        *,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
    ) -> None:
        await self.gateway.guarded(interaction, what, table_id, work, view=view)

    async def on_action(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, code: str
    ) -> None:
        await self.gateway.handle(interaction, Move(table_id, seat, version, code))

    async def on_form(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, verb: str
    ) -> None:
        await self.gateway.handle(interaction, FormOpen(table_id, seat, version, verb))

    async def on_form_submit(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, verb: str
    ) -> None:
        await self.gateway.handle(interaction, FormSent(table_id, seat, version, verb))

    async def on_show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.gateway.handle(interaction, ShowHand(table_id))

    async def on_reclaim(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        await self.gateway.handle(interaction, Reclaim(table_id, seat))

    async def on_hint(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: int,
        version: int,
        *,
        confirmed: bool,
    ) -> None:
        await self.gateway.handle(interaction, HintIntent(table_id, seat, version, confirmed))

    async def on_spectate(
        self, interaction: discord.Interaction, table_id: int, *, refresh: bool
    ) -> None:
        await self.gateway.handle(interaction, SpectateIntent(table_id, refresh))

    async def on_lobby(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str = NORMAL
    ) -> None:
        await self.gateway.handle(interaction, LobbyIntent(table_id, action, level))

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        language: str | None = None,
    ) -> None:
        await self.gateway.open_lobby(interaction, game, options, language)

    async def abort(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.gateway.handle(interaction, Abort(table_id))

    # ------------------------------------------------------------------ tables
    async def table(self, table_id: int) -> Table | None:
        return await self.sessions.table(table_id)

    async def restore(self) -> int:
        return await self.sessions.restore()

    def start_restore(self) -> asyncio.Task[int]:
        return self.sessions.start_restore()

    async def close(self, timeout: float = 1.0, *, release: bool = True) -> None:
        await self.sessions.close(timeout, release=release)


__all__ = ["Conflict", "TableHost", "derived_seed", "game_options", "report_error"]
