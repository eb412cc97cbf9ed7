"""``/twenty new``: open a Twenty table (the test game's own cog, named by its spec)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


@app_commands.guild_only()
class Twenty(commands.GroupCog, group_name="twenty", group_description="Twenty (2 players)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Twenty table in this channel")
    @app_commands.describe(goal="The total to reach (5-100)", rounds="Rounds (1-5)")
    async def new(
        self,
        interaction: discord.Interaction,
        goal: app_commands.Range[int, 5, 100] | None = None,
        rounds: app_commands.Range[int, 1, 5] | None = None,
    ) -> None:
        options = {"goal": goal, "rounds": rounds}
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]
            interaction, "twenty", {k: v for k, v in options.items() if v is not None}
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Twenty(bot))
