"""``/sandayi new``: open a San Da Yi lobby."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import LANGUAGE_CHOICES, LANGUAGE_DESCRIPTION


@app_commands.guild_only()
class SanDaYi(
    commands.GroupCog,
    group_name="sandayi",
    group_description="San Da Yi 三打一 (4 players, one against three)",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a San Da Yi table in this channel")
    @app_commands.describe(
        hands="Hands in the match (1-40, 8 by default)",
        fixed_minimums="Use the fixed bidding minimums instead of the positional ones",
        turn_seconds="Seconds per decision before the default move is played (15-3600)",
        hints="Hint buttons: what the AI would play (default: on for a newcomer facing an AI)",
        language=LANGUAGE_DESCRIPTION,
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        hands: app_commands.Range[int, 1, 40] | None = None,
        fixed_minimums: bool | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        hints: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {
            "hands": hands,
            "fixed_minimums": fixed_minimums,
            "turn_seconds": turn_seconds,
            "hints": hints,
        }
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            interaction,
            "sandayi",
            {k: v for k, v in options.items() if v is not None},
            language=language.value if language else None,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SanDaYi(bot))
