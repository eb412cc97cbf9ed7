"""Game-agnostic hosting on Discord: lobbies, tables, turns, timers, DMs, resume."""

from bot.host.manager import TableHost

__all__ = ["TableHost"]
