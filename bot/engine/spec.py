"""What a game tells the host about itself: one frozen :class:`GameSpec` per game.

Each ``bot.games.<game>`` package builds its ``SPEC`` from its own functions, and
``bot.games.GAME_NAMES`` lists the registered games. The host reads a game only through its
spec (no attribute probing), so a new game needs its package, one line in ``GAME_NAMES`` and
its cog — nothing in ``bot/host``.

Pure: no discord, no PIL (render modules are imported lazily by :meth:`GameSpec.renderers`,
which only render code calls).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from bot.engine.core import State, parse_options
from bot.engine.ui import Controls

View = Mapping[str, Any]

#: The AI levels a seat may have, weakest first; ``normal`` is the game's ``choose``.
AI_LEVELS = ("easy", "normal", "strong")
NORMAL = "normal"
STRONG = "strong"


def round_or_deal(view: View) -> str:
    """The progress shown after a table's title: ``round 3/6`` or ``hand 2/8`` (a game whose
    view has ``round``/``rounds`` or ``deal``/``deals``), or nothing."""
    if view.get("round"):
        return f"round {view['round']}" + (f"/{view['rounds']}" if view.get("rounds") else "")
    if view.get("deal"):
        return f"hand {view['deal']}" + (f"/{view['deals']}" if view.get("deals") else "")
    return ""


@dataclass(frozen=True)
class GameSpec:
    """A registered game: its identity, its pure functions and how the host should treat it."""

    #: Short name: the ``bot.games`` package, the database's ``game`` column, custom ids.
    name: str
    title: str
    seats: int
    #: The options dataclass; ``new_game`` takes a plain dict checked against it.
    options: type[Any]
    #: ``new_game(seed, players, options, deck=None) -> State``.
    new_game: Callable[..., State]
    #: ``replay(seed, players, options, log) -> State``.
    replay: Callable[..., State]
    #: The AI: ``choose(view, legal, rng) -> code`` ("" means "nothing now" for optional
    #: out-of-turn actions).
    choose: Callable[[View, Sequence[str], random.Random], str]
    #: The controls of a seat's pending decision: ``controls(view, legal) -> Controls``.
    controls: Callable[[View, Sequence[str]], Controls]
    #: A short label for an action code.
    describe: Callable[[str], str]
    #: Advice for newcomers: ``hint(view, legal) -> (code, reason)``, what the AI would play
    #: from this view and why, in a line. ``code`` is ``""`` when the advice is to do
    #: nothing now (an optional out-of-turn play best kept for later). None: no hints.
    hint: Callable[[View, Sequence[str]], tuple[str, str]] | None = None
    #: The AI's other levels by name (``easy``, ``strong``), each ``choose``'s signature;
    #: ``normal`` is :attr:`choose` itself. A level the game lacks plays ``normal``.
    levels: Mapping[str, Callable[[View, Sequence[str], random.Random], str]] = field(
        default_factory=dict
    )
    #: Fixed teams as tuples of seats (Panda's partners), shown in the lobby; () if none.
    teams: tuple[tuple[int, ...], ...] = ()
    #: Inclusive ranges of whole-number options, checked by the host whatever the client sent
    #: (the cog declares the same ranges on its slash command).
    option_bounds: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: Phases (the public view's ``phase``) in which every seat answers at once and most
    #: can only pass (Mah-Jongg's claim windows): the host gives them the short claim
    #: deadline, lets AI seats answer together, asks only the seats with a choice, answers
    #: for the others when the window closes (or once ``State.moot_answers`` says their
    #: answer no longer matters), and treats running out as a pass.
    answer_phases: frozenset[str] = frozenset()
    #: Codes that are the same answer map to the same key (Koi-Koi's flip taking one of two
    #: plains of a month: the cards are interchangeable). A decision whose legal codes all
    #: share one key has one answer, and the host plays it for the player. None: every code
    #: is its own answer. ``apply`` still takes every legal code (old logs replay).
    answer_key: Callable[[str], str] | None = None
    #: The progress part of the table's status line, from the public view.
    progress: Callable[[View], str] = round_or_deal
    #: The game's deal summary already shows every hand face up (Mah-Jongg's score sheet):
    #: the host's deal-end post then adds no picture of the hands.
    summary_shows_hands: bool = False
    #: A card's (or tile's) name for people, from its code (a Text: ``Crane (Jan)``,
    #: ``5 of Dots``): public texts name cards, never codes.
    card_name: Callable[[str], str] = str
    #: The render module (Pillow): ``render_table(view)``, ``render_hand(view)`` and
    #: optionally ``render_deal_summary(view)`` and ``png_palette()``. Imported lazily.
    render_module: str = ""

    def __post_init__(self) -> None:
        if not self.render_module:
            object.__setattr__(self, "render_module", f"bot.games.{self.name}.render")

    def ai_levels(self) -> dict[str, Callable[[View, Sequence[str], random.Random], str]]:
        """Every AI level of the game, ``normal`` included, weakest first."""
        out = {name: fn for name, fn in self.levels.items() if name in AI_LEVELS}
        out["normal"] = self.choose
        return {name: out[name] for name in AI_LEVELS if name in out}

    def ai(self, level: str = NORMAL) -> Callable[[View, Sequence[str], random.Random], str]:
        """The ``choose`` of an AI level; ``normal`` for an unknown one (or one the game
        lacks), so a stored level never stops a table."""
        return self.levels.get(level, self.choose) if level in AI_LEVELS else self.choose

    def renderers(self) -> ModuleType:
        """The render module (imports Pillow: for render processes, not the host's loop)."""
        return importlib.import_module(self.render_module)

    def parse_options(self, options: Mapping[str, Any] | None) -> Any:
        """The options dataclass from a plain dict; ValueError with a readable message."""
        return parse_options(self.options, options)

    def team_of(self) -> dict[int, int]:
        """Seat -> team index, for games with fixed teams."""
        return {seat: t for t, team in enumerate(self.teams) for seat in team}

    def in_answer_phase(self, public_view: View) -> bool:
        return bool(self.answer_phases) and public_view.get("phase") in self.answer_phases

    def distinct_answers(self, legal: Sequence[str]) -> list[str]:
        """``legal`` with the codes that are the same answer (``answer_key``) given once,
        the first of each kept."""
        if self.answer_key is None:
            return list(legal)
        seen: dict[str, str] = {}
        for code in legal:
            seen.setdefault(self.answer_key(code), code)
        return list(seen.values())


__all__ = ["AI_LEVELS", "NORMAL", "STRONG", "GameSpec", "round_or_deal"]
