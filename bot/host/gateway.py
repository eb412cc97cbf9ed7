"""The gateway: where every interaction the host serves comes in, is answered, and is
handed on to the part that serves it; and the one error reply (:meth:`Gateway.guarded`).

A click's custom id has been parsed by its component (:mod:`bot.host.components`) into
what it asks (a table, a seat, a version, a code); the gateway gives it to the intake of
its kind — :class:`~bot.host.clicks.Clicks` (moves, forms, Show my hand, I'm back, Hint),
:class:`~bot.host.lobby.Lobby` (the lobby's buttons, ``/<game> new``, ``/table abort``),
:class:`~bot.host.spectate.Spectate` — which checks it, acknowledges it and submits it to
the table's log (:class:`~bot.host.cluster.TableLog`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.host.base import HostContext
from bot.host.clicks import Clicks, let_go_of_payloads
from bot.host.components import release_view
from bot.host.intents import (
    Abort,
    FormOpen,
    FormSent,
    HintIntent,
    Intent,
    LobbyIntent,
    Move,
    Reclaim,
    ShowHand,
    SpectateIntent,
)
from bot.host.lobby import Lobby
from bot.host.replies import report_error
from bot.host.spectate import Spectate

log = logging.getLogger(__name__)


class Gateway:
    """Interactions in: each handed to its intake, any failure answered once."""

    def __init__(self, ctx: HostContext, clicks: Clicks, lobby: Lobby, spectate: Spectate) -> None:
        self.ctx = ctx
        self.clicks = clicks
        self.lobby = lobby
        self.spectate = spectate

    async def guarded(
        self,
        interaction: discord.Interaction,
        what: str,
        table_id: int | None,
        work: Any,
        *,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
    ) -> None:
        """Run a click's handler; if it raises, log it and answer the user (never silent).
        The clicker's language is remembered first (their DMs are written in it).

        Afterwards the click lets go of what it no longer needs (see
        :func:`let_go_of_payloads`), and ``view``, the one discord.py rebuilt from the
        clicked message to find the component, is released (see
        :func:`~bot.host.components.release_view`): otherwise both wait for a full garbage
        collection. (A click held for later, an out-of-turn play gathered with others, is
        answered through its webhook: it needs neither.)"""
        self.ctx.remember_locale(interaction)
        try:
            await work
        except Exception as error:
            await report_error(interaction, error, what=what, table_id=table_id)
        finally:
            let_go_of_payloads(interaction)
            release_view(view)

    async def handle(self, interaction: discord.Interaction, intent: Intent) -> None:
        """Hand ``intent`` to the intake that serves its kind (which answers it)."""
        match intent:
            case Move(table_id, seat, version, code):
                await self.clicks.on_action(interaction, table_id, seat, version, code)
            case FormOpen(table_id, seat, version, verb):
                await self.clicks.on_form(interaction, table_id, seat, version, verb)
            case FormSent(table_id, seat, version, verb):
                await self.clicks.on_form_submit(interaction, table_id, seat, version, verb)
            case ShowHand(table_id):
                await self.clicks.on_show_hand(interaction, table_id)
            case Reclaim(table_id, seat):
                await self.clicks.on_reclaim(interaction, table_id, seat)
            case HintIntent(table_id, seat, version, confirmed):
                await self.clicks.on_hint(interaction, table_id, seat, version, confirmed=confirmed)
            case SpectateIntent(table_id, refresh):
                await self.spectate.on_spectate(interaction, table_id, refresh=refresh)
            case LobbyIntent(table_id, action, level):
                await self.lobby.on_lobby(interaction, table_id, action, level)
            case Abort(table_id):
                await self.lobby.abort(interaction, table_id)
            case _:
                raise TypeError(f"no intake serves {intent!r}")

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        language: str | None = None,
    ) -> None:
        """``/<game> new`` (a command, not a click: its options are the cog's)."""
        await self.lobby.open_lobby(interaction, game, options, language)
