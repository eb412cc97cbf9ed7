"""Clicks on a running table: an action (checked in memory first so the interaction is
acknowledged at once, then submitted to the table's session under the table's lock),
out-of-turn plays gathered and submitted together (the game's priority decides), Show my
hand, and taking a seat back from the AI. The session (:mod:`bot.host.session`) checks,
logs, applies and publishes; here each click is answered (its refusal, its one reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import discord

from bot.engine import IllegalAction
from bot.engine.ui import Form
from bot.host.base import HostContext
from bot.host.components import form_answers, form_modal, release_view
from bot.host.driver import Driver
from bot.host.forms import answer_from_shared_form
from bot.host.hints import UNRATED_NOTE, hint_message, hints_offered, mark_hinted
from bot.host.intents import Play, Together
from bot.host.lifecycle import Sessions
from bot.host.outbox import Outbox
from bot.host.presenter import Presenter
from bot.host.replies import (
    acknowledge,
    ephemeral,
    followup,
    from_table_guild,
    locale_of,
)
from bot.host.session import Refused, precheck
from bot.host.table import SERVING_TASK_SUFFIX, Table
from bot.host.text import NO_PINGS
from bot.host.tokens import ClickToken
from bot.i18n import Text, localize
from bot.store import SharedClick


class Clicks:
    """The intake of a table's clicks: action buttons, selects and forms, Show my hand,
    I'm back and Hint; each checked, answered and submitted to the table's session."""

    def __init__(
        self,
        ctx: HostContext,
        sessions: Sessions,
        presenter: Presenter,
        outbox: Outbox,
        driver: Driver,
    ) -> None:
        self.ctx = ctx
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = outbox
        self.driver = driver

    async def on_action(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, code: str
    ) -> None:
        if table_id not in self.ctx.tables:
            # Loaded from the log first, which may take seconds while a restart loads every
            # table: the click is acknowledged at once, so it never runs into Discord's 3 s
            # limit ("This interaction failed"); a refusal then comes as a follow-up.
            await acknowledge(interaction)
        table = await self.sessions.table(table_id)
        if table is not None and not from_table_guild(interaction, table):
            table = None
        if table is not None and not table.driven:
            # A cache of a table another process drives (or none yet): catch up with the
            # log before judging the click, or current controls would look out of date.
            if not interaction.response.is_done():
                await acknowledge(interaction)
            async with table.lock:
                await self.sessions.of(table).catch_up()
        problem = precheck(table, interaction.user.id, seat, version)
        if problem and table is not None and table.driven and self.ctx.settings.poll_seconds > 0:
            # Other processes serve this table's clicks: the refusal may come from a move
            # made there that this process has not read yet.
            if not interaction.response.is_done():
                await acknowledge(interaction)
            async with table.lock:  # (the driver may have read it meanwhile)
                await self.sessions.of(table).sync_with_log()
                problem = precheck(table, interaction.user.id, seat, version)
        if problem:
            await ephemeral(interaction, problem)
            return
        assert table is not None
        if not interaction.response.is_done():
            await acknowledge(interaction)
        if table.state.batches_out_of_turn and (
            table.batch is not None or seat not in table.state.to_act
        ):
            self._gather(table, interaction, seat, version, code, shared_click(table, interaction))
            return
        async with table.lock:
            play = Play(
                seat,
                code,
                "player",
                user_id=interaction.user.id,
                version=version,
                click=shared_click(table, interaction),
                via=interaction,
                # (a click Discord never took, see ``acknowledge``, has no token to answer with)
                answered=interaction.response.is_done(),
                # (a DM click's token can carry the seat's later DMs)
                token=ClickToken.of(interaction) if interaction.guild_id is None else None,
            )
            from_private_hand = (
                interaction.message is not None and interaction.message.flags.ephemeral
            )
            try:
                # The DM is refreshed too (even after a move from the ephemeral hand): it must
                # not keep the old decision's buttons, and the next decision then comes as a
                # new DM.
                outcome = await self.sessions.of(table).submit(play)
            except Refused as r:
                await followup(interaction, r.reason)
                return
            except IllegalAction as e:
                await followup(interaction, e.reason, prefix="⚠️ ")
                return
            if outcome.held:
                if not table.driven:  # the driving process shows the DMs and applies the pass
                    await followup(
                        interaction, Text("👍 You pass; the window closes for everyone alike.")
                    )
                return
            if from_private_hand:
                await self._edit_ephemeral_hand(interaction, table, seat)

    async def on_form(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, verb: str
    ) -> None:
        """A button that opens a form (Panda's three passed cards): checked like a move,
        answered with the form (a modal must be the first answer: no defer before it).
        At a table another process drives, from the form it shared (one read, no load:
        see ``bot.host.forms``) when that is clearly current; otherwise judged by the table."""
        cached = self.ctx.tables.get(table_id)
        if (cached is None or not cached.driven) and await answer_from_shared_form(
            self.ctx.store, interaction, table_id, seat, version, verb
        ):
            return
        table = await self.sessions.table(table_id)
        if table is not None and not from_table_guild(interaction, table):
            table = None
        if table is not None and not table.driven:
            async with table.lock:  # a cache of the log: catch up before judging the click
                await self.sessions.of(table).catch_up()
        problem = precheck(table, interaction.user.id, seat, version)
        form = None
        if problem is None:
            assert table is not None
            form = next(
                (
                    row
                    for row in table.controls_for(seat).rows
                    if isinstance(row, Form) and row.verb == verb
                ),
                None,
            )
            if form is None:
                problem = Text("These controls are out of date — use your latest hand message.")
        if problem or form is None:
            assert problem is not None  # (no form found is a problem said)
            await ephemeral(interaction, problem)
            return
        modal = form_modal(table_id, seat, version, form, locale_of(interaction))
        await interaction.response.send_modal(modal)

    async def on_form_submit(
        self, interaction: discord.Interaction, table_id: int, seat: int, version: int, verb: str
    ) -> None:
        """A form sent: its answers, in the order of its questions, after the verb make one
        action code, taken like a click (checked, applied, or refused with the reason)."""
        answers = form_answers(interaction.data)
        code = " ".join([verb, *(w for key, value in answers.items() for w in (key, value))])
        await self.on_action(interaction, table_id, seat, version, code)

    def _gather(
        self,
        table: Table,
        interaction: discord.Interaction,
        seat: int,
        version: int,
        code: str,
        click: SharedClick | None = None,
    ) -> None:
        """Hold an out-of-turn request briefly: plays arriving together go by priority."""
        if table.batch is None:
            table.batch = []
            self.ctx.scheduler.start_for(
                table, self._apply_gathered(table), name=f"table-{table.id}{SERVING_TASK_SUFFIX}"
            )
        table.batch.append((seat, code, version, interaction, click))

    async def _apply_gathered(self, table: Table) -> None:
        await asyncio.sleep(self.ctx.settings.simultaneous_window)
        async with table.lock:
            batch, table.batch = table.batch or [], None
            plays = tuple(
                Play(seat, code, "player", interaction.user.id, version, click, via=interaction)
                for seat, code, version, interaction, click in batch
            )
            gathered = await self.sessions.of(table).submit_together(Together(plays))
            for play, error in gathered.refused:
                if isinstance(error, Refused):
                    await followup(play.via, error.reason)
                elif isinstance(error, IllegalAction):
                    await followup(play.via, error.reason, prefix="⚠️ ")

    async def on_reclaim(self, interaction: discord.Interaction, table_id: int, seat: int) -> None:
        """A player whose seat an AI took over plays again."""
        table = await self.sessions.table(table_id)
        if table is None or table.finished or not from_table_guild(interaction, table):
            await ephemeral(interaction, Text("This game is over."))
            return
        if not 0 <= seat < len(table.seats) or table.seats[seat].user_id != interaction.user.id:
            await ephemeral(interaction, Text("That is not your seat."))
            return
        s = table.seats[seat]
        if not s.ai_takeover:
            await ephemeral(interaction, Text("You are already playing your seat."))
            return
        await acknowledge(interaction)
        async with table.lock:
            s.ai_takeover = False
            s.timeouts = 0
            await self.ctx.store.update_seat(table.id, seat, ai_takeover=False, timeouts=0)
            await self.outbox.post(
                table, Text("👋 {name} is back and plays their own seat again.", name=s.name)
            )
            if table.driven:
                await self.driver.seat_returned(table, s)
        if not table.driven:
            # The process driving the table learns it from the store before its AI would
            # play the seat, and sends the controls then.
            await followup(interaction, Text("👋 Welcome back: your next decision comes by DM."))

    async def on_show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        table = await self.sessions.table(table_id)
        if table is None or table.finished or not from_table_guild(interaction, table):
            await ephemeral(interaction, Text("This table is no longer running."))
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await ephemeral(interaction, Text("You are not playing at this table."))
            return
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with table.lock:
            if not table.driven:
                await self.sessions.of(table).catch_up()
            if seat.seat not in table.prompts:
                table.changed_prompts()
            file = await self.outbox.render(table, "render_hand", seat.seat, locale)
            kwargs: dict[str, Any] = {"content": self.presenter.hand_content(table, seat, locale)}
            view = self.presenter.hand_view(table, seat, locale)
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
            try:
                await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
            finally:
                release_view(view)

    async def _edit_ephemeral_hand(
        self, interaction: discord.Interaction, table: Table, seat: int
    ) -> None:
        s = table.seats[seat]
        locale = locale_of(interaction)
        file = await self.outbox.render(table, "render_hand", seat, locale)
        view = self.presenter.hand_view(table, s, locale)
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                content=self.presenter.hand_content(table, s, locale),
                attachments=[file] if file else [],
                view=view,
            )
        release_view(view)

    async def on_hint(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: int,
        version: int,
        *,
        confirmed: bool,
    ) -> None:
        """A Hint click: checked like a move, answered privately; the game is not touched.
        ``confirmed``: the "Show the hint" button of an earlier version's warning (hints
        once took two clicks); it shows the hint like any Hint click."""
        table = await self.sessions.table(table_id)
        if table is not None and not from_table_guild(interaction, table):
            table = None
        if table is not None and not hints_offered(table):
            await ephemeral(interaction, Text("Hints are off at this table."))
            return
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if table is not None and not table.driven:
            async with table.lock:  # a cache of the log: catch up before judging the click
                await self.sessions.of(table).catch_up()
        problem = precheck(table, interaction.user.id, seat, version)
        if problem:
            await ephemeral(interaction, problem)
            return
        assert table is not None
        # Who used hints: the store knows hints served by another process too.
        row = await self.ctx.store.get_table(table.id)
        stored = row.options.get("hinted") if row is not None else None
        used = set(table.options.get("hinted") or []) | set(stored or [])
        async with table.lock:
            problem = precheck(table, interaction.user.id, seat, version)
            if problem is None:
                # Asking is playing: their next decision edits their DM in place.
                table.seats[seat].acted_at = time.monotonic()
                view = table.state.view(seat)
                legal = table.state.legal_actions(seat)
                first = seat not in used
                if first:
                    await mark_hinted(self.ctx.store, table, seat)
        if problem:
            await ephemeral(interaction, problem)
            return
        if first:
            await self.outbox.post(
                table,
                Text(
                    "💡 {name} asked for a hint: this match will not be rated.",
                    name=table.seats[seat].name,
                ),
            )
        text = await asyncio.to_thread(hint_message, table.spec, view, legal, locale)
        if first:  # the button said so; the answer says it once more, the first time
            text += "\n" + str(localize(locale, UNRATED_NOTE))
        await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=NO_PINGS)


def shared_click(table: Table, interaction: discord.Interaction) -> SharedClick | None:
    """A DM click at a table another process drives, as it is logged with its action (see
    ``bot.host.session.TableSession.submit``): that process answers the player through its token (no REST
    budget), as this one would. None for a click in a server, one driven here, or one
    Discord never took (no token to answer with)."""
    if table.driven or interaction.guild_id is not None or not interaction.response.is_done():
        return None
    return ClickToken.of(interaction).shared()


def let_go_of_payloads(interaction: discord.Interaction) -> None:
    """Drop what an interaction carries beyond its token once its click is handled:
    the message it was on and the last response discord.py cached (their components,
    embeds and raw payloads are several KiB, and objects the garbage collector walks
    through, for as long as work the click started still holds it)."""
    interaction.message = None
    # discord.py's cache of the last response (a private slot: if a release renames it,
    # only the memory stays).
    if hasattr(interaction, "_original_response"):
        interaction._original_response = None
    # Its response object refers back to it: that reference cycle would keep every click
    # until the next full garbage collection (see bot.heap). What follows a
    # handled click goes through its webhook (followup, edit_original_response), never its
    # response again. (The same private-slot caveat.)
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]  # (a slot discord.py does not annotate)
