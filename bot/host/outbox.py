"""The way out: what the presenter decided to show — its deliveries
(:mod:`bot.host.deliveries`: :class:`~bot.host.deliveries.DmUpdate`,
:class:`~bot.host.deliveries.TableEdit`, :class:`~bot.host.deliveries.ThreadPost`) —
carried to Discord (:meth:`Outbox.deliver`): posts in a table's thread (tried again after
Discord's server errors), DMs sent and edited (one at a time per seat, a plan overtaken by
a later one dropped, tried again after a passing failure; through the player's last click,
its :class:`~bot.host.tokens.ClickToken`, when it still works: no REST budget), pictures
drawn in the render pool at their priority, every request waiting for the REST budget
(:mod:`bot.host.budget`). Discord's refusals are put right by :mod:`bot.host.recovery`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import aiohttp
import discord

from bot.host.base import HostContext
from bot.host.budget import Priority
from bot.host.components import release_view
from bot.host.deliveries import Delivery, DmPlan, DmPlanner, DmUpdate, TableEdit, ThreadPost
from bot.host.forms import share_forms
from bot.host.recovery import ATTACH_FILES, MISSING_PERMISSIONS, Recovery
from bot.host.table import SERVING_TASK_SUFFIX, Seat, Table
from bot.host.text import NO_PINGS, pings
from bot.host.tokens import ClickToken
from bot.i18n import DEFAULT_LOCALE, Text, localize
from bot.render.worker import render_png

log = logging.getLogger(__name__)

#: s before a DM or table message that failed for a passing reason (see :func:`passing`)
#: is tried again, by attempt; then it is left to the next change.
RETRY_DELAYS = (2.0, 5.0, 15.0, 30.0, 60.0, 120.0)
#: What a request to Discord may fail with: its refusals and answers (``HTTPException``),
#: and the network's errors, which discord.py lets through.
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)
#: Attempts of one table message update: a refusal put right (a deleted message or
#: thread, then Attach Files found missing) is followed by another at once.
SHOW_ATTEMPTS = 3
#: How often a post that failed for a passing reason is tried again (after the first
#: ``RETRY_DELAYS``: 2, 5 and 15 s).
POST_RETRIES = 3
#: What one attempt of a post came to (see ``Outbox._post_once``).
PostOutcome = Literal["done", "again", "later"]
#: Discord's refusal of a DM to a user who does not take them.
DM_CLOSED = 50007


class Outbox:
    """Deliveries to Discord: posts, DMs, pictures; budgeted, retried, put right."""

    def __init__(self, ctx: HostContext, recovery: Recovery) -> None:
        self.ctx = ctx
        self.recovery = recovery
        #: Plans a DM anew when one is tried again (the presenter: see :meth:`plan_with`).
        self._planner: DmPlanner | None = None

    def plan_with(self, planner: DmPlanner) -> None:
        """Who plans a seat's DM anew from the table as it is then, for a DM tried again
        after a passing failure (the presenter)."""
        self._planner = planner

    async def deliver(self, table: Table, deliveries: Iterable[Delivery]) -> None:
        """Carry out what a change of ``table`` shows, in order: an urgent DM is sent before
        this returns (the caller holds the table: the next decision goes out before the
        next change), the others are drawn and sent after it (:meth:`carry_out_later`),
        a table edit marks the table message for its updater, a post is made."""
        for delivery in deliveries:
            assert delivery.table_id == table.id, (delivery, table.id)
            match delivery:
                case DmUpdate(seat=seat, plan=plan, urgent=True):
                    await self.carry_out(table, table.seats[seat], plan)
                case DmUpdate(seat=seat, plan=plan):
                    self.carry_out_later(table, table.seats[seat], plan)
                case TableEdit():
                    table.mark_dirty()
                case ThreadPost(text=text, ping=ping, priority=priority):
                    await self.post(table, text, ping=ping, priority=priority)

    def carry_out_later(self, table: Table, seat: Seat, plan: DmPlan) -> None:
        """Draw and send ``plan`` after the caller lets go of the table: its picture is drawn
        meanwhile, so the next click at the table, or an AI's move, does not wait for it."""

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
                plan = self._planner.plan_dm(table, seat, False, None) if self._planner else None
            if plan is not None:
                await self.carry_out(table, seat, plan, attempt + 1)

        self.ctx.scheduler.start_for(table, retry(), name=f"table-{table.id}-dm-{seat.seat}-retry")

    @staticmethod
    def _overtaken(seat: Seat, plan: DmPlan) -> bool:
        return plan.number != seat.dm_plans

    async def _render_dm_hand(self, table: Table, plan: DmPlan) -> discord.File | None:
        return await self.render_view(
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
                await self.edit_dm(seat, clicked, edit, priority)
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
                old_token = self.dm_token_for(seat, clicked)
                await self.send_dm(seat, content, file, view, plan.acting)
                seat.dm_new_owed = False
                if old is not None:
                    # Retire the old message's controls (the new one carries the current
                    # ones) after the new one is out, and in the background unless a click
                    # answers it: a counted edit may wait for budget, and the decision and
                    # the table must not wait for it (clicks on it are checked meanwhile).
                    retire = self.retire_controls(seat, old, old_token)
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
                await self.dms_closed(table, seat)
            else:
                log.warning("table %s: DM to seat %s refused: %s", table.id, seat.seat, e)
        except SEND_ERRORS as e:
            log.warning("table %s: DM to seat %s failed: %r", table.id, seat.seat, e)
            return not passing(e)
        finally:
            release_view(view)
        return True

    async def render(
        self, table: Table, what: str, seat: int | None, locale: str = DEFAULT_LOCALE
    ) -> discord.File | None:
        """Render off the event loop, in the render process pool, in ``locale``."""
        view = table.state.view(seat)
        if what == "render_table":
            priority = Priority.TABLE
        elif what == "render_hand" and seat is not None:
            priority = hand_priority(table, seat)
        else:
            priority = Priority.POST
        return await self.render_view(
            table, what, view, priority, f"{table.game}-{what}.png", locale
        )

    async def render_view(
        self,
        table: Table,
        what: str,
        view: Mapping[str, Any],
        priority: Priority,
        filename: str,
        locale: str = "en-US",
    ) -> discord.File | None:
        """Draw ``view`` with the game's renderer ``what`` in the render process pool (by
        ``priority`` while it is busy); None if drawing failed (logged)."""
        try:
            data = await self.ctx.in_render_pool(
                priority, render_png, table.game, what, view, locale
            )
        except Exception:
            log.exception("table %s: rendering %s failed", table.id, what)
            return None
        if data is None:
            return None
        return discord.File(io.BytesIO(data), filename=filename)

    def _token_of(self, seat: Seat) -> ClickToken | None:
        """The seat's last DM click while its token is valid (Discord: 15 minutes)."""
        token: ClickToken | None = seat.token
        return token if token is not None and token.usable else None

    async def send_dm(
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
                token.note_refusal(e)
                if file is not None:
                    file.reset()
        await self.ctx.budget.acquire(Priority.DECISION if acting else Priority.DM)
        channel = await self.recovery.dm_channel(seat)
        message = await channel.send(content, **kwargs)
        seat.dm_message_id, seat.dm_token = message.id, None

    async def edit_dm(
        self,
        seat: Seat,
        clicked: ClickToken | None,
        edit: dict[str, Any],
        priority: Priority = Priority.DM,
    ) -> None:
        """Edit the seat's current DM, through an interaction while one can (no REST
        budget: see :meth:`dm_token_for`), else plainly, at ``priority``."""
        assert seat.dm_message_id is not None
        await self._edit_dm_message(
            seat, seat.dm_message_id, self.dm_token_for(seat, clicked), edit, priority
        )

    def dm_token_for(self, seat: Seat, clicked: ClickToken | None) -> ClickToken | None:
        """An interaction that can edit the seat's current DM without REST budget: the click
        on it, the player's last click if it was on it, or the interaction that sent it if it
        is still the player's latest; None if there is none."""
        if clicked is not None and clicked.usable:
            return clicked
        latest = self._token_of(seat)
        if latest is None or seat.dm_message_id is None:
            return None
        if latest.message_id == seat.dm_message_id or seat.dm_token is latest:
            return latest
        return None

    async def _edit_dm_message(
        self,
        seat: Seat,
        message_id: int,
        token: ClickToken | None,
        edit: dict[str, Any],
        priority: Priority = Priority.DM,
    ) -> None:
        """Edit one of the seat's DMs through ``token`` while it is valid, else plainly (a
        REST request at ``priority``)."""
        if token is not None and token.usable:  # (it may have been refused meanwhile)
            try:
                if token.message_id == message_id:
                    # A component click's original response is the message it is on: the
                    # DM a player clicked stays editable through that click for 15 minutes,
                    # even when the bot sent it plainly (a game's first DM, a restart's).
                    await token.edit_original_response(**edit)
                else:  # a follow-up that interaction sent
                    await token.followup.edit_message(message_id, **edit)
                return
            except discord.HTTPException as e:
                log.info("DM edit through the interaction failed (%s); editing plainly", e)
                token.note_refusal(e)
                _rewind(edit)
        await self.ctx.budget.acquire(priority)
        channel = await self.recovery.dm_channel(seat)
        await channel.get_partial_message(message_id).edit(**edit)

    async def retire_controls(self, seat: Seat, message_id: int, token: ClickToken | None) -> None:
        """Take the controls off a DM that is no longer the seat's current one."""
        try:
            await self._edit_dm_message(seat, message_id, token, {"view": None})
        except discord.HTTPException as e:
            log.info("could not retire the controls of DM %s (%s)", message_id, e)

    async def dms_closed(self, table: Table, seat: Seat) -> None:
        """Never retry a 50007: fall back to the ephemeral 'Show my hand' button, say so once."""
        seat.dms_closed = True
        await self.ctx.store.update_seat(table.id, seat.seat, dms_closed=True)
        await self.post(
            table,
            Text(
                "{player}, I can't send you direct messages. Press **Show my hand** on the "
                "table message to see your hand and play (or allow DMs from server members).",
                player=f"<@{seat.user_id}>",
            ),
            ping=[seat.user_id] if seat.user_id else [],
        )

    async def post(
        self,
        table: Table,
        text: str,
        file: discord.File | None = None,
        *,
        ping: Sequence[int] = (),
        priority: Priority = Priority.POST,
    ) -> None:
        """Post in the table's thread, in the table's language (``text``: a ``Text``, or a
        line already said in it); only the users in ``ping`` may be notified. A refusal
        that could be put right (see :meth:`_recovered`: the thread deleted, Attach Files
        missing) is followed by another attempt; a post the bot's permissions do not allow
        is not made (the table's host is told)."""
        text = str(localize(table.locale, text))[:2000]
        mentions = pings(*ping) if ping else NO_PINGS
        for _ in range(SHOW_ATTEMPTS):
            outcome = await self._post_once(table, text, file, mentions, priority)
            if outcome == "later":  # (not here: the caller may hold the table's lock)
                self.ctx.scheduler.start(
                    self._post_later(table, text, file, mentions, priority),
                    name=f"table-{table.id}-late-post",
                )
                return
            if outcome == "done":
                return
            if file is not None:
                file.reset()

    async def _post_later(
        self,
        table: Table,
        text: str,
        file: discord.File | None,
        mentions: discord.AllowedMentions,
        priority: Priority,
    ) -> None:
        """Try a post again after Discord's server errors, a few times with growing pauses:
        a burst of 5xx must not lose a deal's summary or a match's "is over" (discord.py
        itself tries a 500 again, not a 503)."""
        for delay in RETRY_DELAYS[:POST_RETRIES]:
            await asyncio.sleep(delay)
            if file is not None:
                file.reset()
            if await self._post_once(table, text, file, mentions, priority) == "done":
                return
        log.warning("table %s: not posted after %d tries: %s", table.id, POST_RETRIES, text[:80])

    async def _post_once(
        self,
        table: Table,
        text: str,
        file: discord.File | None,
        mentions: discord.AllowedMentions,
        priority: Priority,
    ) -> PostOutcome:
        """One attempt of :meth:`post`: "again" to try again now (a refusal put right),
        "later" after a pause (a failure that passes), else "done" (posted, or not to be)."""
        channel = self.ctx.channel(table.channel_for_table)
        if channel is None:
            return "done"
        missing = await self.recovery.check_permissions(table)
        if self.recovery.send_permission(table) in missing:
            log.info("table %s: not posted (no permission to): %s", table.id, text[:80])
            return "done"
        if ATTACH_FILES in missing:
            file = None
        await self.ctx.budget.acquire(priority)
        try:
            if file is not None:
                await channel.send(text, file=file, allowed_mentions=mentions)
            else:
                await channel.send(text, allowed_mentions=mentions)
        except SEND_ERRORS as e:
            log.warning("table %s: posting failed: %r", table.id, e)
            if await self.recovery.recovered(table, e, with_file=file is not None):
                return "again"
            if passing(e):
                return "later"
            if isinstance(e, discord.HTTPException) and e.code == MISSING_PERMISSIONS:
                await self.recovery.tell_host_missing(table, table.refused_permissions)
        return "done"


def passing(error: BaseException) -> bool:
    """Whether a request failed for a reason that may pass: Discord's server errors, a rate
    limit discord.py gave up waiting for, the network. (Other refusals would come again.)"""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, SEND_ERRORS)


def hand_priority(table: Table, seat: int) -> Priority:
    """A hand picture's render priority: a decision's first."""
    return Priority.DECISION if seat in table.waiting_on() else Priority.DM


def _rewind(edit: dict[str, Any]) -> None:
    """Make an edit's files readable again after a failed attempt (to send it plainly)."""
    for attachment in edit.get("attachments") or []:
        if isinstance(attachment, discord.File):
            attachment.reset()
