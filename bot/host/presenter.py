"""What players see: after every change the recent lines, prompts, deadlines and DMs follow
the state; the table message (status line and picture, edited by a per-table updater),
DMs (new when a decision comes, edited otherwise; through the player's last click while
its token is valid), thread posts, and images rendered in the process pool.

Languages: the table message, its picture and the thread posts are in the table's
language (``table.locale``); a DM, its controls and hand picture in its player's (their
last interaction's, :meth:`~bot.host.base.HostContext.seat_locale`). What the game says
(event lines, prompts, labels) is kept as it said it and localised when shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.games import game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.components import controls_view, reclaim_view, release_view, table_view
from bot.host.forms import share_forms
from bot.host.hints import hints_badge, hints_offered
from bot.host.intents import Outcome
from bot.host.outbox import (
    RETRY_DELAYS,
    SEND_ERRORS,
    SHOW_ATTEMPTS,
    Outbox,
    hand_priority,
    passing,
)
from bot.host.recovery import ATTACH_FILES, MISSING_PERMISSIONS, Recovery
from bot.host.table import SERVING_TASK_SUFFIX, Seat, Table, fingerprint
from bot.host.text import NO_PINGS
from bot.host.tokens import ClickToken
from bot.i18n import DEFAULT_LOCALE, Text, localize

log = logging.getLogger(__name__)

DM_CLOSED = 50007


class Presenter:
    """After a change: prompts, deadlines, DMs, the table message, posts, images."""

    def __init__(self, ctx: HostContext, recovery: Recovery, outbox: Outbox) -> None:
        self.ctx = ctx
        self.recovery = recovery
        self.outbox = outbox

    async def show(self, outcome: Outcome) -> None:
        """A subscriber of the tables' logs: refresh DMs whose decision or hand changed (and
        the seats in ``outcome.changed``), the recent lines, the deadlines and the table
        message. (The deal summaries and the end are other subscribers': bot.host.spectate
        and bot.host.finish.)

        Only the process driving the table shows anything: elsewhere the table is a cache
        serving clicks, and the driving process shows the change once it has read it from
        the log (one sender of every DM, one table message editor)."""
        table, via = outcome.table, outcome.via
        if not table.driven:
            table.changed_prompts(shown=False)  # (the versions that judge clicks here)
            return
        refresh = set(outcome.changed)
        if not outcome.stamped:
            refresh |= set(table.changed_prompts())
        table.recent = (table.recent + [event.text for event in outcome.events])[-4:]
        table.set_deadlines(self.ctx.turn_seconds(table), time.monotonic())
        # Those who must act now first: the others' DMs (a hand that changed) draw at a
        # lower priority and may wait for the render pool; a decision must not wait behind
        # them.
        waited_on = set(table.waiting_on())
        for seat in sorted(refresh, key=lambda seat: (seat not in waited_on, seat)):
            s = table.seats[seat]
            if s.played_by_ai or s.user_id is None:
                continue
            clicked = via if via is not None and via.user.id == s.user_id else None
            if seat in waited_on:
                await self.refresh_dm(table, s, via=clicked)
            else:  # (the mover's own hand, say) the next move need not wait for its picture
                self._refresh_dm_soon(table, s, via=clicked)
        table.mark_dirty()

    def _status_text(self, table: Table) -> str:
        """The table message's text, in the table's language."""
        loc = table.locale
        state = table.state
        view = state.view(None)
        head = localize(
            loc,
            Text(
                "**{game}** · table #{table}", game=game_title(table.spec.name, loc), table=table.id
            ),
        )
        progress = table.spec.progress(view)
        if progress:
            head += f" · {localize(loc, progress)}"
        lines = [head + hints_badge(table, loc)]
        lines += [f"• {localize(loc, text)}" for text in table.recent]
        if state.is_over:
            lines.append(localize(loc, Text("🏁 The match is over.")))
        else:
            waiting = table.waiting_on()
            who = []
            for seat in waiting:
                s = table.seats[seat]
                tag = f"<@{s.user_id}>" if s.user_id and not s.played_by_ai else f"🤖 {s.name}"
                who.append(tag)
            first = min(
                (s for s in waiting if s in table.deadlines),
                key=table.deadlines.__getitem__,
                default=None,
            )
            if first is not None and any(not table.seats[s].played_by_ai for s in waiting):
                epoch = table.deadline_epoch(first)
                line = Text(
                    "⏳ {players} to act — time runs out {when}",
                    players=" ".join(who),
                    when=f"<t:{epoch}:R>",
                )
            else:
                line = Text("⏳ {players} to act", players=" ".join(who))
            lines.append(localize(loc, line))
        return "\n".join(lines)[:1900]

    async def show_table(self, table: Table, new: bool = False) -> None:
        """Post or edit the table message. Calls are serialised per table and each draws the
        state as it is when its turn comes, so an older picture never follows a newer one;
        an unchanged picture and text are not sent again. A refusal that could be put right
        (see :meth:`_recovered`: the message or its thread deleted, Attach Files missing)
        is followed by another attempt at once."""
        async with table.edit_lock:
            for _ in range(SHOW_ATTEMPTS):
                if not await self._show_table_once(table, new):
                    return

    async def _show_table_once(self, table: Table, new: bool) -> bool:
        """One attempt of :meth:`show_table` (under its lock); True to try again now."""
        channel = self.ctx.channel(table.channel_for_table)
        if channel is None:
            return False
        posting = new or table.table_message_id is None
        await self.ctx.budget.acquire(
            Priority.POST if posting else Priority.TABLE, since=table.dirty_since
        )
        # What is drawn now is the table as it is now: later changes mark it again.
        table.dirty_since = None
        content = self._status_text(table)
        # The picture shows the public view in the table's language.
        shows = (
            fingerprint(f"{table.locale}:{table.state.view(None)!r}"),
            fingerprint(content),
        )
        if not posting and table.shown == shows:
            self.ctx.budget.refund()
            return False
        picture = posting or table.shown is None or table.shown[0] != shows[0]
        missing = await self.recovery.check_permissions(table)
        if self.recovery.send_permission(table) in missing:
            self.ctx.budget.refund()  # nothing can go out there: the host is told
            return False
        if picture and ATTACH_FILES in missing:  # the text can still follow the game
            picture = False
            shows = (table.shown[0] if table.shown else b"", shows[1])
        file = (
            await self.outbox.render(table, "render_table", None, table.locale) if picture else None
        )
        view = None if table.state.is_over else table_view(table.id, table.locale)
        try:
            if posting:
                message = await channel.send(
                    content, file=file, view=view, allowed_mentions=NO_PINGS
                )
                table.table_message_id = message.id
                await self.ctx.store.update_table(table.id, table_message_id=message.id)
            elif file is not None:
                await self.recovery.edit_table_message(
                    table, content=content, attachments=[file], view=view
                )
            else:  # same picture: keep the attachment, change the text only
                await self.recovery.edit_table_message(table, content=content, view=view)
            table.shown = shows
            table.show_failures = 0
            if not missing:  # (the permissions the host was told of are back)
                await self.recovery.tell_host_missing(table, ())
        except SEND_ERRORS as e:
            log.warning("table %s: table message update failed: %r", table.id, e)
            if await self.recovery.recovered(table, e, with_file=file is not None):
                return True
            if passing(e):
                # Nothing else may change for a while (a person thinking): try again.
                delay = RETRY_DELAYS[min(table.show_failures, len(RETRY_DELAYS) - 1)]
                table.show_failures += 1
                asyncio.get_running_loop().call_later(delay, table.mark_dirty)
            elif isinstance(e, discord.HTTPException) and e.code == MISSING_PERMISSIONS:
                await self.recovery.tell_host_missing(table, table.refused_permissions)
        finally:
            release_view(view)
        return False

    async def table_updater(self, table: Table) -> None:
        """Edits the table message after a change. At once when a person acts next (they
        are reading it); while only AI seats are to move (each after ``ai_delay``), or in a
        claim window, it waits for the moves to show them in one edit, but no longer than
        ``3 × edit_interval`` after the oldest unshown change. Two edits of a table are
        ``edit_interval`` apart (Discord: 5 messages per 5 s per channel). Under pressure
        the REST budget serves the table whose oldest unshown change is oldest first."""
        interval = self.ctx.settings.edit_interval
        gather = 3 * interval
        last_edit = -float("inf")
        try:
            while True:
                await table.table_dirty.wait()
                while True:
                    table.table_dirty.clear()
                    since = table.dirty_since if table.dirty_since is not None else time.monotonic()
                    now = time.monotonic()
                    wait = max(0.0, last_edit + interval - now)
                    if table.edit_may_wait() and not table.state.is_over:
                        wait = max(wait, since + gather - now)
                    if wait <= 0:
                        break
                    # Another change (an AI's move) may come first: look again then.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(table.table_dirty.wait(), wait)
                    if not table.table_dirty.is_set() or (
                        not table.edit_may_wait() and time.monotonic() >= last_edit + interval
                    ):
                        break
                table.table_dirty.clear()
                await self.show_table(table)
                last_edit = time.monotonic()
                if table.finished:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: table updater crashed", table.id)

    def hand_content(self, table: Table, seat: Seat, locale: str = DEFAULT_LOCALE) -> str:
        """The text of a player's hand message (DM or Show my hand), in ``locale``."""
        fields: dict[str, Any] = {
            "game": game_title(table.spec.name, locale),
            "table": table.id,
            "channel": f"<#{table.channel_for_table}>",
        }
        if table.state.is_over:
            text = Text("**{game}** #{table} in {channel} — the match is over.", **fields)
        elif seat.ai_takeover:
            text = Text("**{game}** #{table} in {channel} — an AI plays your seat now.", **fields)
        elif table.asked(seat.seat):
            prompt = table.controls_for(seat.seat).prompt
            head = localize(locale, Text("**{game}** #{table} in {channel}", **fields))
            lines = [str(head), str(localize(locale, prompt))]
            note = self._deadline_note(table, seat.seat)
            if note is not None:  # a decision the table waits for (not an optional play)
                lines.append(localize(locale, note))
            return "\n".join(lines)
        elif table.forced(seat.seat):
            move = table.spec.describe(table.answers(seat.seat)[0])
            text = Text(
                "**{game}** #{table} in {channel} — your only possible move, {move}, is "
                "played for you.",
                move=move,
                **fields,
            )
        elif table.holds(seat.seat):
            text = Text(
                "**{game}** #{table} in {channel} — you pass. The window stays open for "
                "everyone until {when}, so nobody learns who had a choice.",
                when=self._deadline_tag(table, seat.seat),
                **fields,
            )
        else:
            names = tuple(table.seats[s].name for s in table.waiting_on())
            text = Text(
                "**{game}** #{table} in {channel} — waiting for {names}.", names=names, **fields
            )
        return str(localize(locale, text))

    def _deadline_note(self, table: Table, seat: int) -> Text | None:
        """After a decision's prompt: when its time runs out (an answer window: when it
        closes), as a countdown Discord draws itself (no edit is needed while it runs)."""
        if seat not in table.deadlines:
            return None
        when = self._deadline_tag(table, seat)
        if table.in_answer_phase():
            return Text("⏳ The window closes {when}.", when=when)
        return Text("⏳ Time runs out {when}.", when=when)

    @staticmethod
    def _deadline_tag(table: Table, seat: int) -> str:
        """The seat's deadline as a Discord timestamp (one Unix second per decision)."""
        epoch = table.deadline_epoch(seat)
        if epoch is None:
            epoch = round(time.time())
        return f"<t:{epoch}:R>"

    def hand_view(
        self, table: Table, seat: Seat, locale: str = DEFAULT_LOCALE
    ) -> discord.ui.View | None:
        """The controls of a player's hand message (DM or Show my hand), in ``locale``."""
        make = self._hand_view_maker(table, seat, locale)
        return make() if make is not None else None

    def _hand_view_maker(
        self, table: Table, seat: Seat, locale: str
    ) -> Callable[[], discord.ui.View] | None:
        """What builds the seat's controls as they are now (None: no controls): a DM plan
        keeps this, not the view, so a DM waiting for its picture holds no discord.py
        objects and the view is built when it is sent."""
        if table.state.is_over:
            return None
        if seat.ai_takeover:
            return partial(reclaim_view, table.id, seat.seat, locale)
        if not table.asked(seat.seat):
            return None
        prompt = table.prompts.get(seat.seat)
        version = prompt.version if prompt else table.state.version
        controls = table.controls_for(seat.seat)
        return partial(
            controls_view,
            table.id,
            seat.seat,
            version,
            controls,
            hint=hints_offered(table),
            locale=locale,
        )

    async def refresh_dm(
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
        plan = self.plan_dm(table, seat, fresh, via)
        if plan is not None:
            await self.carry_out(table, seat, plan)

    def _refresh_dm_soon(
        self, table: Table, seat: Seat, via: discord.Interaction | None = None
    ) -> None:
        """Refresh the seat's DM after the caller lets go of the table (the hand of a player
        who just moved, or of one the table does not wait on): what it shows is taken now,
        from the stored state; its picture is drawn and sent meanwhile, so the next click at
        the table, or an AI's move, does not wait for that picture."""
        plan = self.plan_dm(table, seat, False, via)
        if plan is None:
            return

        async def carry_out() -> None:
            try:
                await self.carry_out(table, seat, plan)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: DM refresh of seat %s failed", table.id, seat.seat)

        # A serving task: it completes a change already stored and shown elsewhere, even if
        # this process stops driving the table meanwhile.
        self.ctx.scheduler.start_for(
            table, carry_out(), name=f"table-{table.id}-dm-{seat.seat}{SERVING_TASK_SUFFIX}"
        )

    async def carry_out(self, table: Table, seat: Seat, plan: DmPlan, attempt: int = 0) -> None:
        """Draw and send ``plan`` unless a later plan for the seat overtook it (that one shows
        more, and sends the new message this one owed, if any); the seat's DMs go out one
        at a time. One that fails for a passing reason is tried again later."""
        file = None
        if plan.hand_changed:
            if self._overtaken(seat, plan):
                return
            file = await self._render_dm_hand(table, plan)
        async with seat.dm_lock:
            if self._overtaken(seat, plan):
                return
            # (before the DM: its form button may be clicked at another process at once;
            # a process alone serves every click itself, and writes nothing for nobody)
            if self.ctx.settings.poll_seconds > 0:
                await share_forms(self.ctx.store, table, seat, plan.locale)
            try:
                delivered = await self._deliver_dm(table, seat, plan, file)
            finally:
                if plan.number == seat.dm_plans:  # nothing planned after it: the DM is as said
                    seat.dm_pending_acting = None
        if not delivered:
            self._retry_dm_later(table, seat, plan.number, attempt)

    def _retry_dm_later(self, table: Table, seat: Seat, number: int, attempt: int) -> None:
        """Refresh the seat's DM again a while after plan ``number`` failed to go out, unless
        a later plan took over meanwhile (it shows more, sends the new message that one owed,
        and is tried again itself if it fails)."""
        if attempt >= len(RETRY_DELAYS):
            log.error(
                "table %s: gave up the DM of seat %s after %d attempts",
                table.id,
                seat.seat,
                attempt + 1,
            )
            return

        async def retry() -> None:
            await asyncio.sleep(RETRY_DELAYS[attempt])
            async with table.lock:  # planned from the stored state, as every refresh
                if table.finished or not table.driven or seat.dm_plans != number:
                    return
                plan = self.plan_dm(table, seat, False, None)
            if plan is not None:
                await self.carry_out(table, seat, plan, attempt + 1)

        self.ctx.scheduler.start_for(table, retry(), name=f"table-{table.id}-dm-{seat.seat}-retry")

    @staticmethod
    def _overtaken(seat: Seat, plan: DmPlan) -> bool:
        return plan.number != seat.dm_plans

    def plan_dm(
        self, table: Table, seat: Seat, fresh: bool, via: discord.Interaction | None
    ) -> DmPlan | None:
        """What the seat's DM is to show now (None: no DM for the seat), numbered: a plan
        made later makes this one obsolete."""
        if seat.dms_closed or seat.user_id is None:
            return None
        locale = self.ctx.seat_locale(seat)
        hand_key = f"{locale}:{table.hand_key(seat.seat)}"  # a new language redraws it too
        # A decision the host plays (one answer) or a passed window edits the DM in place,
        # if anything: only a real decision comes as a new (notifying) message.
        acting = table.must_decide(seat)
        # As the DM will be once the refreshes planned before this one are out.
        pending = seat.dm_pending_acting
        was_acting = seat.dm_acting if pending is None else pending
        no_message = seat.dm_message_id is None and pending is None
        # A decision comes as a new message (it notifies) for a player who was away or in a
        # claim window; a player who acted a moment ago sees their DM change in place.
        new_message = (
            fresh
            or no_message
            or (
                acting
                and not was_acting
                and table.notifies(seat, time.monotonic(), self.ctx.settings.attention_seconds)
            )
        )
        seat.dm_plans += 1
        seat.dm_pending_acting = acting
        # A new message is owed until one goes out: if this plan is overtaken before it is
        # sent, the plan that overtakes it sends one (with what it shows).
        seat.dm_new_owed = seat.dm_new_owed or new_message
        return DmPlan(
            number=seat.dm_plans,
            locale=locale,
            content=self.hand_content(table, seat, locale),
            make_view=self._hand_view_maker(table, seat, locale),
            hand_view=table.state.view(seat.seat),
            hand_key=hand_key,
            priority=hand_priority(table, seat.seat),
            acting=acting,
            new_message=new_message,
            hand_changed=seat.dm_new_owed or seat.dm_hand_key != hand_key,
            decision=table.decision_fingerprint(seat.seat),
            clicked=(
                _click_token(seat, via)
                if via is not None and getattr(via.message, "id", None) == seat.dm_message_id
                else None
            ),
            message_id=seat.dm_message_id,
        )

    async def _render_dm_hand(self, table: Table, plan: DmPlan) -> discord.File | None:
        return await self.outbox.render_view(
            table,
            "render_hand",
            plan.hand_view,
            plan.priority,
            f"{table.game}-render_hand.png",
            plan.locale,
        )

    async def _deliver_dm(
        self, table: Table, seat: Seat, plan: DmPlan, file: discord.File | None
    ) -> bool:
        """Send or edit the seat's DM as ``plan`` says (under ``seat.dm_lock``). False if it
        failed for a passing reason (worth trying again); a refusal is logged, not retried."""
        # (an earlier plan that was overtaken may have owed a new message; one planned to
        # send the first message may have failed)
        new_message = plan.new_message or seat.dm_new_owed or seat.dm_message_id is None
        same_hand = not new_message and seat.dm_hand_key == plan.hand_key
        if not same_hand and file is None and not plan.hand_changed:
            # A refresh that went out after this one was planned changed the picture (or the
            # message): this one's picture is needed after all.
            file = await self._render_dm_hand(table, plan)
        content = plan.content
        view = plan.make_view() if plan.make_view is not None else None
        edit: dict[str, Any] = {"content": content, "view": view}
        if not same_hand:
            edit["attachments"] = [file] if file else []
        # The click was on the DM of the plan's time: no use if another has gone out since.
        clicked = plan.clicked if plan.message_id == seat.dm_message_id else None
        try:
            if not new_message:
                # (a decision shown by an edit — the player is playing — goes first too)
                priority = Priority.DECISION if plan.acting else Priority.DM
                await self.outbox.edit_dm(seat, clicked, edit, priority)
                if plan.acting and view is not None and seat.dm_decision != plan.decision:
                    # The same player's next step of a decision (Panda's three passes, say)
                    # edits the DM: after a restart it must not look like a DM sent for
                    # another decision (which would be sent again, first of all).
                    seat.dm_decision = plan.decision
                    await self.ctx.store.update_seat(
                        table.id, seat.seat, dm_decision=seat.dm_decision
                    )
            else:
                old = seat.dm_message_id if seat.dm_has_controls else None
                old_token = self.outbox.dm_token_for(seat, clicked)
                await self.outbox.send_dm(seat, content, file, view, plan.acting)
                seat.dm_new_owed = False
                if old is not None:
                    # Retire the old message's controls (the new one carries the current
                    # ones) after the new one is out, and in the background unless a click
                    # answers it: a counted edit may wait for budget, and the decision and
                    # the table must not wait for it (clicks on it are checked meanwhile).
                    retire = self.outbox.retire_controls(seat, old, old_token)
                    if old_token is not None and old_token is clicked:
                        await retire
                    else:
                        self.ctx.scheduler.start_for(table, retire)
                seat.dm_decision = plan.decision
                await self.ctx.store.update_seat(
                    table.id,
                    seat.seat,
                    dm_channel_id=seat.dm_channel_id,
                    dm_message_id=seat.dm_message_id,
                    dm_decision=seat.dm_decision,
                )
            seat.dm_acting = plan.acting
            seat.dm_hand_key = plan.hand_key
            seat.dm_has_controls = view is not None
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                await self.outbox.dms_closed(table, seat)
            else:
                log.warning("table %s: DM to seat %s refused: %s", table.id, seat.seat, e)
        except SEND_ERRORS as e:
            log.warning("table %s: DM to seat %s failed: %r", table.id, seat.seat, e)
            return not passing(e)
        finally:
            release_view(view)
        return True


@dataclass(frozen=True)
class DmPlan:
    """What one refresh of a seat's DM shows, taken when it was planned."""

    number: int  #: ``Seat.dm_plans`` when planned
    locale: str
    content: str
    make_view: Callable[[], discord.ui.View] | None  #: builds its controls (None: none)
    hand_view: Mapping[str, Any]  #: what its picture draws
    hand_key: str
    priority: Priority  #: of its picture
    acting: bool  #: a decision the seat must make (comes as a new message)
    new_message: bool  #: a new message (else an edit of the seat's current DM)
    hand_changed: bool  #: the picture must be drawn (as the seat's DM was when planned)
    decision: int | None  #: the decision's fingerprint
    clicked: ClickToken | None  #: the click on the seat's DM that led here
    message_id: int | None  #: the seat's DM when planned


def _click_token(seat: Seat, via: discord.Interaction) -> ClickToken:
    """The click's token as the seat keeps it when it is the seat's last click: one object
    per click, so Discord's refusal of it (see ``ClickToken.note_refusal``) is known to
    every use of it."""
    kept: ClickToken | None = seat.token
    return kept if kept is not None and kept.token == via.token else ClickToken.of(via)
