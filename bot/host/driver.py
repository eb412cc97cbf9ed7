"""A table's driver: the task that plays AI seats (after ``ai_delay``; in an answer phase
all at once), plays a person's decision that has one answer (after the same pause: nobody
clicks what decides nothing), closes answer windows (see :meth:`Driver._answer_moot`),
lets AIs consider optional out-of-turn plays, applies the default action when a deadline
passes, follows the log when other processes serve clicks, and ends a table left to AIs.
Each step is guarded: a failing step is logged and the loop goes on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.engine import IllegalAction, make_rng
from bot.host.base import HostContext
from bot.host.cluster import Conflict, Leases, NotSaved, TableLog
from bot.host.deliveries import ThreadPost
from bot.host.finish import Results
from bot.host.intents import Play
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.session import TableSession
from bot.host.table import Seat, Table
from bot.i18n import Text, localize, ntext
from bot.store import outage_error

log = logging.getLogger(__name__)


#: The longest pause between two tries of a table's driver while its steps fail: the
#: first move after the database comes back waits at most this long.
LONGEST_RETRY_PAUSE = 2.0


#: Consecutive failed steps after which a table's driver stops retrying (the log says so).
DRIVER_MAX_FAILURES = 20


def retry_pause(failures: int) -> float:
    """Seconds to wait after ``failures`` failed steps in a row: 0.2, 0.4, 0.8 … up to
    :data:`LONGEST_RETRY_PAUSE` (a failing step never makes the driver spin)."""
    return min(LONGEST_RETRY_PAUSE, 0.1 * 2.0 ** min(failures, 16))


def store_failure(error: BaseException) -> bool:
    """The step failed because the store did (a move not saved, or a read or write that
    found the database away), not because of a bug: retried without end."""
    return isinstance(error, NotSaved) or outage_error(error)


async def _think(table: Table, seat: Seat, view: Any, legal: list[str], rng: Any) -> str:
    """The AI's action for ``seat`` at its level. A level that searches (``strong``, and
    Koi-Koi's ``normal``: up to ~0.2 s of CPU, :attr:`GameSpec.searching_levels`) runs in a
    worker thread, so the loop keeps serving every other table meanwhile (the table's lock
    is held: nothing changes this table's state under it); the others run on the loop (a
    fraction of a millisecond, p99 a few ms: a thread would only fight the loop for the
    GIL)."""
    level = seat.level
    choose = table.spec.ai(level)
    if table.spec.searches(level):
        return await asyncio.to_thread(choose, view, legal, rng)
    return choose(view, legal, rng)


class Driver:
    """AI seats, deadlines and timeouts, a table left to AIs: every move it makes is
    submitted to the table's session like a player's."""

    def __init__(
        self,
        ctx: HostContext,
        log: TableLog,
        leases: Leases,
        results: Results,
        presenter: Presenter,
        outbox: Outbox,
    ) -> None:
        self.ctx = ctx
        self.log = log
        self.leases = leases
        self.results = results
        self.presenter = presenter
        self.outbox = outbox

    def session(self, table: Table) -> TableSession:
        """The table's session (as :meth:`bot.host.lifecycle.Sessions.of` hands it out)."""
        return TableSession(table, self.log, self.ctx.store)

    async def drive(self, table: Table) -> None:
        """Plays AI seats and applies default actions when deadlines pass.

        Each step is guarded: a step that raises (the AI, the game, the store) is logged with
        the table id and the loop goes on after a short pause, so a table never freezes.
        """
        failures = 0
        # Passes held in an open window before a restart or a takeover: read at the first
        # step (guarded like every step).
        table.holds_moved = table.holds_moved or table.in_answer_phase()
        while not table.finished and not self.ctx.closing:
            # The match is over but its results are not written (the store failed): try
            # again. No lease is needed for that: the log is complete, and the store
            # records a match once, whoever writes it.
            end_owed = table.state.is_over and not table.ending
            if not end_owed and not self.leases.may_drive(table):
                if await self.leases.lease_late(table):
                    continue
                self.leases.stop_driving(table, "its lease is not confirmed")
                return
            try:
                if end_owed:
                    async with table.lock:
                        await self.results.finish(table, quiet=False)
                elif await self._ai_only_expired(table):
                    return
                else:
                    await self._drive_step(table)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:
                failures += 1
                if store_failure(error):
                    # The database is failing: the table keeps its deadlines and tries again
                    # after a growing pause, for as long as it takes (the store logs the
                    # outage and its end once; nothing was applied that the log lacks).
                    log.debug(
                        "table %s: store failing (%r), %d in a row", table.id, error, failures
                    )
                else:
                    log.exception("table %s: driver step failed (%d in a row)", table.id, failures)
                    if failures >= DRIVER_MAX_FAILURES:
                        raise
                await asyncio.sleep(retry_pause(failures))

    async def _drive_step(self, table: Table) -> None:
        if table.log_moved:  # another process served a move (it notified): read it first
            table.log_moved = False
            try:
                async with table.lock:
                    if await self.session(table).sync_with_log():
                        return
            except Exception:
                table.log_moved = True  # (still to read, once the store answers)
                raise
        if table.holds_moved:  # another process held a pass in the window (it notified)
            table.holds_moved = False
            try:
                async with table.lock:
                    await self._adopt_held(table)
            except Exception:
                table.holds_moved = True  # (still to read, once the store answers)
                raise
        movers = table.auto_movers()
        if movers:
            await asyncio.sleep(self.ctx.settings.ai_delay)
            # In a claim window every AI answers after the same single delay, whatever it
            # holds: the window's timing tells nothing, and three AIs don't take three delays.
            for seat in movers if table.in_answer_phase() else movers[:1]:
                await self._ai_move(table, seat)
            return
        if await self._answer_moot(table):
            return
        if await self._ai_optional_moves(table):
            return
        timeout = None
        if table.deadlines:
            timeout = max(0.0, min(table.deadlines.values()) - time.monotonic())
        poll = self.leases.log_poll_seconds()
        if poll > 0:  # other processes may serve this table's clicks: look at the log
            timeout = poll if timeout is None else min(timeout, poll)
        if table.ai_only_since is not None:
            left = table.ai_only_since + self.ctx.settings.ai_only_grace - time.monotonic()
            timeout = max(0.0, left) if timeout is None else min(timeout, max(0.0, left))
        try:
            await asyncio.wait_for(table.wake.wait(), timeout)
            table.wake.clear()
        except TimeoutError:
            if poll > 0:
                async with table.lock:
                    if await self.session(table).sync_with_log():
                        return
                    if table.in_answer_phase():  # (a held pass's notification may be lost)
                        await self._adopt_held(table)
            await self._timeouts(table)

    async def _adopt_held(self, table: Table) -> None:
        """Hold the passes other processes held for this table's seats in the open answer
        window (see ``TableSession._hold_pass``): each for the decision it answered only."""
        if not table.in_answer_phase():
            return
        waiting = set(table.waiting_on())
        for seat, version in (await self.ctx.store.held_passes(table.id)).items():
            prompt = table.prompts.get(seat)
            if seat in waiting and prompt is not None and prompt.version == version:
                table.held[seat] = version

    async def _ai_only_expired(self, table: Table) -> bool:
        """End a table whose every seat is played by an AI (all humans timed out) once it
        has gone on like that for ``ai_only_grace`` seconds. True if it was ended."""
        if not all(s.played_by_ai for s in table.seats):
            table.ai_only_since = None
            return False
        now = time.monotonic()
        if table.ai_only_since is None:
            table.ai_only_since = now
        if now - table.ai_only_since < self.ctx.settings.ai_only_grace:
            return False
        if not self.leases.may_drive(table) or not await self.ctx.store.transition(
            table.id, ("active",), "aborted"
        ):
            return False
        minutes = max(1, round(self.ctx.settings.ai_only_grace / 60))
        note = ntext(
            "🛑 Table #{table} ended without a result: no human has played for {n} minute.",
            "🛑 Table #{table} ended without a result: no human has played for {n} minutes.",
            minutes,
            table=table.id,
        )
        log.info("table %s: ended, every seat played by an AI", table.id)
        self.ctx.tables.pop(table.id, None)
        await self.results.retire(table, note, in_thread=True)
        return True

    async def _ai_move(self, table: Table, seat: int) -> None:
        """The move of a seat the driver plays (see ``Table.auto_movers``): the AI's, or a
        person's only answer."""
        async with table.lock:
            if not self.leases.may_drive(table) or seat not in table.auto_movers():
                return
            if await self._returned_elsewhere(table, table.seats[seat]):
                return
            if not table.seats[seat].played_by_ai:
                await self._only_answer(table, seat)
                return
            state = table.state
            view = state.view(seat)
            legal = state.legal_actions(seat)
            rng = make_rng(table.seed, "ai", state.version, seat)
            try:
                code = await _think(table, table.seats[seat], view, legal, rng)
            except Exception:
                log.exception(
                    "table %s: the AI failed for seat %s; using the default", table.id, seat
                )
                code = state.default_action(seat)
            session = self.session(table)
            try:
                await session.submit(Play(seat, code, "ai"))
            except Conflict:
                return  # the log moved on: the driver plans again from the new state
            except NotSaved:
                raise  # nothing changed: the driver tries again after a pause
            except IllegalAction as e:
                log.error("table %s: AI chose illegal %r (%s); using default", table.id, code, e)
                await session.submit(Play(seat, table.state.default_action(seat), "ai"))

    async def _only_answer(self, table: Table, seat: int) -> None:
        """Play a person's decision that has one answer (under the table's lock)."""
        code = table.answers(seat)[0]
        try:
            await self.session(table).submit(Play(seat, code, "auto"))
        except Conflict:
            return  # the log moved on: the driver plans again from the new state

    async def _answer_moot(self, table: Table) -> bool:
        """In an answer window once a claim is in: answer for a seat whose answer can no
        longer change the outcome (``State.moot_answers``), or apply a pass it gave, so the
        claim is resolved as soon as no better one can come. One seat per step: the answer
        may close the window and open the next. True if one was answered.

        Before a claim nothing is answered early: the window runs to its close, the same
        length whoever could claim (see ``_timeouts``)."""
        async with table.lock:
            if not self.leases.may_drive(table) or not table.in_answer_phase():
                return False
            moot = table.state.moot_answers()
            if moot is None:
                return False
            for seat in table.waiting_on():
                held = table.holds(seat)
                if not held and (seat not in moot or table.seats[seat].played_by_ai):
                    continue  # (an AI answers after its delay, as every AI does)
                code = table.state.default_action(seat)
                try:
                    await self.session(table).submit(Play(seat, code, "player" if held else "auto"))
                except Conflict:
                    return True
                return True
        return False

    async def _ai_optional_moves(self, table: Table) -> bool:
        """Let AI seats with optional out-of-turn actions (an Ambush) use them; the AI
        answers "" to wait. Each seat considers each state version once. True if one acted."""
        async with table.lock:
            if not self.leases.may_drive(table):
                return False
            version = table.state.version
            for seat in table.state.may_act:
                s = table.seats[seat]
                if not s.played_by_ai or table.ai_considered.get(seat) == version:
                    continue
                table.ai_considered[seat] = version
                view, legal = table.state.view(seat), table.state.legal_actions(seat)
                rng = make_rng(table.seed, "ai-optional", version, seat)
                try:
                    code = await _think(table, s, view, legal, rng)
                except Exception:
                    log.exception("table %s: the AI failed on an optional play", table.id)
                    continue
                if not code:
                    continue
                try:
                    await self.session(table).submit(Play(seat, code, "ai"))
                except Conflict:
                    return True  # the state moved on: consider again
                except NotSaved:
                    table.ai_considered.pop(seat, None)  # (not made: considered again)
                    raise
                except IllegalAction as e:
                    log.error("table %s: AI's optional %r refused: %s", table.id, code, e)
                    continue
                return True
        return False

    async def _returned_elsewhere(self, table: Table, s: Seat) -> bool:
        """Whether the player of a seat an AI took over pressed "I'm back" on a process that
        does not drive the table (it wrote that to the store): then the seat is theirs
        again here too. Only asked where other processes may serve the table's clicks."""
        if not s.ai_takeover or s.is_ai or self.ctx.settings.poll_seconds <= 0:
            return False
        stored = next(r for r in await self.ctx.store.get_seats(table.id) if r.seat == s.seat)
        if stored.ai_takeover:
            return False
        s.ai_takeover, s.timeouts = False, stored.timeouts
        await self.seat_returned(table, s)
        return True

    async def _timeouts(self, table: Table) -> None:
        async with table.lock:
            now = time.monotonic()
            expired = [s for s, t in table.deadlines.items() if t <= now]
            for seat in expired:
                if not self.leases.may_drive(table):
                    continue
                if seat not in table.waiting_on():
                    # (a decision that ended without a new deadline being set: dropped, or
                    # the driver would find it expired again at once, every turn of the loop)
                    table.deadlines.pop(seat, None)
                    continue
                if table.deadlines.get(seat, now) > now:
                    continue  # an answer before it closed this window and opened another
                s = table.seats[seat]
                # Letting a claim window close is a normal answer (pass), not a timeout:
                # nobody is asked to click Pass on every discard. A pass given meanwhile
                # (held till the close) is the player's own.
                answering = table.in_answer_phase()
                code = table.state.default_action(seat)
                source = _closing_source(table, seat)
                session = self.session(table)
                try:
                    outcome = await session.make(Play(seat, code, source))
                except Conflict:
                    return  # the decision was made elsewhere meanwhile
                if answering or source != "timeout":
                    await session.publish(outcome)
                    continue
                # (the thread says who ran out of time before the change shows)
                notes = await self._timed_out(table, s)
                said = " ".join(localize(table.locale, n) for n in notes)
                await self.outbox.deliver(table, [ThreadPost(table.id, said)])
                await session.publish(outcome)
                if s.ai_takeover:
                    await self.presenter.refresh_dm(table, s)

    async def _timed_out(self, table: Table, s: Seat) -> list[Text]:
        """Count a timeout of the seat (its default move is made); an AI takes the seat over
        after ``timeouts_before_ai`` in a row. The thread's notes about it. The move is
        already in the log: if the store fails here the count may stay behind, and the
        move is still shown (never left half done)."""
        try:
            if self.ctx.settings.poll_seconds > 0:
                # A move served by another process ended the run of timeouts there.
                stored = await self.ctx.store.get_seats(table.id)
                s.timeouts = next(r.timeouts for r in stored if r.seat == s.seat)
        except Exception as e:
            log.warning("table %s: reading seat %s's timeouts failed: %r", table.id, s.seat, e)
        s.timeouts += 1
        # The default move is not described here: it may be a hidden one (cards passed or
        # buried); the public events say what everyone may know.
        notes = [Text("⏰ {name} ran out of time; the default move was played.", name=s.name)]
        if s.timeouts >= self.ctx.settings.timeouts_before_ai and not s.played_by_ai:
            s.ai_takeover = True
            notes.append(
                ntext(
                    "🤖 An AI now plays for {name} after {n} timeout.",
                    "🤖 An AI now plays for {name} after {n} timeouts.",
                    s.timeouts,
                    name=s.name,
                )
            )
        try:
            await self.ctx.store.update_seat(
                table.id, s.seat, timeouts=s.timeouts, ai_takeover=s.ai_takeover
            )
        except Exception as e:
            log.warning("table %s: storing seat %s's timeouts failed: %r", table.id, s.seat, e)
        return notes

    async def seat_returned(self, table: Table, s: Seat) -> None:
        """A seat an AI played is the player's again (under the table's lock, driven here):
        a fresh decision, deadline and DM."""
        table.prompts.pop(s.seat, None)
        table.deadlines.pop(s.seat, None)  # a fresh deadline for the returning player
        table.changed_prompts()
        table.set_deadlines(self.ctx.turn_seconds(table))
        await self.presenter.refresh_dm(table, s, fresh=True)
        table.mark_dirty()
        table.wake_driver()


def _closing_source(table: Table, seat: int) -> str:
    """Whose answer a seat's default move at its deadline is, for the log: the player's
    pass given earlier and held till an answer window's close; the bot's for a seat that
    had one answer (a pass-only seat of a claim window); else a timeout."""
    if table.holds(seat):
        return "player"
    if table.forced(seat):
        return "auto"
    return "timeout"
