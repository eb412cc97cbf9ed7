"""A table's session: the one door every move of a table goes through — a person's click
(:mod:`bot.host.clicks`), out-of-turn clicks gathered a moment, and the driver's moves
(:mod:`bot.host.driver`: AIs, deadlines' defaults, only answers).

:meth:`TableSession.submit` takes a :class:`~bot.host.intents.Play`, and for its table:
checks it (in memory: :func:`precheck` for a person's click, then ``State.validate``),
appends it to the action log (the commit point: :meth:`TableLog.commit
<bot.host.cluster.TableLog.commit>`), applies it, and publishes the
:class:`~bot.host.intents.Outcome` to the subscribers (the deal summaries, the new
decisions' deadlines — :func:`clocks` —, the presenter, the results: see
bot.host.manager), which it returns. It makes no Discord call: a refusal comes back as an
exception (:class:`Refused`, or the log's ``IllegalAction``) that the intake turns into
the click's one answer.

The caller holds the table's lock (the driver holds it across an AI's thinking and its
move). The registry that hands out sessions is :class:`bot.host.lifecycle.Sessions`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.engine import IllegalAction
from bot.host.cluster import Conflict, TableLog
from bot.host.intents import Gathered, Outcome, Play, Subscriber, Together
from bot.host.table import Table
from bot.i18n import Text
from bot.store import SharedClick, Store

log = logging.getLogger(__name__)

#: Why a gathered play was not made though nothing failed: another had priority.
NOT_PRIORITY = Text("Another play had priority at that moment; yours was not made.")


class Refused(Exception):
    """A person's play the session does not take (the precheck's reason): nothing changed,
    nothing was logged. Told to the player as it is (no warning sign: it is no error)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(str(reason))
        self.reason = reason


def precheck(table: Table | None, user_id: int, seat: int, version: int) -> Text | None:
    """Why a click cannot be taken (None if it can). In memory only: it must be fast (the
    click is acknowledged after it)."""
    if table is None:
        return Text("This table is no longer running.")
    if table.finished or table.state.is_over:
        return Text("This game is over.")
    if not 0 <= seat < len(table.seats):
        return Text("That seat does not exist.")
    owner = table.seats[seat]
    if owner.user_id != user_id:
        return (
            Text("You are not playing at this table.")
            if table.seat_of(user_id) is None
            else Text("Those controls belong to another player.")
        )
    if owner.ai_takeover:
        return Text("An AI is playing your seat after repeated timeouts.")
    prompt = table.prompts.get(seat)
    # Valid: controls of the seat's current decision, which began at prompt.version —
    # stamped then, or later by a process that saw the decision begin one action later
    # (it caught up several at once); or controls from before a load from the log.
    if prompt is None or not (
        (0 if prompt.from_before_restart else prompt.version) <= version <= table.state.version
    ):
        return Text("These controls are out of date — use your latest hand message.")
    if seat not in table.state.to_act and seat not in table.state.may_act:
        return Text("It is not your turn.")
    return None


def clocks(turn_seconds: Callable[[Table], float]) -> Subscriber:
    """The subscriber that starts the clocks of a change's new decisions (a decision keeps
    its deadline until it changes), where the table is driven. Subscribed after the deal
    summaries, before the presenter (bot.host.manager): a new deal's first decision gets
    its full time once the last deal's summary is out, and its DM shows that deadline."""

    async def start_clocks(outcome: Outcome) -> None:
        table = outcome.table
        if table.driven:
            table.set_deadlines(turn_seconds(table), time.monotonic())

    return start_clocks


