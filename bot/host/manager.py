"""Game-agnostic hosting: lobbies, tables, turns, timers, AI seats, DMs and resume.

One :class:`TableHost` lives on the bot. Cogs only parse commands and call it; every
component click arrives here through the dynamic items of :mod:`bot.host.components`.

Order of work on an action: validate in memory (fast, so the interaction is acknowledged at
once), apply to the state, append to the store's action log, and only then show anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import os
import secrets
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import IllegalAction, make_rng
from bot.games import game_module
from bot.host.budget import Priority, RestBudget, Slots
from bot.host.components import controls_view, lobby_view, reclaim_view, table_view
from bot.host.options import game_options, validate_options
from bot.host.table import Seat, Table
from bot.host.text import NO_PINGS, incident_id, pings, player_name
from bot.render.worker import pool as render_pool
from bot.render.worker import render_png
from bot.store import ResultInput, SeatRow, Store, StoreError

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

DM_CLOSED = 50007
#: An interaction token is valid 15 minutes; use it for DMs a little less long than that.
TOKEN_SECONDS = 14 * 60
#: Consecutive failed steps after which a table's driver stops retrying (the log says so).
DRIVER_MAX_FAILURES = 20


class Conflict(IllegalAction):
    """The log moved on under this process (another one served the table): the action was
    decided on an older state and is not made."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason} Use your latest controls.")


