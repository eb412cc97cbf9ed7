"""Several processes, one database: the in-memory state is a cache of the shared action log,
and a table is driven by the one process holding its lease.

**The log decides.** An action is appended at the index of the state it was decided on; if
another process appended first the store refuses it, this process rebuilds from the log and
refuses the action (:class:`Conflict`) — so no decision is ever applied twice, whoever
makes it (a click, a timeout, an AI). A driver catches up with moves served elsewhere
(every ``TEAHOUSE_LOG_POLL`` seconds), and a cache serving a click catches up first.

**Leases decide who drives.** A process drives a table — its timers, AI seats, claim
windows, table message, DMs and end — only while it holds the table's lease in the store
(``Store.claim_lease``). Leases last ``lease_seconds``; this process renews all of its own
in one statement every ``lease_renew_seconds`` and stops driving any table whose renewal
failed (another process took it after it expired, or it ended); nothing is decided at a
table past the local time its last confirmed renewal covers: its driver waits for the next
renewal (a late one, at a busy moment, must not make the process give up tables whose
leases are still its own). Every ``takeover_scan_seconds`` it
claims the free leases of active tables (their process died, or let them go at shutdown)
and takes those tables over from the log. A process that serves a click for a table it
does not drive only applies and logs it (a DM click with its token): the driving process
shows the change, so DMs have one sender, and answers the player through that token as if
the click had come to it (no REST budget). On PostgreSQL every append notifies the others (``LISTEN``/``NOTIFY``), so
the driving process reads a move served elsewhere at once, not at its next look.

Here: :class:`TableLog` (the log decides) and :class:`Leases` (leases held, renewed, let
go of, and the notifications); the takeover scan and takeovers are the
:class:`~bot.host.lifecycle.Sessions`'.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from bot.engine import IllegalAction
from bot.host.base import HostContext
from bot.host.intents import Outcome, Subscriber
from bot.host.options import game_options
from bot.host.table import Table, serving
from bot.host.tokens import TOKEN_SECONDS, ClickToken
from bot.i18n import Text
from bot.store import SharedClick, Store, StoreError, TableClosed, outage_error

log = logging.getLogger(__name__)

#: A cached table (not driven here) nobody clicked for this long is forgotten; the next
#: click loads it again from the log.
CACHE_IDLE_SECONDS = 600.0
#: Tables a takeover reads from the store at once (see ``Store.load_tables``): a restart
#: reads a thousand tables' logs in one go (a few MB), and clicks on them find them read.
PRELOAD_TABLES = 1000
#: Seconds between two sweeps of the shared clicks whose tokens expired (any process's).
CLICK_SWEEP_SECONDS = 60.0
#: Renewals the owners of leases that ran out during a database outage are given to take
#: them back before another process claims them (see ``_owners_reclaiming``).
RECLAIM_RENEWALS = 2
#: Seconds between a driven table's looks at its log while the store notifies every append
#: (a safety net only: see ``Leases.log_poll_seconds``).
LISTENING_POLL_SECONDS = 30.0


class Conflict(IllegalAction):
    """The log moved on under this process (another one served the table): the action was
    decided on an older state and is not made."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(
            reason
            or Text(
                "Another move was made at this table just before yours. Use your latest controls."
            )
        )


class NotSaved(IllegalAction):
    """The action could not be written to the log (the database failed or did not answer):
    it is not made, and the state is as the log has it. The player may try again."""

    def __init__(self) -> None:
        super().__init__(
            Text("Your move was not saved: the game's database did not answer. Try again.")
        )


class TableEnded(Conflict):
    """The table was aborted (or ended) in the store before the action was logged."""

    def __init__(self) -> None:
        super().__init__(Text("This table is no longer running."))