class TableSession:
    """One table's moves: checked, logged (the commit point), applied and published."""

    def __init__(self, table: Table, log: TableLog, store: Store) -> None:
        self.table = table
        self.log = log
        self.store = store

    def check(self, user_id: int, seat: int, version: int) -> Text | None:
        """:func:`precheck` at this table."""
        return precheck(self.table, user_id, seat, version)

    async def submit(self, play: Play) -> Outcome:
        """Make ``play`` and publish what it made (a pass held in an answer window: where
        the table is driven, to redraw the seat's DM); returns the outcome published.
        Raises :class:`Refused` (a person's click that cannot be taken now) or the log's
        ``IllegalAction`` (illegal, a ``Conflict``, ``NotSaved``…): nothing changed then."""
        outcome = await self.make(play)
        if outcome.held and not self.table.driven:
            return outcome  # (the process driving the table applies it at the close)
        outcome = await self.log.publish(outcome)
        if outcome.held:
            self.table.wake_driver()  # (a claim may be in meanwhile: then the pass counts now)
        return outcome

    async def make(self, play: Play) -> Outcome:
        """Make ``play`` without publishing it (see :meth:`submit`): the caller publishes the
        outcome (:meth:`publish`) once what must come before it is done (a timeout's
        notes)."""
        table = self.table
        if play.user_id is not None:
            problem = self.check(play.user_id, play.seat, play.version)
            if problem is not None:
                raise Refused(problem)
            if self._holds_pass(play):
                return await self._hold_pass(play)
        start = table.state.version
        await self.log.commit(table, play.seat, play.code, play.source, play.click)
        if play.user_id is not None:
            await self._played(play.seat)
            if play.token is not None and play.answered:  # its token can carry later DMs
                table.seats[play.seat].token = play.token
        return Outcome(
            table,
            via=play.via if play.answered else None,
            made=tuple(table.state.log[start:]),
        )

    async def publish(self, outcome: Outcome | None = None) -> Outcome:
        """Publish a change to the subscribers (``None``: whatever the state holds since
        the last one — a table's first prompts); returns the outcome they were handed."""
        return await self.log.publish(outcome or Outcome(self.table))

    async def submit_together(self, together: Together) -> Gathered:
        """Make plays asked for at the same moment: each person's checked (:func:`precheck`),
        those that pass applied in the game's priority order and logged together, and what
        that made published. Which were made and why the others were not comes back; a
        failure of the log (a conflict, the table ended, not saved) refuses those it did
        not take."""
        table = self.table
        refused: list[tuple[Play, Exception]] = []
        plays: list[Play] = []
        clicks: dict[int, SharedClick] = {}
        for play in together.plays:
            problem = (
                None if play.user_id is None else self.check(play.user_id, play.seat, play.version)
            )
            if problem is not None:
                refused.append((play, Refused(problem)))
                continue
            plays.append(play)
            if play.click is not None:
                clicks[play.seat] = play.click
        start = table.state.version
        failure: IllegalAction | None = None
        try:
            await self.log.commit_together(
                table, [(p.seat, p.code) for p in plays], together.source, clicks
            )
        except IllegalAction as e:  # a conflict, the table ended, or not saved
            failure = e
        # (after a failure: those the log took before it, if any)
        made_codes = table.state.log[start:]
        made: list[Play] = []
        for play in plays:
            if (play.seat, table.state.normalize(play.seat, play.code)) in made_codes:
                made.append(play)
                if play.user_id is not None:
                    await self._played(play.seat)
            else:
                why = failure if failure is not None else IllegalAction(NOT_PRIORITY)
                refused.append((play, why))
        outcome = None
        if failure is None or (made_codes and not isinstance(failure, Conflict)):
            outcome = await self.log.publish(Outcome(table, made=tuple(made_codes)))
        return Gathered(outcome, tuple(made), tuple(refused))

    def _holds_pass(self, play: Play) -> bool:
        """Whether ``play`` is a pass in an answer window nobody has claimed in yet: it is
        held (``Table.held``) and applied when the window closes. Applied now, it would end
        the seat's wait before the others' (who are answered at the close): that would show
        who was asked, that is, who could claim."""
        table = self.table
        if not table.in_answer_phase() or table.state.moot_answers() is not None:
            return False
        try:
            normalized = table.state.normalize(play.seat, play.code)
            return normalized == table.state.default_action(play.seat)
        except IllegalAction:
            return False

    async def _hold_pass(self, play: Play) -> Outcome:
        """Hold a seat's pass till its window closes; its DM says so (once published)."""
        table = self.table
        version = table.prompts[play.seat].version
        # Written wherever it is held: the driver closes the window and must know the pass
        # is the player's (a claim it waited on this seat for is resolved at once), and a
        # process that drives the table next — after a restart or a takeover, with the
        # window still open — finds it there too.
        await self.store.hold_pass(table.id, play.seat, version)
        table.held[play.seat] = version
        await self._played(play.seat)
        if play.token is not None:
            table.seats[play.seat].token = play.token
        return Outcome(table, via=play.via, changed=frozenset([play.seat]), held=True)

    async def _played(self, seat: int) -> None:
        """A player made a move: their run of timeouts is over. Stored only where another
        process drives the table (it counts the timeouts, from the store)."""
        table = self.table
        s = table.seats[seat]
        s.acted_at = time.monotonic()  # they are playing: their next DM is edited in place
        if s.timeouts and not table.driven:
            await self.store.update_seat(table.id, seat, timeouts=0)
        s.timeouts = 0

    async def catch_up(self) -> None:
        """Bring a cached table (not driven here) up to date with the log (under its lock):
        see :meth:`TableLog.catch_up <bot.host.cluster.TableLog.catch_up>`."""
        await self.log.catch_up(self.table)

    async def sync_with_log(self) -> bool:
        """Apply (and publish) what the log holds beyond this state, made by another
        process; True if there was anything."""
        return await self.log.sync_with_log(self.table)
