"""``/panda new``: open a Panda lobby (4 players, partners opposite)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import LANGUAGE_CHOICES, LANGUAGE_DESCRIPTION


@app_commands.guild_only()
class Panda(
    commands.GroupCog, group_name="panda", group_description="Panda (climbing game, 2 teams of 2)"
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Panda table in this channel")
    @app_commands.describe(
        target="Match points a team needs to win (1000 by default)",
        wish="Whoever plays the Stork may wish for a rank (default on)",
        free_first_lead="The Stork holder may lead anything on the first trick",
        kingdom_ends_hand="A Kingdom ends the hand at once",
        turn_seconds="Seconds per decision before the default move is played (15-3600)",
        hints="Hint buttons: what the AI would play (default: on for a newcomer facing an AI)",
        language=LANGUAGE_DESCRIPTION,
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, 100, 10000] | None = None,
        wish: bool | None = None,
        free_first_lead: bool | None = None,
        kingdom_ends_hand: bool | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        hints: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {
            "target": target,
            "wish": wish,
            "free_first_lead": free_first_lead,
            "kingdom_ends_hand": kingdom_ends_hand,
            "turn_seconds": turn_seconds,
            "hints": hints,
        }
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            interaction,
            "panda",
            {k: v for k, v in options.items() if v is not None},
            language=language.value if language else None,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Panda(bot))