class TableLog:
    """The action log as the truth of a table: an action is checked, appended (the commit
    point) and only then applied; a table not driven here is a cache brought up to date
    from the log. What a change made is published as an :class:`Outcome` to the
    subscribers (the presenter), never shown from here."""

    def __init__(self, ctx: HostContext) -> None:
        self.ctx = ctx
        #: Who is told of every change (the presenter first; see bot.host.manager).
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        """Tell ``subscriber`` of every change made through this log, in order."""
        self._subscribers.append(subscriber)

    async def publish(self, outcome: Outcome) -> Outcome:
        """Hand what a change made to the subscribers, each in turn and awaited (their order
        is the order of the effects: see bot.host.manager); returns the outcome handed.

        The outcome's ``events`` are the public events the state holds since the last
        outcome (a change may apply several actions): taken from the state here, which then
        drops them, so a long match does not hold every event text in memory (the store's
        action log is the record). The seats' prompts follow the state here (a cache's too:
        its clicks are checked against them), and the seats whose decision or hand changed
        join ``changed``."""
        table = outcome.table
        shown = tuple(table.state.visible_events(None, table.events_shown))
        table.state.events.clear()
        table.events_shown = 0
        if not outcome.stamped:  # (a cache only stamps the versions its clicks are judged by)
            changed = outcome.changed | frozenset(table.changed_prompts(shown=table.driven))
            outcome = replace(outcome, changed=changed)
        outcome = replace(outcome, events=shown)
        for subscriber in self._subscribers:
            await subscriber(outcome)
        return outcome

    async def commit(
        self, table: Table, seat: int, code: str, source: str, click: SharedClick | None = None
    ) -> list[Any]:
        """Make one action: checked, appended to the log, and only then applied.

        **The log is the commit point**: the state changes only once the append is
        committed. ``State.validate`` checks the action without changing anything (an
        ``IllegalAction`` leaves all as it was); a failed append raises :class:`NotSaved`
        with the state untouched (no copy of the state is made, and none needs undoing).
        If the log has moved on (another process served a click of this table), the store
        refuses the index, this process catches up with the log and the action, decided on
        an older state, is refused with :class:`Conflict`.

        ``click``: the DM click that made the action, where another process drives the
        table: logged with it, so that process answers the player through it (see
        :meth:`sync_with_log`).
        """
        code = table.state.validate(seat, code)
        await self._append(table, seat, code, source, click)
        events = table.state.apply(seat, code)
        table.wake_driver()
        return events

    async def _append(
        self, table: Table, seat: int, code: str, source: str, click: SharedClick | None = None
    ) -> None:
        """Append one action to the log at the state's version; raises :class:`Conflict`
        if another writer had taken the index, :class:`TableEnded` if the table ended in the
        store, :class:`NotSaved` if the store failed."""
        index = table.state.version
        table.appending = index
        try:
            await self.ctx.store.append_action(table.id, index, seat, code, source, click)
        except Exception as error:
            raise await self._refusal(table, index, error) from error
        finally:
            # (the caller applies the action before it awaits anything: a notification of
            # this append heard later finds the state past it)
            table.appending = None

    async def _refusal(self, table: Table, index: int, error: Exception) -> IllegalAction:
        """What a failed append of action ``index`` means for the one who made it (with the
        state as the log has it)."""
        if isinstance(error, TableClosed):
            log.info("table %s: ended in the store; action %d not logged", table.id, index)
            table.finished = True
            return TableEnded()
        if isinstance(error, StoreError) and not outage_error(error):
            # The index is taken: another writer's action stands. Catch up with it.
            log.info("table %s: action %d was taken by another writer", table.id, index)
            try:
                await self.sync_with_log(table)
            except Exception:
                table.log_moved = True  # (the driver reads it once the store answers)
                return NotSaved()
            return Conflict()
        # The database failed. It may have failed after the commit (the answer was lost):
        # the log is read again once the store answers (log_moved).
        log.warning(
            "table %s: action %d not saved (%r); the state stays as the log has it",
            table.id,
            index,
            error,
        )
        table.log_moved = True
        table.wake_driver()
        return NotSaved()

    async def commit_together(
        self,
        table: Table,
        requests: list[tuple[int, str]],
        source: str,
        clicks: dict[int, SharedClick] | None = None,
    ) -> list[Any]:
        """Apply actions asked for at the same moment (the game's priority decides which
        are made) and log them. Which are made is only known by applying them, so here the
        state changes first and, if an append fails, is rebuilt from the actions the log
        holds — from memory (the state's own log up to the failed index is exactly what
        was committed): no database read. The rare path (Panda's out-of-turn plays): the
        rebuild costs a replay of the match, and only when the store fails. ``clicks``: by
        seat, the DM clicks logged with their actions (see :meth:`commit`)."""
        start = table.state.version
        events = table.state.apply_simultaneous(requests)
        made = table.state.log[start:]
        for offset, (seat, code) in enumerate(made):
            try:
                await self.ctx.store.append_action(
                    table.id, start + offset, seat, code, source, (clicks or {}).get(seat)
                )
            except Exception as error:
                committed = table.state.log[: start + offset]
                self._rebuild(table, committed)
                raise await self._refusal(table, len(committed), error) from error
        table.wake_driver()
        return events

    async def sync_with_log(self, table: Table, read: list[tuple[int, str]] | None = None) -> bool:
        """Apply what the log holds beyond this state; True if there was anything.
        ``read``: the log from this state's version on, read by the caller (a cache's
        catch-up), if it was.

        Actions are applied one by one and the prompts follow each, so a decision's prompt
        version here is the one the process that saw it happen stamped on its controls.

        Driving the table, the DM clicks that made those actions elsewhere come with them
        (one statement): the players are answered through them (see :meth:`_adopt_click`)."""
        clicks: dict[int, SharedClick] = {}
        locales: dict[int, str] = {}
        if read is not None and not table.driven:
            missed = read
        elif table.driven:
            missed, clicks, locales = await self.ctx.store.actions_with_clicks_since(
                table.id, table.state.version, TOKEN_SECONDS
            )
        else:
            missed = await self.ctx.store.actions_since(table.id, table.state.version)
        if not missed:
            return False
        for seat, click in clicks.items():
            self._adopt_click(table, seat, click)
        # The players who moved elsewhere may have changed language there: their stored
        # languages came with the moves (no read of their own).
        self.ctx.locales.learn(locales)
        log.debug("table %s: catching up %d action(s) from the log", table.id, len(missed))
        changed: set[int] = set()
        stamped = True  # (the prompts follow each action: the presenter need not look again)
        try:
            for seat, code in missed:
                table.state.apply(seat, code)  # (its events are the outcome's: see publish)
                changed.update(table.changed_prompts(shown=table.driven))
        except IllegalAction:  # diverged: replay the whole log
            self._rebuild(table, await self.ctx.store.actions(table.id))
            stamped = False
        await self.publish(Outcome(table, changed=frozenset(changed), stamped=stamped))
        return True

    def _adopt_click(self, table: Table, seat: int, click: SharedClick) -> None:
        """A player's DM click served by another process, read with its action: it is the
        seat's latest click (unless this process holds a later one), so the seat's next
        DMs and edits go through its token as if the click had come here (no REST budget),
        and the player counts as playing since it (an edit in place, not a new DM)."""
        if not 0 <= seat < len(table.seats):
            return
        s = table.seats[seat]
        token = ClickToken.of_shared(self.ctx.bot, click)
        kept: ClickToken | None = s.token
        if kept is None or (kept.token != token.token and kept.clicked_at < token.clicked_at):
            s.token = token
        acted = time.monotonic() - click.age
        if s.acted_at is None or s.acted_at < acted:
            s.acted_at = acted

    async def catch_up(self, table: Table) -> None:
        """Bring a cached table (not driven here) up to date before judging a click on it
        (under its lock): the log, and the seats' flags the driving process changes
        (an AI taking a seat over, timeouts). A table that ended elsewhere is forgotten."""
        # (one statement: the status, the log and the seats, not three a click)
        read = await self.ctx.store.catch_up(table.id, table.state.version)
        if read is None or read.status != "active":
            table.finished = True
            self.ctx.evict(table)
            return
        await self.sync_with_log(table, read.actions)
        for number, (ai_takeover, timeouts, dms_closed) in read.seats.items():
            if 0 <= number < len(table.seats):
                seat = table.seats[number]
                seat.ai_takeover, seat.timeouts = ai_takeover, timeouts
                seat.dms_closed = dms_closed

    def _rebuild(self, table: Table, actions: list[tuple[int, str]]) -> None:
        table.state = table.spec.replay(
            table.seed, [s.name for s in table.seats], game_options(table.options), actions
        )
        table.state.events.clear()
        table.events_shown = 0


