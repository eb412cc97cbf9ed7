"""placeholder"""
from bot.engine.ui import Controls, default_controls


def controls(view, legal) -> Controls:
    return default_controls("", legal)