class TableHost:
    def __init__(self, bot: discord.Client, store: Store, settings: Settings) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
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
        self._serve_only: set[int] = set()

    # ------------------------------------------------------------------ errors
    async def guarded(
        self, interaction: discord.Interaction, what: str, table_id: int | None, work: Any
    ) -> None:
        """Run a click's handler; if it raises, log it and answer the user (never silent)."""
        try:
            await work
        except Exception as error:
            await report_error(interaction, error, what=what, table_id=table_id)

    # ------------------------------------------------------------------ lobbies
    async def open_lobby(
        self, interaction: discord.Interaction, game: str, options: dict[str, Any]
    ) -> None:
        """``/<game> new``: validate options, create the table row and post the lobby."""
        try:
            validate_options(game, options)
        except ValueError as e:
            await interaction.response.send_message(f"⚠️ {e}", ephemeral=True)
            return
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Tables are opened in a server channel, not in DMs.", ephemeral=True
            )
            return
        refusal = await self._quota_refusal(interaction.guild_id, interaction.user.id)
        if refusal:
            await interaction.response.send_message(f"⏳ {refusal}", ephemeral=True)
            return
        self._last_new[interaction.user.id] = time.monotonic()
        table_id = await self.store.create_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game,
            options=options,
            seed=str(secrets.randbits(63)),
            host_id=interaction.user.id,
        )
        if self.settings.seed_base is not None:
            await self.store.update_table(
                table_id, seed=derived_seed(self.settings.seed_base, table_id)
            )
        user = interaction.user
        await self.store.set_seats(
            table_id,
            [SeatRow(seat=0, user_id=user.id, name=player_name(user.display_name), is_ai=False)],
        )
        embed = await self._lobby_embed(table_id)
        callback = await interaction.response.send_message(
            embed=embed, view=lobby_view(table_id), allowed_mentions=NO_PINGS
        )
        message_id = getattr(callback, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.store.update_table(table_id, lobby_message_id=message_id)
        self._schedule_lobby_expiry(table_id, self.settings.lobby_ttl)
        log.info("table %s: lobby for %s opened by %s", table_id, game, user.id)

    async def _quota_refusal(self, guild_id: int, user_id: int) -> str | None:
        """Why this user may not open a table now (cooldown, caps), or None."""
        s = self.settings
        now = time.monotonic()
        # Forget cooldowns that are over, so the map stays small.
        self._last_new = {u: t for u, t in self._last_new.items() if now - t < s.new_cooldown}
        last = self._last_new.get(user_id)
        if last is not None:
            wait = s.new_cooldown - (now - last)
            return f"You opened a table a moment ago; try again in {wait:.0f} s."
        count = self.store.count_tables
        if await count("lobby", host_id=user_id) >= s.max_lobbies_per_user:
            return (
                f"You already have {s.max_lobbies_per_user} open lobby(ies): start or cancel "
                "one first."
            )
        if await count("active", host_id=user_id) >= s.max_tables_per_user:
            return f"You already host {s.max_tables_per_user} running table(s): finish one first."
        if await count("lobby", guild_id=guild_id) >= s.max_lobbies_per_guild:
            return (
                f"This server has {s.max_lobbies_per_guild} open lobbies already: join one "
                "of them, or wait until one starts or closes."
            )
        if await count("active", guild_id=guild_id) >= s.max_tables_per_guild:
            return (
                f"This server has {s.max_tables_per_guild} tables in play already: wait "
                "until one finishes."
            )
        return None

    def _schedule_lobby_expiry(self, table_id: int, delay: float) -> None:
        old = self._lobby_timers.pop(table_id, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(
            self._expire_lobby(table_id, delay), name=f"lobby-{table_id}-expiry"
        )
        self._lobby_timers[table_id] = task

    async def _expire_lobby(self, table_id: int, delay: float) -> None:
        """A lobby nobody started closes itself after ``lobby_ttl`` and says so."""
        try:
            await asyncio.sleep(max(0.0, delay))
            lock = self._lobby_locks.setdefault(table_id, asyncio.Lock())
            async with lock:
                if not await self.store.transition(table_id, ("lobby",), "aborted"):
                    return
                minutes = max(1, round(self.settings.lobby_ttl / 60))
                note = f"Closed: nobody started this table within {minutes} minute(s)."
                row = await self.store.get_table(table_id)
                if row is not None:
                    await self._close_lobby_message(
                        table_id, row.channel_id, row.lobby_message_id, note
                    )
                log.info("table %s: lobby expired", table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: closing the expired lobby failed", table_id)
        finally:
            self._lobby_timers.pop(table_id, None)
            self._lobby_locks.pop(table_id, None)

    def _lobby_closed(self, table_id: int) -> None:
        """Forget a lobby's lock and expiry timer once it has started or closed."""
        task = self._lobby_timers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._lobby_locks.pop(table_id, None)

    async def _lobby_embed(self, table_id: int, note: str = "") -> discord.Embed:
        row = await self.store.get_table(table_id)
        assert row is not None
        module = game_module(row.game)
        seats = {s.seat: s for s in await self.store.get_seats(table_id)}
        team_of = {seat: t for t, team in enumerate(getattr(module, "TEAMS", ())) for seat in team}
        lines = []
        for i in range(module.SEATS):
            s = seats.get(i)
            who = "*empty*" if s is None else f"🤖 {s.name}" if s.is_ai else f"<@{s.user_id}>"
            team = f" · team {'AB'[team_of[i]]}" if i in team_of else ""
            lines.append(f"`{i + 1}` — {who}{team}")
        status = {
            "lobby": "Waiting for players",
            "active": "In play",
            "finished": "Finished",
            "aborted": "Cancelled",
        }[row.status]
        embed = discord.Embed(
            title=f"{module.TITLE} — table #{table_id}",
            description="\n".join(lines),
            colour=discord.Colour.from_rgb(176, 48, 48),
        )
        if row.options:
            embed.add_field(
                name="Options", value=", ".join(f"{k}: {v}" for k, v in row.options.items())
            )
        embed.add_field(name="Status", value=status)
        embed.set_footer(
            text=note
            or "Join to take a seat. The host may add AI players and start when all seats are filled."
        )
        return embed

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        lock = self._lobby_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            await self._on_lobby(interaction, table_id, action)

    async def _on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        row = await self.store.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id:
            await _ephemeral(interaction, "There is no such lobby here.")
            return
        if row.status != "lobby":
            await _ephemeral(interaction, "This lobby is closed.")
            return
        module = game_module(row.game)
        seats = await self.store.get_seats(table_id)
        user = interaction.user
        is_host = user.id == row.host_id
        mine = next((s for s in seats if s.user_id == user.id and not s.is_ai), None)
        if action == "join":
            if mine is not None:
                await _ephemeral(interaction, "You already have a seat at this table.")
                return
            free = _free_seat(seats, module.SEATS)
            if free is None:
                await _ephemeral(interaction, "This table is full.")
                return
            seats.append(SeatRow(seat=free, user_id=user.id, name=player_name(user.display_name)))
        elif action == "leave":
            if mine is None:
                await _ephemeral(interaction, "You are not seated at this table.")
                return
            if is_host:
                await _ephemeral(
                    interaction, "You are the host: use Cancel to close the table instead."
                )
                return
            seats.remove(mine)
        elif action == "ai":
            if not is_host:
                await _ephemeral(interaction, "Only the host can add AI players.")
                return
            free = _free_seat(seats, module.SEATS)
            if free is None:
                await _ephemeral(interaction, "This table is full.")
                return
            number = 1 + sum(1 for s in seats if s.is_ai)
            seats.append(SeatRow(seat=free, user_id=None, name=f"AI {number}", is_ai=True))
        elif action == "cancel":
            if not (is_host or _can_manage(interaction)):
                await _ephemeral(interaction, "Only the host or a server manager can cancel.")
                return
            if not await self.store.transition(table_id, ("lobby",), "aborted"):
                await _ephemeral(interaction, "This lobby is closed.")
                return
            self._lobby_closed(table_id)
            embed = await self._lobby_embed(
                table_id, note=f"Cancelled by {player_name(user.display_name)}."
            )
            await interaction.response.edit_message(
                embed=embed, view=lobby_view(table_id, closed=True)
            )
            return
        elif action == "start":
            if not is_host:
                await _ephemeral(interaction, "Only the host can start the game.")
                return
            if len(seats) < module.SEATS:
                missing = module.SEATS - len(seats)
                await _ephemeral(
                    interaction,
                    f"{missing} seat(s) still empty: wait for players to join or Add AI.",
                )
                return
            # Atomic: a Cancel, an /abort or the lobby's expiry at this moment loses or wins
            # as a whole, never half-started.
            if not await self.store.transition(table_id, ("lobby",), "active"):
                await _ephemeral(interaction, "This lobby is closed.")
                return
            self._lobby_closed(table_id)
            await interaction.response.defer()
            await self._start(interaction, row, seats)
            return
        seats.sort(key=lambda s: s.seat)
        await self.store.set_seats(table_id, seats)
        embed = await self._lobby_embed(table_id)
        await interaction.response.edit_message(embed=embed, view=lobby_view(table_id))

    # ------------------------------------------------------------------ start / restore
    async def _start(
        self, interaction: discord.Interaction, row: Any, seats: list[SeatRow]
    ) -> None:
        module = game_module(row.game)
        table = self._build_table(row, seats, log=[])
        embed = await self._lobby_embed(row.id, note="The game is on — see the thread.")
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                embed=embed, view=lobby_view(row.id, closed=True)
            )
        thread_id = await self._open_thread(table, module.TITLE)
        table.thread_id = thread_id
        await self.store.update_table(row.id, thread_id=thread_id)
        current = await self.store.get_table(row.id)
        if current is None or current.status != "active":
            return  # aborted meanwhile: /table abort found nothing running and closed it
        # No await between the check and this line: an abort from now on finds the table.
        self.tables[table.id] = table
        async with table.lock:  # an abort right now waits for the first messages
            await self._show_table(table, new=True)
            await self._after_change(table, [])
            if not table.finished:
                self._launch(table)
        log.info("table %s: %s started with %s", table.id, row.game, [s.name for s in table.seats])

    async def _open_thread(self, table: Table, title: str) -> int | None:
        channel = self.bot.get_channel(table.channel_id)
        if channel is None or table.lobby_message_id is None:
            return None
        try:
            message = channel.get_partial_message(table.lobby_message_id)  # type: ignore[union-attr]
            await self.budget.acquire(Priority.POST)
            thread = await message.create_thread(
                name=f"{title} #{table.id}", auto_archive_duration=1440
            )
            return thread.id
        except (discord.HTTPException, AttributeError) as e:
            log.warning("table %s: no thread (%s); playing in the channel", table.id, e)
            return None

    def _build_table(self, row: Any, seats: Sequence[SeatRow], log: list[tuple[int, str]]) -> Table:
        module = game_module(row.game)
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        state = module.replay(row.seed, names, game_options(row.options), log)
        state.events.clear()  # what the replay says happened was shown before
        return Table(
            id=row.id,
            game=row.game,
            module=module,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            seed=row.seed,
            options=dict(row.options),
            seats=[
                Seat(
                    seat=s.seat,
                    name=s.name,
                    user_id=s.user_id,
                    is_ai=s.is_ai,
                    ai_takeover=s.ai_takeover,
                    dm_channel_id=s.dm_channel_id,
                    dm_message_id=s.dm_message_id,
                    dms_closed=s.dms_closed,
                    timeouts=s.timeouts,
                )
                for s in sorted(seats, key=lambda s: s.seat)
            ],
            state=state,
            thread_id=row.thread_id,
            table_message_id=row.table_message_id,
            lobby_message_id=row.lobby_message_id,
        )

    async def restore(self) -> int:
        """Rebuild every active table from its action log and carry on. Returns how many.

        Only the list of tables is read up front; each table is replayed in turn, yielding to
        the event loop in between, and a click for a table not yet replayed replays it at
        once (see :meth:`table`), so every table accepts clicks as soon as the bot is
        connected. Restart notices wait for spare REST budget.
        """
        rows = await self.store.tables_with_status("active")
        for row in rows:
            self._pending.setdefault(row.id, row)
        now = time.time()
        for row in await self.store.tables_with_status("lobby"):
            self._schedule_lobby_expiry(row.id, row.created_at + self.settings.lobby_ttl - now)
        restored = 0
        for row in rows:
            if await self.table(row.id) is not None:
                restored += 1
            await asyncio.sleep(0)
        log.info("restored %d active table(s)", restored)
        return restored

    def start_restore(self) -> asyncio.Task[int]:
        """Restore in the background (the bot connects meanwhile); returns the task."""
        task = asyncio.get_running_loop().create_task(self.restore(), name="restore-tables")
        self._restore_task = task
        return task

    async def table(self, table_id: int) -> Table | None:
        """The running table, replaying it first if a restart left it pending."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id not in self._pending:
            # Another process may run it (several processes share the database): serve its
            # clicks from here too, without driving its timers.
            row = await self.store.get_table(table_id)
            if row is None or row.status != "active" or table_id in self.tables:
                return self.tables.get(table_id)
            self._pending[table_id] = row
            self._serve_only.add(table_id)
        task = self._restoring.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._restore_one(table_id))
            self._restoring[table_id] = task
        return await asyncio.shield(task)

    async def _restore_one(self, table_id: int) -> Table | None:
        row = self._pending[table_id]
        try:
            seats = await self.store.get_seats(row.id)
            actions = await self.store.actions(row.id)
            table = self._build_table(row, seats, actions)
        except (IllegalAction, KeyError, ValueError) as e:
            log.error("table %s cannot be restored (%s); marking it aborted", row.id, e)
            await self.store.update_table(row.id, status="aborted")
            return None
        finally:
            self._pending.pop(table_id, None)
            self._restoring.pop(table_id, None)
        table.changed_prompts()
        for prompt in table.prompts.values():
            # The controls on the players' latest DMs were sent before the restart, stamped
            # with versions this process never saw: accept them until the decision changes.
            prompt.from_before_restart = True
        self.tables[table.id] = table
        if table_id in self._serve_only:
            self._serve_only.discard(table_id)
            return table  # loaded to serve a click: the process running it drives it
        if table.state.is_over:
            await self._finish(table)
            return table
        self._launch(table)
        table.track(asyncio.get_running_loop().create_task(self._resume_messages(table)))
        return table

    async def _resume_messages(self, table: Table) -> None:
        await self.bot.wait_until_ready()
        async with table.lock:
            table.set_deadlines(self._turn_seconds(table), time.monotonic())
            table.table_dirty.set()
        # Notices and fresh DMs are not urgent (the old DM controls still work): they wait
        # for spare budget, and never hold the table while they wait.
        await self._post(
            table,
            "♻️ Teahouse restarted — this game carries on from where it was.",
            priority=Priority.BACKGROUND,
        )
        for seat in table.seats:
            if seat.played_by_ai or seat.user_id is None or table.finished:
                continue
            await self.budget.spare()
            async with table.lock:
                if not table.finished:
                    await self._refresh_dm(table, seat, fresh=True)

    def _launch(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        table.tasks = [
            loop.create_task(self._table_updater(table), name=f"table-{table.id}-updater"),
        ]
        self._launch_driver(table)

    def _launch_driver(self, table: Table) -> None:
        task = asyncio.get_running_loop().create_task(
            self._drive(table), name=f"table-{table.id}-driver"
        )
        task.add_done_callback(lambda t: self._driver_ended(table, t))
        table.track(task)

    def _driver_ended(self, table: Table, task: asyncio.Task[None]) -> None:
        """A driver that died of an unexpected error is started again (the log says so)."""
        if task.cancelled() or self._closing or table.finished:
            return
        error = task.exception()
        if error is None:
            return
        table.driver_restarts += 1
        if table.driver_restarts > DRIVER_MAX_FAILURES:
            log.error(
                "table %s: driver failed %d times; not restarting", table.id, table.driver_restarts
            )
            return
        log.error("table %s: driver died (%r); restarting it", table.id, error)
        self._launch_driver(table)

    async def close(self, timeout: float = 1.0) -> None:
        """Stop every table's tasks and lobby timers; returns within about ``timeout``."""
        self._closing = True
        self.budget.close()
        if self._restore_task is not None:
            self._restore_task.cancel()
        tasks = [t for table in self.tables.values() for t in table.tasks]
        tasks += list(self._lobby_timers.values())
        for task in tasks:
            task.cancel()
        pending = [t for t in tasks if not t.done()]
        if pending:
            _, still = await asyncio.wait(pending, timeout=timeout)
            if still:
                log.warning("%d table task(s) did not stop within %.1f s", len(still), timeout)

    # ------------------------------------------------------------------ actions
    async def on_action(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, code: str
    ) -> None:
        table = await self.table(table_id)
        if table is not None and not _from_table_guild(interaction, table):
            table = None
        problem = self._precheck(table, interaction.user.id, seat, version)
        if problem:
            await _ephemeral(interaction, problem)
            return
        assert table is not None
        await interaction.response.defer()
        if table.state.batches_out_of_turn and (
            table.batch is not None or seat not in table.state.to_act
        ):
            self._gather(table, interaction, seat, version, code)
            return
        async with table.lock:
            problem = self._precheck(table, interaction.user.id, seat, version)
            if problem is None:
                try:
                    events = await self._apply(table, seat, code, "player")
                except IllegalAction as e:
                    problem = f"⚠️ {e.reason}"
            if problem:
                await _followup(interaction, problem)
                return
            table.seats[seat].timeouts = 0
            if interaction.guild_id is None:  # a DM click: its token can carry later DMs
                table.seats[seat].token = interaction
                table.seats[seat].token_at = time.monotonic()
            ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
            # The DM is refreshed too (even after a move from the ephemeral hand): it must not
            # keep the old decision's buttons, and the next decision then comes as a new DM.
            await self._after_change(table, events, via=interaction)
            if ephemeral:
                await self._edit_ephemeral_hand(interaction, table, seat)

    def _gather(
        self, table: Table, interaction: discord.Interaction, seat: int, version: int, code: str
    ) -> None:
        """Hold an out-of-turn request briefly: plays arriving together go by priority."""
        if table.batch is None:
            table.batch = []
            table.track(asyncio.get_running_loop().create_task(self._apply_gathered(table)))
        table.batch.append((seat, code, version, interaction))

    async def _apply_gathered(self, table: Table) -> None:
        await asyncio.sleep(self.settings.simultaneous_window)
        async with table.lock:
            batch, table.batch = table.batch or [], None
            requests = []
            for seat, code, version, interaction in batch:
                problem = self._precheck(table, interaction.user.id, seat, version)
                if problem:
                    await _followup(interaction, problem)
                else:
                    requests.append((seat, code, interaction))
            start = table.state.version
            events = table.state.apply_simultaneous([(s, c) for s, c, _ in requests])
            try:
                await self._store_actions(table, start, "player")
            except Conflict as e:
                for _, _, interaction in requests:
                    await _followup(interaction, f"⚠️ {e.reason}")
                return
            made = table.state.log[start:]
            for seat, code, interaction in requests:
                if (seat, table.state.normalize(seat, code)) in made:
                    table.seats[seat].timeouts = 0
                else:
                    await _followup(
                        interaction,
                        "⚠️ Another play had priority at that moment; yours was not made.",
                    )
            await self._after_change(table, events)

    def _precheck(self, table: Table | None, user_id: int, seat: int, version: int) -> str | None:
        """Why a click cannot be taken (None if it can). In-memory only: it must be fast."""
        if table is None:
            return "This table is no longer running."
        if table.finished or table.state.is_over:
            return "This game is over."
        if not 0 <= seat < len(table.seats):
            return "That seat does not exist."
        owner = table.seats[seat]
        if owner.user_id != user_id:
            return (
                "You are not playing at this table."
                if table.seat_of(user_id) is None
                else "Those controls belong to another player."
            )
        if owner.ai_takeover:
            return "An AI is playing your seat after repeated timeouts."
        prompt = table.prompts.get(seat)
        if prompt is None or not (
            prompt.version == version
            or (prompt.from_before_restart and version <= table.state.version)
        ):
            return "These controls are out of date — use your latest hand message."
        if seat not in table.state.to_act and seat not in table.state.may_act:
            return "It is not your turn."
        return None

    async def _apply(self, table: Table, seat: int, code: str, source: str) -> list[Any]:
        """Apply one action and append it to the log before anything is shown.

        The in-memory state is a cache of the log: if the log has moved on (another process
        served a click of this table), the store refuses the append (its index is taken),
        this process rebuilds from the log and the action, decided on an older state, is
        refused with :class:`Conflict` (see :meth:`_store_actions`).
        """
        start = table.state.version
        events = table.state.apply(seat, code)
        await self._store_actions(table, start, source)
        return events

    async def _sync_with_log(self, table: Table) -> bool:
        """Apply what the log holds beyond this state; True if there was anything."""
        missed = await self.store.actions_since(table.id, table.state.version)
        if not missed:
            return False
        log.info("table %s: catching up %d action(s) from the log", table.id, len(missed))
        events: list[Any] = []
        try:
            for seat, code in missed:
                events += table.state.apply(seat, code)
        except IllegalAction:  # diverged: replay the whole log
            self._rebuild(table, await self.store.actions(table.id))
            events = []
        await self._after_change(table, events)
        return True

    def _rebuild(self, table: Table, actions: list[tuple[int, str]]) -> None:
        table.state = table.module.replay(
            table.seed, [s.name for s in table.seats], game_options(table.options), actions
        )
        table.state.events.clear()
        table.events_shown = 0

    async def _store_actions(self, table: Table, start: int, source: str) -> None:
        """Append the actions applied since ``start`` to the store's log."""
        try:
            for index in range(start, table.state.version):
                seat, code = table.state.log[index]
                await self.store.append_action(table.id, index, seat, code, source)
        except Exception as error:
            actions = await self.store.actions(table.id)
            self._rebuild(table, actions)
            if isinstance(error, StoreError) and len(actions) > start:
                # Another writer took this index first: its action stands, ours is dropped.
                log.info("table %s: action %d was taken by another writer", table.id, start)
                await self._after_change(table, [])
                raise Conflict("Another move was made at this table just before yours.") from None
            log.exception("table %s: could not store actions; rebuilt from the log", table.id)
            raise
        table.wake_driver()

    def _turn_seconds(self, table: Table) -> float:
        if _in_claim_window(table):
            return self.settings.claim_seconds
        return float(table.options.get("turn_seconds") or self.settings.turn_seconds)

    async def _after_change(
        self,
        table: Table,
        events: Sequence[Any],
        *,
        resumed: bool = False,
        via: discord.Interaction | None = None,
    ) -> None:
        """Refresh DMs whose decision or hand changed, the deadlines and the table message."""
        new_events = table.state.visible_events(None, table.events_shown)
        # Shown events are not needed again (the store's action log is the record): drop
        # them, so a long match does not hold every event text in memory.
        table.state.events.clear()
        table.events_shown = 0
        for event in new_events:
            table.recent.append(event.text)
            if event.kind == "deal_end":
                await self._post_deal_summary(table, event.text)
        table.recent = table.recent[-4:]
        changed = table.changed_prompts()
        if resumed:
            changed = [s.seat for s in table.seats]
        table.set_deadlines(self._turn_seconds(table), time.monotonic())
        for seat in changed:
            s = table.seats[seat]
            if s.played_by_ai or s.user_id is None:
                continue
            clicked = via if via is not None and via.user.id == s.user_id else None
            await self._refresh_dm(table, s, fresh=resumed, via=clicked)
        table.table_dirty.set()
        if table.state.is_over and not table.finished:
            await self._finish(table)

    # ------------------------------------------------------------------ AI and timers
    async def _drive(self, table: Table) -> None:
        """Plays AI seats and applies default actions when deadlines pass.

        Each step is guarded: a step that raises (the AI, the game, the store) is logged with
        the table id and the loop goes on after a short pause, so a table never freezes.
        """
        failures = 0
        while not table.finished and not self._closing:
            try:
                if await self._ai_only_expired(table):
                    return
                await self._drive_step(table)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("table %s: driver step failed (%d in a row)", table.id, failures)
                if failures >= DRIVER_MAX_FAILURES:
                    raise
                await asyncio.sleep(min(5.0, 0.1 * 2**failures))

    async def _drive_step(self, table: Table) -> None:
        ai_seats = [s for s in table.waiting_on() if table.seats[s].played_by_ai]
        if ai_seats:
            await asyncio.sleep(self.settings.ai_delay)
            # In a claim window every AI answers after the same single delay, whatever it
            # holds: the window's timing tells nothing, and three AIs don't take three delays.
            for seat in ai_seats if _in_claim_window(table) else ai_seats[:1]:
                await self._ai_move(table, seat)
            return
        if await self._ai_optional_moves(table):
            return
        timeout = None
        if table.deadlines:
            timeout = max(0.0, min(table.deadlines.values()) - time.monotonic())
        poll = self.settings.poll_seconds
        if poll > 0:  # other processes may serve this table's clicks: look at the log
            timeout = poll if timeout is None else min(timeout, poll)
        if table.ai_only_since is not None:
            left = table.ai_only_since + self.settings.ai_only_grace - time.monotonic()
            timeout = max(0.0, left) if timeout is None else min(timeout, max(0.0, left))
        try:
            await asyncio.wait_for(table.wake.wait(), timeout)
            table.wake.clear()
        except TimeoutError:
            if poll > 0:
                async with table.lock:
                    if await self._sync_with_log(table):
                        return
            await self._timeouts(table)

    async def _ai_only_expired(self, table: Table) -> bool:
        """End a table whose every seat is played by an AI (all humans timed out) once it
        has gone on like that for ``ai_only_grace`` seconds. True if it was ended."""
        if not all(s.played_by_ai for s in table.seats):
            table.ai_only_since = None
            return False
        now = time.monotonic()
        if table.ai_only_since is None:
            table.ai_only_since = now
        if now - table.ai_only_since < self.settings.ai_only_grace:
            return False
        if not await self.store.transition(table.id, ("active",), "aborted"):
            return False
        minutes = max(1, round(self.settings.ai_only_grace / 60))
        note = (
            f"🛑 Table #{table.id} ended without a result: no human has played for "
            f"{minutes} minute(s)."
        )
        log.info("table %s: ended, every seat played by an AI", table.id)
        self.tables.pop(table.id, None)
        await self._retire(table, note, in_thread=True)
        return True

    async def _ai_move(self, table: Table, seat: int) -> None:
        async with table.lock:
            if table.finished or seat not in table.waiting_on():
                return
            state = table.state
            view = state.view(seat)
            legal = state.legal_actions(seat)
            rng = make_rng(table.seed, "ai", state.version, seat)
            try:
                code = await asyncio.to_thread(table.module.choose, view, legal, rng)
            except Exception:
                log.exception(
                    "table %s: the AI failed for seat %s; using the default", table.id, seat
                )
                code = state.default_action(seat)
            try:
                events = await self._apply(table, seat, code, "ai")
            except Conflict:
                return  # the log moved on: the driver plans again from the new state
            except IllegalAction as e:
                log.error("table %s: AI chose illegal %r (%s); using default", table.id, code, e)
                events = await self._apply(table, seat, table.state.default_action(seat), "ai")
            await self._after_change(table, events)

    async def _ai_optional_moves(self, table: Table) -> bool:
        """Let AI seats with optional out-of-turn actions (an Ambush) use them; the AI
        answers "" to wait. Each seat considers each state version once. True if one acted."""
        async with table.lock:
            version = table.state.version
            for seat in table.state.may_act:
                s = table.seats[seat]
                if not s.played_by_ai or table.ai_considered.get(seat) == version:
                    continue
                table.ai_considered[seat] = version
                view, legal = table.state.view(seat), table.state.legal_actions(seat)
                rng = make_rng(table.seed, "ai-optional", version, seat)
                try:
                    code = await asyncio.to_thread(table.module.choose, view, legal, rng)
                except Exception:
                    log.exception("table %s: the AI failed on an optional play", table.id)
                    continue
                if not code:
                    continue
                try:
                    events = await self._apply(table, seat, code, "ai")
                except Conflict:
                    return True  # the state moved on: consider again
                except IllegalAction as e:
                    log.error("table %s: AI's optional %r refused: %s", table.id, code, e)
                    continue
                await self._after_change(table, events)
                return True
        return False

    async def _timeouts(self, table: Table) -> None:
        async with table.lock:
            now = time.monotonic()
            expired = [s for s, t in table.deadlines.items() if t <= now]
            for seat in expired:
                if table.finished or seat not in table.waiting_on():
                    continue
                s = table.seats[seat]
                # Letting a claim window close is a normal answer (pass), not a timeout:
                # nobody is asked to click Pass on every discard.
                answering = _in_claim_window(table)
                code = table.state.default_action(seat)
                try:
                    events = await self._apply(table, seat, code, "timeout")
                except Conflict:
                    return  # the decision was made elsewhere meanwhile
                if answering:
                    await self._after_change(table, events)
                    continue
                s.timeouts += 1
                # The default move is not described here: it may be a hidden one (cards
                # passed or buried); the public events say what everyone may know.
                notes = [f"⏰ {s.name} ran out of time; the default move was played."]
                if s.timeouts >= self.settings.timeouts_before_ai and not s.played_by_ai:
                    s.ai_takeover = True
                    notes.append(f"🤖 An AI now plays for {s.name} after {s.timeouts} timeouts.")
                await self.store.update_seat(
                    table.id, seat, timeouts=s.timeouts, ai_takeover=s.ai_takeover
                )
                await self._post(table, " ".join(notes))
                await self._after_change(table, events)
                if s.ai_takeover:
                    await self._refresh_dm(table, s)

    # ------------------------------------------------------------------ showing things
    async def _render(self, table: Table, what: str, seat: int | None) -> discord.File | None:
        """Render off the event loop, in the render process pool."""
        view = table.state.view(seat)
        if what == "render_table":
            priority = Priority.TABLE
        elif what == "render_hand" and seat in table.waiting_on():
            priority = Priority.DECISION
        else:
            priority = Priority.DM if what == "render_hand" else Priority.POST
        loop = asyncio.get_running_loop()
        await self.render_slots.acquire(priority)
        try:
            data = await loop.run_in_executor(
                render_pool(self.settings.render_processes), render_png, table.game, what, view
            )
        except Exception:
            log.exception("table %s: rendering %s failed", table.id, what)
            return None
        finally:
            self.render_slots.release()
        if data is None:
            return None
        return discord.File(io.BytesIO(data), filename=f"{table.game}-{what}.png")

    def _status_text(self, table: Table) -> str:
        state = table.state
        view = state.view(None)
        head = f"**{table.title}** · table #{table.id}"
        if view.get("round"):
            head += f" · round {view['round']}" + (
                f"/{view['rounds']}" if view.get("rounds") else ""
            )
        elif view.get("deal"):
            head += f" · hand {view['deal']}" + (f"/{view['deals']}" if view.get("deals") else "")
        lines = [head]
        lines += [f"• {text}" for text in table.recent]
        if state.is_over:
            lines.append("🏁 The match is over.")
        else:
            waiting = table.waiting_on()
            who = []
            for seat in waiting:
                s = table.seats[seat]
                tag = f"<@{s.user_id}>" if s.user_id and not s.played_by_ai else f"🤖 {s.name}"
                who.append(tag)
            deadline = min(
                (table.deadlines[s] for s in waiting if s in table.deadlines), default=None
            )
            line = f"⏳ {' '.join(who)} to act"
            if deadline is not None and any(not table.seats[s].played_by_ai for s in waiting):
                epoch = int(time.time() + max(0.0, deadline - time.monotonic()))
                line += f" — time runs out <t:{epoch}:R>"
            lines.append(line)
        return "\n".join(lines)[:1900]

    async def _show_table(self, table: Table, new: bool = False) -> None:
        """Post or edit the table message. Calls are serialised per table and each draws the
        state as it is when its turn comes, so an older picture never follows a newer one;
        an unchanged picture and text are not sent again."""
        channel = self._channel(table.channel_for_table)
        if channel is None:
            return
        async with table.edit_lock:
            posting = new or table.table_message_id is None
            await self.budget.acquire(Priority.POST if posting else Priority.TABLE)
            content = self._status_text(table)
            public = repr(table.state.view(None))
            if not posting and table.shown == (public, content):
                self.budget.refund()
                return
            file = None
            if posting or table.shown is None or table.shown[0] != public:
                file = await self._render(table, "render_table", None)
            view = None if table.state.is_over else table_view(table.id)
            try:
                if posting:
                    message = await channel.send(
                        content, file=file, view=view, allowed_mentions=NO_PINGS
                    )  # type: ignore[arg-type]
                    table.table_message_id = message.id
                    await self.store.update_table(table.id, table_message_id=message.id)
                else:
                    message = channel.get_partial_message(table.table_message_id)  # type: ignore[union-attr]
                    if file is not None:
                        await message.edit(content=content, attachments=[file], view=view)
                    else:  # same picture: keep the attachment, change the text only
                        await message.edit(content=content, view=view)
                table.shown = (public, content)
            except discord.HTTPException as e:
                log.warning("table %s: table message update failed: %s", table.id, e)

    async def _table_updater(self, table: Table) -> None:
        """Edits the table message once the table has been quiet for a moment: a player's
        move and the AI moves that follow it (after ``ai_delay``) make one edit, not
        several; a busy table is still shown at least every few seconds."""
        quiet = 1.5 * self.settings.edit_interval
        try:
            while True:
                await table.table_dirty.wait()
                first = time.monotonic()
                while True:
                    table.table_dirty.clear()
                    await asyncio.sleep(quiet)
                    if not table.table_dirty.is_set() or time.monotonic() - first >= 3 * quiet:
                        break
                table.table_dirty.clear()
                await self._show_table(table)
                if table.finished:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: table updater crashed", table.id)

    def _hand_content(self, table: Table, seat: Seat) -> str:
        where = f"<#{table.channel_for_table}>"
        if table.state.is_over:
            return f"**{table.title}** #{table.id} in {where} — the match is over."
        if seat.ai_takeover:
            return f"**{table.title}** #{table.id} in {where} — an AI plays your seat now."
        legal = table.state.legal_actions(seat.seat)
        if legal:
            prompt = table.controls_for(seat.seat).prompt
            return f"**{table.title}** #{table.id} in {where}\n{prompt}"
        waiting = ", ".join(table.seats[s].name for s in table.waiting_on())
        return f"**{table.title}** #{table.id} in {where} — waiting for {waiting}."

    def _hand_view(self, table: Table, seat: Seat) -> discord.ui.View | None:
        if table.state.is_over:
            return None
        if seat.ai_takeover:
            return reclaim_view(table.id, seat.seat)
        if not table.state.legal_actions(seat.seat):
            return None
        prompt = table.prompts.get(seat.seat)
        version = prompt.version if prompt else table.state.version
        return controls_view(table.id, seat.seat, version, table.controls_for(seat.seat))

    async def _refresh_dm(
        self,
        table: Table,
        seat: Seat,
        fresh: bool = False,
        via: discord.Interaction | None = None,
    ) -> None:
        """Show the seat its hand and controls by DM.

        A new message (which notifies the player) when the seat comes to a decision it must
        make; otherwise the current message is edited in place, so optional out-of-turn
        controls and hand changes don't flood the DM. An edit of the message the player just
        clicked goes through that click's interaction (exempt from the REST budget), and the
        hand image is only uploaded again when the hand changed.
        """
        if seat.dms_closed or seat.user_id is None:
            return
        content = self._hand_content(table, seat)
        view = self._hand_view(table, seat)
        hand_key = table.hand_key(seat.seat)
        # A decision that is only "pass" in a claim window (nothing to claim) edits the DM in
        # place: no notification on every discard; a real claim comes as a new message.
        acting = (
            seat.seat in table.waiting_on()
            and not seat.played_by_ai
            and not (_in_claim_window(table) and table.state.legal_actions(seat.seat) == ["pass"])
        )
        new_message = fresh or seat.dm_message_id is None or (acting and not seat.dm_acting)
        same_hand = not new_message and seat.dm_hand_key == hand_key
        file = None if same_hand else await self._render(table, "render_hand", seat.seat)
        edit: dict[str, Any] = {"content": content, "view": view}
        if not same_hand:
            edit["attachments"] = [file] if file else []
        clicked = (
            via
            if via is not None and getattr(via.message, "id", None) == seat.dm_message_id
            else None
        )
        try:
            if not new_message:
                await self._edit_dm(seat, clicked, edit)
            else:
                if seat.dm_message_id is not None and seat.dm_has_controls:
                    # Retire the old message's controls; the new one carries the current ones.
                    with contextlib.suppress(discord.HTTPException):
                        await self._edit_dm(seat, clicked, {"view": None})
                await self._send_dm(seat, content, file, view, acting)
                await self.store.update_seat(
                    table.id,
                    seat.seat,
                    dm_channel_id=seat.dm_channel_id,
                    dm_message_id=seat.dm_message_id,
                )
            seat.dm_acting = acting
            seat.dm_hand_key = hand_key
            seat.dm_has_controls = view is not None
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                await self._dms_closed(table, seat)
            else:
                log.warning("table %s: DM to seat %s refused: %s", table.id, seat.seat, e)
        except discord.HTTPException as e:
            log.warning("table %s: DM to seat %s failed: %s", table.id, seat.seat, e)

    def _token_of(self, seat: Seat) -> discord.Interaction | None:
        """The seat's last DM click while its token is valid (Discord: 15 minutes)."""
        if seat.token is None or time.monotonic() - seat.token_at > TOKEN_SECONDS:
            return None
        return seat.token

    async def _send_dm(
        self, seat: Seat, content: str, file: discord.File | None, view: Any, acting: bool
    ) -> None:
        """A new DM message (it notifies). Through the player's last click when its token is
        still valid: interaction webhooks do not count against the bot's REST budget."""
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        token = self._token_of(seat)
        if token is not None:
            try:
                message = await token.followup.send(content, wait=True, **kwargs)
                seat.dm_message_id, seat.dm_token = message.id, token
                return
            except discord.HTTPException as e:
                log.info("DM through the interaction failed (%s); sending it plainly", e)
                if file is not None:
                    file.reset()
        await self.budget.acquire(Priority.DECISION if acting else Priority.DM)
        channel = await self._dm_channel(seat)
        message = await channel.send(content, **kwargs)
        seat.dm_message_id, seat.dm_token = message.id, None

    async def _edit_dm(
        self, seat: Seat, clicked: discord.Interaction | None, edit: dict[str, Any]
    ) -> None:
        """Edit the seat's current DM: through the click that is on it, or the interaction
        that sent it, while valid (no REST budget); else plainly."""
        if clicked is not None:
            await clicked.edit_original_response(**edit)
            return
        token = (
            seat.dm_token
            if seat.dm_token is not None and seat.dm_token is self._token_of(seat)
            else None
        )
        if token is not None and seat.dm_message_id is not None:
            try:
                await token.followup.edit_message(seat.dm_message_id, **edit)
                return
            except discord.HTTPException as e:
                log.info("DM edit through the interaction failed (%s); editing plainly", e)
                for attachment in edit.get("attachments") or []:
                    if isinstance(attachment, discord.File):
                        attachment.reset()
        await self.budget.acquire(Priority.DM)
        channel = await self._dm_channel(seat)
        await channel.get_partial_message(seat.dm_message_id).edit(**edit)

    async def _dm_channel(self, seat: Seat) -> Any:
        if seat.dm_channel_id is not None:
            # A DM channel id we know is enough to send and edit (no lookup, no request:
            # after a restart the cache is empty and opening DMs again is rate-limited).
            return self.bot.get_channel(seat.dm_channel_id) or self.bot.get_partial_messageable(
                seat.dm_channel_id, type=discord.ChannelType.private
            )
        assert seat.user_id is not None
        user = self.bot.get_user(seat.user_id)
        if user is None:
            await self.budget.acquire(Priority.DM)
            user = await self.bot.fetch_user(seat.user_id)
        if user.dm_channel is None:
            await self.budget.acquire(Priority.DM)
        channel = user.dm_channel or await user.create_dm()
        seat.dm_channel_id = channel.id
        return channel

    async def _dms_closed(self, table: Table, seat: Seat) -> None:
        """Never retry a 50007: fall back to the ephemeral 'Show my hand' button, say so once."""
        seat.dms_closed = True
        await self.store.update_seat(table.id, seat.seat, dms_closed=True)
        await self._post(
            table,
            f"<@{seat.user_id}>, I can't send you direct messages. Press **Show my hand** on the "
            "table message to see your hand and play (or allow DMs from server members).",
            ping=[seat.user_id] if seat.user_id else [],
        )

    async def on_reclaim(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        """A player whose seat an AI took over plays again."""
        table = await self.table(table_id)
        if table is None or table.finished or not _from_table_guild(interaction, table):
            await _ephemeral(interaction, "This game is over.")
            return
        if not 0 <= seat < len(table.seats) or table.seats[seat].user_id != interaction.user.id:
            await _ephemeral(interaction, "That is not your seat.")
            return
        s = table.seats[seat]
        if not s.ai_takeover:
            await _ephemeral(interaction, "You are already playing your seat.")
            return
        await interaction.response.defer()
        async with table.lock:
            s.ai_takeover = False
            s.timeouts = 0
            await self.store.update_seat(table.id, seat, ai_takeover=False, timeouts=0)
            await self._post(table, f"👋 {s.name} is back and plays their own seat again.")
            table.prompts.pop(seat, None)
            table.deadlines.pop(seat, None)  # a fresh deadline for the returning player
            table.changed_prompts()
            table.set_deadlines(self._turn_seconds(table))
            await self._refresh_dm(table, s, fresh=True)
            table.table_dirty.set()
            table.wake_driver()

    async def on_show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        table = await self.table(table_id)
        if table is None or table.finished or not _from_table_guild(interaction, table):
            await _ephemeral(interaction, "This table is no longer running.")
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await _ephemeral(interaction, "You are not playing at this table.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with table.lock:
            if seat.seat not in table.prompts:
                table.changed_prompts()
            file = await self._render(table, "render_hand", seat.seat)
            kwargs: dict[str, Any] = {"content": self._hand_content(table, seat)}
            view = self._hand_view(table, seat)
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
            await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)

    async def _edit_ephemeral_hand(
        self, interaction: discord.Interaction, table: Table, seat: int
    ) -> None:
        s = table.seats[seat]
        file = await self._render(table, "render_hand", seat)
        view = self._hand_view(table, s)
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                content=self._hand_content(table, s),
                attachments=[file] if file else [],
                view=view,
            )

    async def _post(
        self,
        table: Table,
        text: str,
        file: discord.File | None = None,
        *,
        ping: Sequence[int] = (),
        priority: Priority = Priority.POST,
    ) -> None:
        """Post in the table's thread; only the users in ``ping`` may be notified."""
        channel = self._channel(table.channel_for_table)
        if channel is None:
            return
        mentions = pings(*ping) if ping else NO_PINGS
        await self.budget.acquire(priority)
        try:
            if file is not None:
                await channel.send(text[:2000], file=file, allowed_mentions=mentions)  # type: ignore[union-attr]
            else:
                await channel.send(text[:2000], allowed_mentions=mentions)  # type: ignore[union-attr]
        except discord.HTTPException as e:
            log.warning("table %s: posting failed: %s", table.id, e)

    async def _post_deal_summary(self, table: Table, text: str) -> None:
        totals = " · ".join(
            f"{s.name} {score}" for s, score in zip(table.seats, table.state.scores, strict=True)
        )
        file = await self._render(table, "render_deal_summary", None)
        await self._post(table, f"📜 {text}\nTotals: {totals}", file)

    def _channel(self, channel_id: int | None) -> Any:
        if channel_id is None:
            return None
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    # ------------------------------------------------------------------ the end
    async def _finish(self, table: Table) -> None:
        """Write the results once (idempotent), then announce them."""
        if table.finished:
            return
        table.finished = True
        result = table.state.result()
        team_of = {seat: t for t, team in enumerate(result.teams) for seat in team}
        rows = [
            ResultInput(
                seat=s.seat,
                user_id=None if s.is_ai else s.user_id,
                name=s.name,
                score=result.scores[s.seat],
                place=result.placements[s.seat],
                team=team_of.get(s.seat, s.seat),
            )
            for s in table.seats
        ]
        await self.store.record_result(
            table.id,
            guild_id=table.guild_id,
            game=table.game,
            rows=rows,
            rating_games=result.rating_games,
        )
        table.table_dirty.set()
        ranking = sorted(table.seats, key=lambda s: (result.placements[s.seat], s.seat))
        lines = [f"🏁 **{table.title}** #{table.id} is over."]
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        for s in ranking:
            place = result.placements[s.seat]
            who = f"<@{s.user_id}>" if s.user_id and not s.is_ai else f"🤖 {s.name}"
            lines.append(f"{medals.get(place, f'{place}.')} {who} — {result.scores[s.seat]}")
        lines.append("See `/leaderboard` for the server's standings.")
        humans = [s.user_id for s in table.seats if s.user_id and not s.is_ai]
        await self._post(table, "\n".join(lines), ping=humans)
        for s in table.seats:
            if not s.is_ai and s.user_id is not None and not s.dms_closed:
                await self._refresh_dm(table, s)
        await self._close_lobby_message(
            table.id, table.channel_id, table.lobby_message_id, "Finished — results in the thread."
        )
        await self._show_table(table)
        self._evict(table)
        log.info("table %s finished: %s", table.id, result.scores)

    async def abort(self, interaction: discord.Interaction, table_id: int) -> None:
        row = await self.store.get_table(table_id)
        # A table is reached from its own guild only; elsewhere it does not exist.
        if (
            row is None
            or row.guild_id != interaction.guild_id
            or row.status not in ("lobby", "active")
        ):
            await _ephemeral(interaction, f"There is no open table #{table_id} in this server.")
            return
        if not (interaction.user.id == row.host_id or _can_manage(interaction)):
            await _ephemeral(interaction, "Only the table's host or a server manager can abort it.")
            return
        await self.table(table_id)  # replayed first if a restart left it pending
        if not await self.store.transition(table_id, ("lobby", "active"), "aborted"):
            await _ephemeral(interaction, f"There is no open table #{table_id} in this server.")
            return
        self._lobby_closed(table_id)
        table = self.tables.pop(table_id, None)
        note = f"🛑 Table #{table_id} was aborted by {player_name(interaction.user.display_name)}."
        await interaction.response.send_message(note, allowed_mentions=NO_PINGS)
        if table is not None:
            await self._retire(table, note, in_thread=interaction.channel_id != table.thread_id)
        else:
            await self._close_lobby_message(table_id, row.channel_id, row.lobby_message_id, note)

    async def _retire(self, table: Table, note: str, *, in_thread: bool) -> None:
        """Stop an aborted table: its tasks, its controls (DMs, table message, lobby)."""
        table.finished = True
        for task in table.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        async with table.lock:  # let an action in progress finish first
            if in_thread:
                await self._post(table, note)
            for seat in table.seats:
                if seat.user_id is None or seat.is_ai or seat.dm_message_id is None:
                    continue
                with contextlib.suppress(discord.HTTPException):
                    await self._edit_dm(
                        seat,
                        None,
                        {"content": f"**{table.title}** #{table.id}: {note}", "view": None},
                    )
            with contextlib.suppress(discord.HTTPException):
                channel = self._channel(table.channel_for_table)
                if table.table_message_id is not None:
                    await self.budget.acquire(Priority.TABLE)
                    await channel.get_partial_message(table.table_message_id).edit(view=None)
            await self._close_lobby_message(
                table.id, table.channel_id, table.lobby_message_id, note
            )

    async def _close_lobby_message(
        self, table_id: int, channel_id: int, message_id: int | None, note: str
    ) -> None:
        """Show the lobby message closed (its buttons disabled) with a note why."""
        if message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            embed = await self._lobby_embed(table_id, note=note)
            await self.budget.acquire(Priority.BACKGROUND)
            await (
                self._channel(channel_id)
                .get_partial_message(message_id)
                .edit(embed=embed, view=lobby_view(table_id, closed=True))
            )

    def _evict(self, table: Table) -> None:
        """Forget a finished table (its messages are final; a click on them finds the table
        finished in the store and is refused) and stop its updater and driver."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for task in table.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        table.tasks = []

    def table_in_channel(self, channel_id: int | None) -> int | None:
        for table in self.tables.values():
            if channel_id in (table.thread_id, table.channel_id) and not table.finished:
                return table.id
        return None


def derived_seed(base: str, table_id: int) -> str:
    """A table's seed from a fixed base (tests, soaks): the same base deals the same games."""
    digest = hashlib.sha256(f"{base}:{table_id}".encode()).digest()
    return str(int.from_bytes(digest[:8], "big") >> 1)


def _free_seat(seats: Sequence[SeatRow], total: int) -> int | None:
    taken = {s.seat for s in seats}
    return next((i for i in range(total) if i not in taken), None)


async def report_error(
    interaction: discord.Interaction,
    error: BaseException,
    *,
    what: str,
    table_id: int | None = None,
) -> str:
    """The one error path of clicks and commands: log the error with the table id and an
    incident id, and tell the user ephemerally. Returns the incident id."""
    incident = incident_id()
    log.error(
        "incident %s: %s failed (table %s, user %s)",
        incident,
        what,
        table_id,
        getattr(interaction.user, "id", None),
        exc_info=error,
    )
    await _ephemeral(
        interaction,
        f"😵 Sorry, something went wrong on my side and nothing was changed. "
        f"If it happens again, tell the server's admins: incident `{incident}`.",
    )
    return incident


#: Phases in which every seat is asked at once and most can only pass (Mah-Jongg's claim
#: windows and its before-play kong question): short deadlines, silent passes.
ANSWER_PHASES = ("claim", "prelude")


def _in_claim_window(table: Table) -> bool:
    return table.state.view(None).get("phase") in ANSWER_PHASES


def _from_table_guild(interaction: discord.Interaction, table: Table) -> bool:
    """Clicks come from DMs (no guild) or from the table's own guild, never another one."""
    return interaction.guild_id is None or interaction.guild_id == table.guild_id


def _can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def _followup(interaction: discord.Interaction, text: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
    except discord.HTTPException as e:
        log.warning("could not answer interaction: %s", e)


__all__ = ["TableHost"]
