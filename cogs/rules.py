"""``/rules game:<game>``: a short explanation of a game's rules, with the complete rules
(``docs/rules/<game>.md`` of the repository) attached as a file.

The answer is in the invoking user's language (``interaction.locale``): the summary is
``bot/games/<game>/summary.<locale>.md``, the surrounding lines come from the i18n catalogs,
and the attached complete rules are ``docs/rules/<game>.<locale>.md`` — the English
``docs/rules/<game>.md`` for any other locale, or where the translation is missing (the
answer then says the attached rules are English)."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_names, game_spec, game_title, rules_summary
from bot.i18n import TRANSLATED, gettext, normalize

#: The repository's top level (``cogs/`` sits right under it, in a checkout, an editable
#: install and the Docker image alike); ``docs/`` is looked up there, then in the working
#: directory.
REPO_ROOT = Path(__file__).resolve().parents[1]


def full_rules_path(game: str, locale: object = None) -> Path | None:
    """Where the complete rules of ``game`` are for ``locale`` (a ``discord.Locale`` or its
    value): ``docs/rules/<game>.<locale>.md`` for a translated locale that has its file,
    else the English ``docs/rules/<game>.md``; else ``rules.<locale>.md`` or ``rules.md``
    in the game's package (a game kept outside this repository's docs); None if neither."""
    loc = normalize(locale)
    names = [f"{game}.{loc}.md"] if loc in TRANSLATED else []
    for name in [*names, f"{game}.md"]:
        for base in (REPO_ROOT, Path.cwd()):
            path = base / "docs" / "rules" / name
            if path.is_file():
                return path
    package = Path(str(resources.files(game_spec(game).package)))
    for name in [f"rules.{loc}.md" if loc in TRANSLATED else "", "rules.md"]:
        if name and (package / name).is_file():
            return package / name
    return None


def full_rules_file(game: str, locale: object = None) -> discord.File | None:
    """The complete rules as an attachment, ``teahouse-<game>-rules.md`` (English) or
    ``teahouse-<game>-rules.<locale>.md`` (a translation)."""
    path = full_rules_path(game, locale)
    if path is None:
        return None
    data = path.read_bytes()
    stem = path.name.removesuffix(".md")  # koikoi, koikoi.ja, rules.ja
    language = stem[stem.index(".") :] if "." in stem else ""  # "" or ".ja"
    return discord.File(io.BytesIO(data), filename=f"teahouse-{game}-rules{language}.md")


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game_spec(g).title, value=g) for g in game_names()]


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play one of Teahouse's games")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        locale = interaction.locale
        file = full_rules_file(game.value, locale)
        if file is None:
            more = gettext(
                locale,
                "The complete rules are in `docs/rules/{game}.md` of the Teahouse repository.",
                game=game.value,
            )
        elif normalize(locale) in TRANSLATED and file.filename == f"teahouse-{game.value}-rules.md":
            # A translated locale whose translation is missing here: the English is attached.
            more = gettext(
                locale,
                "The complete rules, every option and every ruling: the attached `{file}`"
                " (in English).",
                file=file.filename,
            )
        else:
            more = gettext(
                locale,
                "The complete rules, every option and every ruling: the attached `{file}`.",
                file=file.filename,
            )
        summary = rules_summary(game.value, locale)
        embed = discord.Embed(
            title=gettext(locale, "{game} — rules", game=game_title(game.value, locale)),
            description=f"{summary[: 4000 - len(more) - 2]}\n\n{more}",
            colour=discord.Colour.from_rgb(176, 48, 48),
        )
        embed.set_footer(text=gettext(locale, "Start a table with /{game} new", game=game.value))
        if file is not None:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