class Leases:
    """This process's leases on the tables it drives: held until when, renewed, let go of;
    and the store's notifications of appends made by other processes."""

    def __init__(self, ctx: HostContext) -> None:
        self.ctx = ctx
        #: Table id -> until when (monotonic) this process's lease on it is confirmed.
        self.held: dict[int, float] = {}
        #: Set when a renewal of the leases has been tried (then replaced for the next one).
        self._renewal_tried = asyncio.Event()

    async def listen(self) -> None:
        """Where the store can notify (PostgreSQL), hear of every append at once instead of
        at the next look at the log (which stays, less urgent, as the fallback)."""
        try:
            if await self.ctx.store.listen_for_actions(self._heard_append, self._listening_again):
                log.info("listening for actions appended by other processes")
        except Exception as e:
            log.warning("cannot listen for appended actions (%r); looking at the log only", e)

    def _listening_again(self) -> None:
        """The store listens again after its connection was lost: appends made meanwhile
        were not heard, so every table driven here reads its log (a catch-up read)."""
        driven = [t for t in self.ctx.tables.values() if t.driven and not t.finished]
        log.info("listening again: %d driven table(s) read their logs", len(driven))
        for table in driven:
            table.log_moved = True
            table.wake_driver()

    def _heard_append(self, table_id: int, idx: int) -> None:
        table = self.ctx.tables.get(table_id)
        if idx == Store.HELD:  # a pass held elsewhere, for the driver to hold too
            if table is not None and table.driven:
                table.holds_moved = True
                table.wake_driver()
            return
        # Only moves this process has not applied: its own appends are heard too — often
        # before the append's own answer (another connection), while the state is still at
        # the index appended; reading the log then found nothing, a read per own move.
        if (
            table is not None
            and table.driven
            and idx >= table.state.version
            and idx != table.appending
        ):
            table.log_moved = True
            table.wake_driver()

    def log_poll_seconds(self) -> float:
        """How often a driven table looks at the log for moves served elsewhere (0: never,
        one process). While the store notifies every append (PostgreSQL's LISTEN is up)
        only rarely (:data:`LISTENING_POLL_SECONDS`): the notification brings each move at
        once, and a LISTEN connection lost and made again reads every log. Polling every
        second as well was 150 empty reads a second per process at 300 tables on two
        processes — most of the log reads, and their CPU, for nothing."""
        poll = self.ctx.settings.poll_seconds
        if poll > 0 and self.ctx.store.listening:
            return max(poll, LISTENING_POLL_SECONDS)
        return poll

    def _holds_lease(self, table_id: int) -> bool:
        """This process's lease on the table is confirmed until later than now."""
        return self.held.get(table_id, 0.0) > time.monotonic()

    def may_drive(self, table: Table) -> bool:
        """Whether a timeout, an AI move or the table's end may be carried out here now."""
        return table.driven and not table.finished and self._holds_lease(table.id)

    async def lease_late(self, table: Table) -> bool:
        """The table's lease is not confirmed now, but this process still counts it as its
        own: its renewal is late (a busy moment, a slow database), not refused. Wait for the
        renewal rather than give the table up — in the store the lease is still this
        process's, so nobody else would drive it. True once the lease is confirmed again;
        False if it was lost (another process took it, the table ended) or the table is no
        longer driven here. Meanwhile nothing is decided here (no AI move, no timeout)."""
        while table.driven and not table.finished and not self.ctx.closing:
            if self._holds_lease(table.id):
                return True
            if table.id not in self.held:
                return False
            await self._renewal_tried.wait()
        return False

    def stop_driving(self, table: Table, why: str) -> None:
        if table.driven:
            log.warning("table %s: no longer driven here (%s)", table.id, why)
        if table.stop_driving():
            self.ctx.scheduler.cancel_table(table, keep=serving)

    async def release(self, table_id: int) -> None:
        """Let go of the table's lease (its end, an abort): nothing is left to drive."""
        if self.held.pop(table_id, None) is None:
            return
        try:
            await self.ctx.store.release_leases(self.ctx.owner, [table_id])
        except Exception as e:  # it runs out on its own; the table is not active anyway
            log.warning("table %s: releasing its lease failed: %r", table_id, e)

    async def renew_loop(self) -> None:
        every = self.ctx.settings.lease_renew_seconds
        while not self.ctx.closing:
            await asyncio.sleep(every)
            try:
                await self._renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                # The tables' drivers wait (deciding nothing) until a renewal says whether
                # their leases are still this process's (see _lease_late).
                log.exception("renewing the table leases failed")
            finally:
                tried, self._renewal_tried = self._renewal_tried, asyncio.Event()
                tried.set()
            self._forget_idle_caches()

    async def _renew(self) -> None:
        if not self.held:
            return
        held = set(self.held)
        sent = time.monotonic()
        ttl = self.ctx.settings.lease_seconds
        renewed = await self.ctx.store.renew_leases(self.ctx.owner, ttl)
        for table_id in renewed & held:
            if table_id in self.held:
                self.held[table_id] = max(self.held[table_id], sent + ttl)
        for table_id in held - renewed:
            # Taken by another process after it expired here, or the table ended.
            self.held.pop(table_id, None)
            table = self.ctx.tables.get(table_id)
            if table is None or table.ending or table.state.is_over:
                continue  # gone, or ending here (its end completes, or is tried again)
            self.stop_driving(table, "its lease was not renewed")
            row = await self.ctx.store.get_table(table_id)
            if row is None or row.status != "active":  # ended elsewhere: nothing to serve
                table.finished = True
                self.ctx.evict(table)

    def _forget_idle_caches(self) -> None:
        """Forget cached tables nobody clicked for a while (another process drives them)."""
        now = time.monotonic()
        for table in list(self.ctx.tables.values()):
            if (
                not table.driven
                and now - table.last_used > CACHE_IDLE_SECONDS
                and not table.lock.locked()
                and table.batch is None
            ):
                self.ctx.evict(table)
