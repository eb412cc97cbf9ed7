"""``/koikoi new``: open a Koi-Koi lobby."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import LANGUAGE_CHOICES, LANGUAGE_DESCRIPTION


@app_commands.guild_only()
class KoiKoi(
    commands.GroupCog, group_name="koikoi", group_description="Koi-Koi (hanafuda, 2 players)"
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Koi-Koi table in this channel")
    @app_commands.describe(
        rounds="Rounds in the match (6 by default, or 12)",
        turn_seconds="Seconds per decision before the default move is played (15-3600)",
        hints="Hint buttons: what the AI would play (default: on for a newcomer facing an AI)",
        language=LANGUAGE_DESCRIPTION,
    )
    @app_commands.choices(
        rounds=[
            app_commands.Choice(name="6 rounds", value=6),
            app_commands.Choice(name="12 rounds", value=12),
        ],
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)  # (one value type per choices())
    async def new(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Choice[int] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        hints: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        options: dict[str, int | bool] = {}
        if rounds is not None:
            options["rounds"] = rounds.value
        if turn_seconds is not None:
            options["turn_seconds"] = turn_seconds
        if hints is not None:
            options["hints"] = hints
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            interaction, "koikoi", options, language=language.value if language else None
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KoiKoi(bot))
