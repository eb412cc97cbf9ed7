"""Discord cogs: thin wiring from slash commands to the host and the store."""

from __future__ import annotations

from discord import app_commands

#: The ``language`` option of ``/<game> new``: the table's language (its lobby, table
#: message, thread posts and picture). Each is named in its own language in every client —
#: a reader finds theirs whatever their Discord is set to — so these names are not
#: translated.
LANGUAGES = (
    ("English", "en-US"),
    ("日本語", "ja"),
    ("简体中文", "zh-CN"),
    ("繁體中文", "zh-TW"),
    ("한국어", "ko"),
)
LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in LANGUAGES]
LANGUAGE_DESCRIPTION = "Language of the table's messages and pictures (default: the server's)"
