"""A table's life in this process: started from a lobby, or loaded from the log (restored
after a restart, taken over, or loaded to serve a click); its tasks (the updater of the
table message and the driver) launched, restarted after a crash, and stopped at close;
the takeover scan that claims free leases (see bot.host.cluster). :class:`Sessions` is the
registry of the tables this process holds, and hands out their sessions
(:class:`~bot.host.session.TableSession`: every move of a table goes through its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.engine import IllegalAction
from bot.games import game_spec, game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.cluster import (
    CLICK_SWEEP_SECONDS,
    PRELOAD_TABLES,
    RECLAIM_RENEWALS,
    Leases,
    TableLog,
)
from bot.host.components import lobby_view, release_view
from bot.host.deliveries import DmPlan
from bot.host.driver import DRIVER_MAX_FAILURES, Driver
from bot.host.finish import Results
from bot.host.hints import settle_hints
from bot.host.lobby_board import LobbyBoard
from bot.host.options import game_options
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.session import TableSession
from bot.host.table import Seat, Table
from bot.host.tokens import TOKEN_SECONDS
from bot.i18n import Text
from bot.store import LeaseClaim, SeatRow

log = logging.getLogger(__name__)

#: The lease loops' keys in the scheduler: renewal, the takeover scan, the listener.
LEASE_TASKS = (("leases", "renew"), ("leases", "scan"), ("leases", "listen"))


class Sessions:
    """The tables this process holds: started, loaded from the log, taken over (leases
    claimed), launched and closed; and their sessions (:meth:`of`)."""

    def __init__(
        self,
        ctx: HostContext,
        tables_log: TableLog,
        presenter: Presenter,
        outbox: Outbox,
        results: Results,
        driver: Driver,
        leases: Leases,
        board: LobbyBoard,
    ) -> None:
        self.ctx = ctx
        self.log = tables_log
        self.presenter = presenter
        self.outbox = outbox
        self.results = results
        self.driver = driver
        self.leases = leases
        self.board = board
        #: Tables read in bulk for a takeover and not built yet: id -> (row, seats, log).
        self._preloaded: dict[int, tuple[Any, list[Any], list[tuple[int, str]]]] = {}
        #: Leases claimed for a takeover whose table is not taken over yet: id -> (claim,
        #: until when the lease holds) (see ``_take_over_now``).
        self._claimed: dict[int, tuple[Any, float]] = {}

    async def start(self, interaction: discord.Interaction, row: Any, seats: list[SeatRow]) -> None:
        row = await settle_hints(self.ctx.store, row, seats)
        table = self._build_table(row, seats, log=[])
        await self.ctx.locales.load(s.user_id for s in table.humans())
        embed = await self.board.lobby_embed(row.id, note=Text("The game is on — see the thread."))
        view = lobby_view(row.id, closed=True, locale=table.locale)
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(embed=embed, view=view)
        release_view(view)
        thread_id = await self._open_thread(table, game_title(table.spec.name, table.locale))
        table.thread_id = thread_id
        await self.ctx.store.update_table(row.id, thread_id=thread_id)
        current = await self.ctx.store.get_table(row.id)
        if current is None or current.status != "active":
            await self.leases.release(row.id)
            return  # aborted meanwhile: /table abort found nothing running and closed it
        # No await between the check and this line: an abort from now on finds the table.
        self.ctx.tables[table.id] = table
        async with table.lock:  # an abort right now waits for the first messages
            table.driven = True  # its lease was claimed before the start (see the lobby)
            await self.presenter.show_table(table, new=True)
            await self.of(table).publish()  # its first prompts and DMs
            if not table.finished:
                self._launch(table)
        log.info("table %s: %s started with %s", table.id, row.game, [s.name for s in table.seats])

    async def _open_thread(self, table: Table, title: str) -> int | None:
        channel = self.ctx.bot.get_channel(table.channel_id)
        if channel is None or table.lobby_message_id is None:
            return None
        try:
            message = channel.get_partial_message(table.lobby_message_id)  # type: ignore[union-attr]  # (a table is in a text channel)
            await self.ctx.budget.acquire(Priority.POST)
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
                    dm_decision=s.dm_decision,
                    dms_closed=s.dms_closed,
                    timeouts=s.timeouts,
                    ai_level=s.ai_level,
                )
                for s in sorted(seats, key=lambda s: s.seat)
            ],
            state=state,
            thread_id=row.thread_id,
            table_message_id=row.table_message_id,
            lobby_message_id=row.lobby_message_id,
            locale=row.locale,
        )

    async def restore(self) -> int:
        """At start: claim the lease of every active table nobody drives (all of them after a
        clean restart; a crashed process's once its leases run out, by the takeover scan)
        and carry on with each from its log. Returns how many tables this process took.

        Each table is replayed in turn, yielding to the event loop in between; a click for a
        table not yet replayed replays it at once (see :meth:`table`), so every table
        accepts clicks as soon as the bot is connected. Restart notices wait for spare REST
        budget.
        """
        now = time.time()
        for row in await self.ctx.store.tables_with_status("lobby"):
            self.board.schedule_lobby_expiry(
                row.id, row.created_at + self.ctx.settings.lobby_ttl - now
            )
        self.start_leases()
        taken = await self._take_over_free()
        log.info("restored %d active table(s)", taken)
        return taken

    def start_restore(self) -> asyncio.Task[int]:
        """Restore in the background (the bot connects meanwhile); returns the task."""
        return self.ctx.scheduler.spawn("restore", self.restore(), name="restore-tables")

    def of(self, table: Table) -> TableSession:
        """The session of a table this process holds: the one door of its moves."""
        return TableSession(table, self.log, self.ctx.store)

    async def session(self, table_id: int) -> TableSession | None:
        """The session of a table (loaded first if need be: see :meth:`table`)."""
        table = await self.table(table_id)
        return None if table is None else self.of(table)

    async def table(self, table_id: int) -> Table | None:
        """The table in memory, loaded from the log first if it is not (a click for a table
        another process drives, or one this process has not replayed yet). A table loaded
        here is a cache of the log, not driven: see :meth:`_take_over`. One whose lease this
        process has claimed for a takeover that has not reached it yet is taken over first
        (and is then driven here)."""
        await self._take_over_now(table_id)  # (nothing to do for most tables)
        return await self._cached_or_loaded(table_id)

    async def _cached_or_loaded(self, table_id: int) -> Table | None:
        table = self.ctx.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        task: asyncio.Task[Table | None] | None = self.ctx.scheduler.get(("load", table_id))
        if task is None:
            task = self.ctx.scheduler.spawn(("load", table_id), self._load(table_id))
        return await asyncio.shield(task)

    async def _load(self, table_id: int) -> Table | None:
        try:
            # Read moments ago with the others of a takeover, or now on its own.
            read = self._preloaded.pop(table_id, None)
            if read is None:
                read = (await self.ctx.store.load_tables([table_id])).get(table_id)
            if read is None or read[0].status != "active":
                return None
            table = self._build_table(*read)
        except (IllegalAction, KeyError, ValueError) as e:
            log.error("table %s cannot be restored (%s); marking it aborted", table_id, e)
            await self.ctx.store.update_table(table_id, status="aborted")
            return None
        finally:
            self.ctx.scheduler.discard(("load", table_id), asyncio.current_task())
        if table_id in self.ctx.tables:  # loaded meanwhile by another path
            return self.ctx.tables[table_id]
        await self.ctx.locales.load(s.user_id for s in table.humans())
        if table_id in self.ctx.tables:
            return self.ctx.tables[table_id]
        _accept_earlier_controls(table)
        self.ctx.tables[table.id] = table
        return table

    async def _reload(self, table: Table) -> bool:
        """Refresh a cached table from the store in place (under its lock): a process about
        to drive it must not trust what it cached while another one drove it (the seats'
        DM messages, the prompts). False if the table is no longer in play."""
        row = await self.ctx.store.get_table(table.id)
        if row is None or row.status != "active":
            return False
        fresh = self._build_table(
            row, await self.ctx.store.get_seats(table.id), await self.ctx.store.actions(table.id)
        )
        table.state, table.seats, table.options = fresh.state, fresh.seats, fresh.options
        table.thread_id, table.table_message_id = fresh.thread_id, fresh.table_message_id
        table.lobby_message_id, table.locale = fresh.lobby_message_id, fresh.locale
        # The players may have clicked elsewhere meanwhile, in another language.
        await self.ctx.locales.load((s.user_id for s in table.humans()), refresh=True)
        table.prompts, table.deadlines, table.deadline_versions = {}, {}, {}
        table.deadline_epochs = {}
        table.recent, table.events_shown, table.shown = [], 0, None
        table.ai_considered, table.ai_only_since = {}, None
        _accept_earlier_controls(table)
        return True

    async def _take_over(self, claim: LeaseClaim, lease_until: float) -> bool:
        """Drive a table whose lease this process has just claimed: load it from the log (or
        refresh the cached copy), let its pending decisions keep the time they had left,
        launch its driver, and send the notice and fresh DMs. False if it cannot be driven
        (its lease is then let go)."""
        self.leases.held[claim.table_id] = max(
            self.leases.held.get(claim.table_id, 0.0), lease_until
        )
        table = self.ctx.tables.get(claim.table_id)
        if table is not None and table.driven:
            return True  # its lease had run out, but nobody took it: still driven here
        if table is None:
            table = await self._cached_or_loaded(claim.table_id)
            ok = table is not None
        else:
            async with table.lock:
                ok = await self._reload(table)
        if table is None or not ok or table.finished:
            await self.leases.release(claim.table_id)
            if table is not None and not ok:
                self.ctx.evict(table)
            return False
        if table.state.is_over:  # the last action was made, the end was not shown
            table.driven = True
            async with table.lock:
                await self.results.finish(table)
            return True
        # A deadline runs from when the decision appeared, not from now; time during which
        # no process held the table's lease (a restart, a crash) does not count.
        unowned = claim.decided_ago if claim.unowned_for is None else claim.unowned_for
        elapsed = max(0.0, claim.decided_ago - unowned)
        table.set_deadlines(self.ctx.turn_seconds(table), time.monotonic() - elapsed)
        self._launch(table)
        self.ctx.scheduler.start_for(table, self._resume_messages(table))
        log.info(
            "table %s: driven here now (decision %.1f s old, %.1f s of it unowned)",
            table.id,
            claim.decided_ago,
            min(unowned, claim.decided_ago),
        )
        return True

    async def _resume_messages(self, table: Table) -> None:
        """After a takeover: the seats' DMs again (the notifying new messages of those who
        must decide first) and the restart notice. Each DM is planned under the table's
        lock and drawn and sent after it (``_fresh_dm``): a click at the table, which the
        old controls can make meanwhile, never waits for these pictures."""
        await self.ctx.bot.wait_until_ready()
        async with table.lock:
            table.set_deadlines(self.ctx.turn_seconds(table), time.monotonic())
            table.mark_dirty()
            table.wake_driver()
            # A person who must decide but whose DM was sent for another decision (the
            # process died between storing the action and sending the DM) may have no
            # controls to act from: their DM goes now, as any new decision does, not after
            # the notices.
            behind = [s for s in table.seats if s.user_id is not None and table.dm_behind(s)]
            driven = table.driven and not table.finished
            plans = [
                (seat, self.presenter.plan_dm(table, seat, True, None)) for seat in behind if driven
            ]
        for seat, plan in plans:
            await self._fresh_dm(table, seat, plan)
        # Notices and the other fresh DMs are not urgent (the old DM controls still work):
        # they wait for a loop that keeps up (the clicks of every table that came back at
        # once come first) and for spare budget, and never hold the table while they wait.
        await self.ctx.loop_watch.calm()
        await self.outbox.post(
            table,
            Text("♻️ Teahouse restarted — this game carries on from where it was."),
            priority=Priority.BACKGROUND,
        )
        for seat in table.seats:
            if seat.played_by_ai or seat.user_id is None or table.finished:
                continue
            if any(seat is b for b in behind):  # its fresh DM went first
                continue
            await self.ctx.loop_watch.calm()
            await self.ctx.budget.spare()
            async with table.lock:
                plan = None
                if not table.finished and table.driven:
                    plan = self.presenter.plan_dm(table, seat, True, None)
            if plan is not None:
                # Its picture is drawn last too: after a restart every table's players get
                # one, and those of players who have no controls at all must not wait
                # behind them.
                plan = replace(plan, priority=Priority.BACKGROUND)
            await self._fresh_dm(table, seat, plan)

    async def _fresh_dm(self, table: Table, seat: Seat, plan: DmPlan | None) -> None:
        """Draw and send a DM planned under the table's lock, after it (a later plan for the
        seat, a click's, overtakes it)."""
        if plan is not None:
            await self.outbox.carry_out(table, seat, plan)

    def _launch(self, table: Table) -> None:
        """Drive the table here (its lease is held): the table updater and the driver."""
        table.driven = True
        self.start_leases()
        self.ctx.scheduler.start_for(
            table, self.presenter.table_updater(table), name=f"table-{table.id}-updater"
        )
        self._launch_driver(table)

    def _launch_driver(self, table: Table) -> None:
        task = self.ctx.scheduler.start_for(
            table, self.driver.drive(table), name=f"table-{table.id}-driver"
        )
        task.add_done_callback(lambda t: self._driver_ended(table, t))

    def _driver_ended(self, table: Table, task: asyncio.Task[None]) -> None:
        """A driver that died of an unexpected error is started again (the log says so)."""
        if task.cancelled() or self.ctx.closing or table.finished or not table.driven:
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

    async def close(self, timeout: float = 1.0, *, release: bool = True) -> None:
        """Stop every table's tasks and lobby timers, then let go of this process's leases
        so another process takes its tables over at once; returns within about ``timeout``
        (plus the release). ``release=False`` leaves the leases to run out, as a crash does
        (tests)."""
        tasks = self.ctx.scheduler.cancel_all()
        self.ctx.budget.close()
        self.ctx.loop_watch.close()
        pending = [t for t in tasks if not t.done()]
        if pending:
            _, still = await asyncio.wait(pending, timeout=timeout)
            if still:
                log.warning("%d table task(s) did not stop within %.1f s", len(still), timeout)
        for table in self.ctx.tables.values():
            table.driven = False
        await self.ctx.locales.flush(timeout)
        await self.ctx.budget.close_shared()
        held = list(self.leases.held)
        self.leases.held.clear()
        if release and held:
            try:
                released = await asyncio.wait_for(
                    self.ctx.store.release_leases(self.ctx.owner), timeout
                )
                log.info("released %d table lease(s)", released)
            except Exception as e:  # the leases then run out on their own
                log.warning("could not release the table leases: %r", e)

    def start_leases(self) -> None:
        """Start renewing this process's leases and scanning for tables to take over (once;
        restore and the first driven table start it)."""
        scheduler = self.ctx.scheduler
        if self.ctx.closing or any(scheduler.running(key) for key in LEASE_TASKS):
            return
        self.ctx.loop_watch.start()
        scheduler.spawn(LEASE_TASKS[0], self.leases.renew_loop(), name="leases-renew")
        scheduler.spawn(LEASE_TASKS[1], self._scan_loop(), name="leases-takeover-scan")
        scheduler.spawn(LEASE_TASKS[2], self.leases.listen(), name="leases-listen")

    async def _scan_loop(self) -> None:
        every = self.ctx.settings.takeover_scan_seconds
        swept = time.monotonic()
        while not self.ctx.closing:
            await asyncio.sleep(every)
            try:
                await self._take_over_free()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the takeover scan failed")
            if time.monotonic() - swept >= CLICK_SWEEP_SECONDS:
                swept = time.monotonic()
                try:  # (expired tokens are ignored by every reader meanwhile)
                    await self.ctx.store.forget_clicks(TOKEN_SECONDS)
                    await self.ctx.store.forget_forms()  # (ended tables': bot.host.forms)
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("forgetting expired shared clicks failed: %r", e)

    async def _take_over_free(self) -> int:
        """Claim every free lease of an active table and drive those tables. Returns how
        many this process took."""
        if self.ctx.closing or self._owners_reclaiming():
            return 0
        sent = time.monotonic()
        claims = await self.ctx.store.claim_free_leases(
            self.ctx.owner, self.ctx.settings.lease_seconds, succeeding=self.ctx.lineage
        )
        for claim in claims:
            self.leases.held[claim.table_id] = sent + self.ctx.settings.lease_seconds
        taken = 0
        # The freshest decisions first: a table whose decision is only moments old is most
        # likely waiting on an AI (AIs move within a second) or on a DM that never went out,
        # and nothing but its takeover moves it on; a table waiting on a person is taken
        # over by that person's click if it comes first (see ``_take_over_now``).
        ordered = sorted(claims, key=lambda c: c.decided_ago)
        lease_until = sent + self.ctx.settings.lease_seconds
        self._claimed.update((c.table_id, (c, lease_until)) for c in ordered)
        try:
            for start in range(0, len(ordered), PRELOAD_TABLES):
                chunk = ordered[start : start + PRELOAD_TABLES]
                # Read in bulk (a restart takes every table over): three statements for the
                # chunk instead of three per table.
                absent = [
                    c.table_id
                    for c in chunk
                    if c.table_id in self._claimed and c.table_id not in self.ctx.tables
                ]
                try:
                    loaded = await self.ctx.store.load_tables(absent)
                    self._preloaded.update(loaded)
                    # (and the players' languages, for their DMs, in one statement too)
                    await self.ctx.locales.load(
                        seat.user_id for _, seats, _ in loaded.values() for seat in seats
                    )
                except Exception as e:  # each table is then read on its own
                    log.warning("reading %d tables at once failed: %r", len(absent), e)
                try:
                    for claim in chunk:
                        # (a click there may have taken it over already)
                        if await self._take_over_now(claim.table_id) or self._drives(
                            claim.table_id
                        ):
                            taken += 1
                        await asyncio.sleep(0)
                finally:
                    for table_id in absent:  # (loaded by a click meanwhile, or not taken)
                        self._preloaded.pop(table_id, None)
        finally:
            for claim in claims:  # (closing, or cancelled: nothing takes these over now)
                self._claimed.pop(claim.table_id, None)
        if claims:
            log.info("took over %d of %d free table(s)", taken, len(claims))
        return taken

    def _owners_reclaiming(self) -> bool:
        """The database has just come back from an outage. Every lease ran out meanwhile,
        but their owners are most likely alive: they renewed nothing only because nothing
        answered. Give them two renewals' time to take their leases back (a renewal extends
        an owner's lease, expired or not, unless another process claimed it) rather than
        moving every table to whichever process scans first, each table then loaded anew
        and its players' DMs sent again. An owner that died meanwhile loses its tables
        that much later."""
        outage = self.ctx.store.outage
        if outage is None or outage.back_at is None:
            return False
        grace = RECLAIM_RENEWALS * self.ctx.settings.lease_renew_seconds
        return time.monotonic() - outage.back_at < grace

    async def _take_over_now(self, table_id: int) -> bool:
        """Take over a table whose lease was claimed for a takeover that has not reached it
        yet (or join the takeover under way). A click at such a table calls this first:
        it is then served as a driven table, with no read to catch up with the log and no
        second read when the takeover comes round. True if this takeover drove it; False if
        the table had no claim waiting (most tables: nothing is done) or could not be
        driven."""
        task: asyncio.Task[bool] | None = self.ctx.scheduler.get(("takeover", table_id))
        if task is None:
            held = self._claimed.pop(table_id, None)
            if held is None or self.ctx.closing:
                return False
            claim, lease_until = held
            task = self.ctx.scheduler.spawn(
                ("takeover", table_id),
                self._take_over_or_release(claim, lease_until),
                name=f"table-{table_id}-takeover",
            )
        return await asyncio.shield(task)

    def _drives(self, table_id: int) -> bool:
        table = self.ctx.tables.get(table_id)
        return table is not None and table.driven

    async def _take_over_or_release(self, claim: LeaseClaim, lease_until: float) -> bool:
        try:
            return await self._take_over(claim, lease_until)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: taking it over failed", claim.table_id)
            await self.leases.release(claim.table_id)
            return False


def _accept_earlier_controls(table: Table) -> None:
    """Stamp the prompts of a table just loaded from the log: the controls on the players'
    latest DMs were sent by another process (or before a restart), stamped with versions
    this process never saw; accept them until the decision changes."""
    table.changed_prompts()
    for prompt in table.prompts.values():
        prompt.from_before_restart = True
