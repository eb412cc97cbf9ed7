"""Teahouse: a Discord bot that hosts traditional card and tile games."""
