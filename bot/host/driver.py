"""A table's driver: the task that plays AI seats (after ``ai_delay``; in an answer phase
all at once), lets AIs consider optional out-of-turn plays, applies the default action when
a deadline passes, follows the log when other processes serve clicks, and ends a table
left to AIs. Each step is guarded: a failing step is logged and the loop goes on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.engine import IllegalAction, make_rng
from bot.engine.spec import STRONG
from bot.host.base import HostBase
from bot.host.cluster import Conflict
from bot.host.lifecycle import DRIVER_MAX_FAILURES
from bot.host.table import Seat, Table
from bot.i18n import Text, localize

log = logging.getLogger(__name__)


async def _think(table: Table, seat: Seat, view: Any, legal: list[str], rng: Any) -> str:
    """The AI's action for ``seat`` at its level. ``easy`` and ``normal`` run on the loop
    (a fraction of a millisecond, p99 a few ms: a thread would only fight the loop for the
    GIL); ``strong`` searches for up to ~0.2 s, so it runs in a worker thread and the loop
    keeps serving every other table meanwhile (the table's lock is held: nothing changes
    this table's state under it)."""
    level = seat.level
    choose = table.spec.ai(level)
    if level == STRONG and level in table.spec.levels:
        return await asyncio.to_thread(choose, view, legal, rng)
    return choose(view, legal, rng)


class DriverMixin(HostBase):
    async def _drive(self, table: Table) -> None:
        """Plays AI seats and applies default actions when deadlines pass.

        Each step is guarded: a step that raises (the AI, the game, the store) is logged with
        the table id and the loop goes on after a short pause, so a table never freezes.
        """
        failures = 0
        while not table.finished and not self._closing:
            if not self._may_drive(table):
                if await self._lease_late(table):
                    continue
                self._stop_driving(table, "its lease is not confirmed")
                return
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
        if table.log_moved:  # another process served a move (it notified): read it first
            table.log_moved = False
            async with table.lock:
                if await self._sync_with_log(table):
                    return
        ai_seats = [s for s in table.waiting_on() if table.seats[s].played_by_ai]
        if ai_seats:
            await asyncio.sleep(self.settings.ai_delay)
            # In a claim window every AI answers after the same single delay, whatever it
            # holds: the window's timing tells nothing, and three AIs don't take three delays.
            for seat in ai_seats if table.in_answer_phase() else ai_seats[:1]:
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
        if not self._may_drive(table) or not await self.store.transition(
            table.id, ("active",), "aborted"
        ):
            return False
        minutes = max(1, round(self.settings.ai_only_grace / 60))
        note = Text(
            "🛑 Table #{table} ended without a result: no human has played for {n} minute(s).",
            table=table.id,
            n=minutes,
        )
        log.info("table %s: ended, every seat played by an AI", table.id)
        self.tables.pop(table.id, None)
        await self._retire(table, note, in_thread=True)
        return True

    async def _ai_move(self, table: Table, seat: int) -> None:
        async with table.lock:
            if not self._may_drive(table) or seat not in table.waiting_on():
                return
            if await self._returned_elsewhere(table, table.seats[seat]):
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
            if not self._may_drive(table):
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
                    events = await self._apply(table, seat, code, "ai")
                except Conflict:
                    return True  # the state moved on: consider again
                except IllegalAction as e:
                    log.error("table %s: AI's optional %r refused: %s", table.id, code, e)
                    continue
                await self._after_change(table, events)
                return True
        return False

    async def _returned_elsewhere(self, table: Table, s: Seat) -> bool:
        """Whether the player of a seat an AI took over pressed "I'm back" on a process that
        does not drive the table (it wrote that to the store): then the seat is theirs
        again here too. Only asked where other processes may serve the table's clicks."""
        if not s.ai_takeover or s.is_ai or self.settings.poll_seconds <= 0:
            return False
        stored = next(r for r in await self.store.get_seats(table.id) if r.seat == s.seat)
        if stored.ai_takeover:
            return False
        s.ai_takeover, s.timeouts = False, stored.timeouts
        await self._seat_returned(table, s)
        return True

    async def _timeouts(self, table: Table) -> None:
        async with table.lock:
            now = time.monotonic()
            expired = [s for s, t in table.deadlines.items() if t <= now]
            for seat in expired:
                if not self._may_drive(table) or seat not in table.waiting_on():
                    continue
                s = table.seats[seat]
                # Letting a claim window close is a normal answer (pass), not a timeout:
                # nobody is asked to click Pass on every discard.
                answering = table.in_answer_phase()
                code = table.state.default_action(seat)
                try:
                    events = await self._apply(table, seat, code, "timeout")
                except Conflict:
                    return  # the decision was made elsewhere meanwhile
                if answering:
                    await self._after_change(table, events)
                    continue
                if self.settings.poll_seconds > 0:
                    # A move served by another process ended the run of timeouts there.
                    stored = await self.store.get_seats(table.id)
                    s.timeouts = next(r.timeouts for r in stored if r.seat == seat)
                s.timeouts += 1
                # The default move is not described here: it may be a hidden one (cards
                # passed or buried); the public events say what everyone may know.
                notes = [
                    Text("⏰ {name} ran out of time; the default move was played.", name=s.name)
                ]
                if s.timeouts >= self.settings.timeouts_before_ai and not s.played_by_ai:
                    s.ai_takeover = True
                    notes.append(
                        Text(
                            "🤖 An AI now plays for {name} after {n} timeouts.",
                            name=s.name,
                            n=s.timeouts,
                        )
                    )
                await self.store.update_seat(
                    table.id, seat, timeouts=s.timeouts, ai_takeover=s.ai_takeover
                )
                await self._post(table, " ".join(localize(table.locale, n) for n in notes))
                await self._after_change(table, events)
                if s.ai_takeover:
                    await self._refresh_dm(table, s)
