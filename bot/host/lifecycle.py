"""A table's life in this process: started from a lobby, or loaded from the log (restored
after a restart, taken over, or loaded to serve a click); its tasks (the updater of the
table message and the driver) launched, restarted after a crash, and stopped at close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import IllegalAction
from bot.games import game_spec
from bot.host.base import HostBase
from bot.host.budget import Priority
from bot.host.components import lobby_view
from bot.host.options import game_options
from bot.host.table import Seat, Table
from bot.store import SeatRow

log = logging.getLogger(__name__)

#: Consecutive failed steps after which a table's driver stops retrying (the log says so).
DRIVER_MAX_FAILURES = 20


class LifecycleMixin(HostBase):
    async def _start(
        self, interaction: discord.Interaction, row: Any, seats: list[SeatRow]
    ) -> None:
        row = await self._settle_hints(row, seats)  # type: ignore[attr-defined]
        table = self._build_table(row, seats, log=[])
        embed = await self._lobby_embed(row.id, note="The game is on — see the thread.")
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                embed=embed, view=lobby_view(row.id, closed=True)
            )
        thread_id = await self._open_thread(table, table.title)
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
        spec = game_spec(row.game)
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        state = spec.replay(row.seed, names, game_options(row.options), log)
        state.events.clear()  # what the replay says happened was shown before
        return Table(
            id=row.id,
            spec=spec,
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
