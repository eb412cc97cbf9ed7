"""``/mushi new``: open a Mushi lobby."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import LANGUAGE_CHOICES, LANGUAGE_DESCRIPTION


@app_commands.guild_only()
class Mushi(commands.GroupCog, group_name="mushi", group_description="Mushi (hanafuda, 2 players)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Mushi table in this channel")
    @app_commands.describe(
        hands="Hands in the match (12 by default, or 6)",
        four_of_a_kind_cancel="A player dealt four of one month may cancel the deal (default on)",
        elder_takes_table_four="The elder takes a four of a kind dealt to the table instead of a redeal",
        bottom_wild_takes_rain="The wild flipped as the last stock card may take a rain card",
        turn_seconds="Seconds per decision before the default move is played (15-3600)",
        hints="Hint buttons: what the AI would play (default: on for a newcomer facing an AI)",
        language=LANGUAGE_DESCRIPTION,
    )
    @app_commands.choices(
        hands=[
            app_commands.Choice(name="12 hands", value=12),
            app_commands.Choice(name="6 hands", value=6),
        ],
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)  # (one value type per choices())
    async def new(
        self,
        interaction: discord.Interaction,
        hands: app_commands.Choice[int] | None = None,
        four_of_a_kind_cancel: bool | None = None,
        elder_takes_table_four: bool | None = None,
        bottom_wild_takes_rain: bool | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        hints: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {
            "hands": hands.value if hands else None,
            "four_of_a_kind_cancel": four_of_a_kind_cancel,
            "elder_takes_table_four": elder_takes_table_four,
            "bottom_wild_takes_rain": bottom_wild_takes_rain,
            "turn_seconds": turn_seconds,
            "hints": hints,
        }
        await self.bot.host.open_lobby(  # type: ignore[attr-defined]  # (bot.app.Teahouse's)
            interaction,
            "mushi",
            {k: v for k, v in options.items() if v is not None},
            language=language.value if language else None,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Mushi(bot))
