"""What players see: after every change (an :class:`~bot.host.intents.Outcome`) the recent
lines and the DMs follow the state — planned as deliveries (:meth:`Presenter.plan`, which
awaits nothing: :mod:`bot.host.deliveries`) that the outbox carries out; the table message
(status line and picture, edited by a per-table updater), DMs (new when a decision comes,
edited otherwise; through the player's last click while its token is valid), and images
rendered in the process pool.

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
from collections.abc import Callable
from functools import partial
from typing import Any

import discord

from bot.games import game_title
from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.components import controls_view, reclaim_view, release_view, table_view
from bot.host.deliveries import Delivery, DmPlan, DmUpdate, TableEdit
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
from bot.host.table import Seat, Table, fingerprint
from bot.host.text import NO_PINGS
from bot.host.tokens import ClickToken
from bot.i18n import DEFAULT_LOCALE, Text, localize

log = logging.getLogger(__name__)


class Presenter:
    """After a change: the deliveries it makes (DMs, the table message), and the table
    message itself (its updater)."""

    def __init__(self, ctx: HostContext, recovery: Recovery, outbox: Outbox) -> None:
        self.ctx = ctx
        self.recovery = recovery
        self.outbox = outbox
        outbox.plan_with(self)  # (a DM tried again is planned anew)

    async def show(self, outcome: Outcome) -> None:
        """A subscriber of the tables' sessions: refresh the DMs of the seats in
        ``outcome.changed`` (those whose decision or hand changed, and any the change
        named), the recent lines and the table message. (The deal summaries, the deadlines
        and the end are other subscribers': bot.host.spectate, bot.host.session and
        bot.host.finish.)

        Only the process driving the table shows anything: elsewhere the table is a cache
        serving clicks, and the driving process shows the change once it has read it from
        the log (one sender of every DM, one table message editor)."""
        await self.outbox.deliver(outcome.table, self.plan(outcome))

    def plan(self, outcome: Outcome) -> tuple[Delivery, ...]:
        """What ``outcome`` shows, as deliveries for the outbox (nothing is awaited: no
        Discord call here): a :class:`DmUpdate` per seat to refresh — those who must act
        now first and urgent, the others' (a hand that changed) drawn at a lower priority
        after the table is let go of: a decision must not wait behind them — and a
        :class:`TableEdit`. The recent lines follow the events. Nothing where the table is
        not driven (see :meth:`show`)."""
        table, via = outcome.table, outcome.via
        if not table.driven:
            return ()
        table.recent = (table.recent + [event.text for event in outcome.events])[-4:]
        waited_on = set(table.waiting_on())
        deliveries: list[Delivery] = []
        for seat in sorted(outcome.changed, key=lambda seat: (seat not in waited_on, seat)):
            s = table.seats[seat]
            if s.played_by_ai or s.user_id is None:
                continue
            clicked = via if via is not None and via.user.id == s.user_id else None
            plan = self.plan_dm(table, s, False, clicked)
            if plan is not None:
                deliveries.append(DmUpdate(table.id, seat, plan, urgent=seat in waited_on))
        deliveries.append(TableEdit(table.id))
        return tuple(deliveries)

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
            await self.outbox.carry_out(table, seat, plan)

    def _refresh_dm_soon(
        self, table: Table, seat: Seat, via: discord.Interaction | None = None
    ) -> None:
        """Refresh the seat's DM after the caller lets go of the table (the hand of a player
        who just moved, or of one the table does not wait on): what it shows is taken now,
        from the stored state; its picture is drawn and sent meanwhile, so the next click at
        the table, or an AI's move, does not wait for that picture."""
        plan = self.plan_dm(table, seat, False, via)
        if plan is not None:
            self.outbox.carry_out_later(table, seat, plan)

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


def _click_token(seat: Seat, via: discord.Interaction) -> ClickToken:
    """The click's token as the seat keeps it when it is the seat's last click: one object
    per click, so Discord's refusal of it (see ``ClickToken.note_refusal``) is known to
    every use of it."""
    kept: ClickToken | None = seat.token
    return kept if kept is not None and kept.token == via.token else ClickToken.of(via)
