"""What a game tells the bot about itself: one frozen :class:`GameSpec` per game.

Each game's package builds its ``SPEC`` from its own functions, and ``bot.games`` registers
it (``GAME_NAMES``). Everything outside the game — host, replay, cogs, store, benches —
reads a game only through its spec (no attribute probing, no ``if game == ...``), so a new
game needs its package (rules, AI, renderers, rules summary, cog) and its registration.

Pure: no discord, no PIL (render modules are imported lazily by :meth:`GameSpec.renderers`,
which only render code calls).
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar, Generic, Literal, Protocol

# (typing's TypeVar takes a default from Python 3.13 on)
from typing_extensions import TypeVar

from bot.engine.core import Event, State, parse_options
from bot.engine.ui import Controls

View = Mapping[str, Any]
#: A game's view type (its ``TypedDict``, extending :class:`~bot.engine.view.TableView`): the
#: type its controls, hint and progress take. Code outside the game knows only ``View``.
ViewT = TypeVar("ViewT", bound=Mapping[str, Any], default=View)

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


class TableRenderer(Protocol):
    """``render_table(view, locale=...)``, ``render_hand`` and ``render_deal_summary``: a
    Pillow image of a view, its words in ``locale`` (``render_deal_summary`` may return None:
    no picture for this deal)."""

    def __call__(self, view: View, *, locale: str = ...) -> Any: ...


class CardFace(Protocol):
    """One card (tile) face up, about 46-50 pixels wide: the replay's hands face up."""

    def __call__(self, code: str) -> Any: ...


@dataclass(frozen=True)
class Renderers:
    """A game's render module as the bot uses it (Pillow images; imported only by render
    code). ``render_table``, ``render_hand`` and ``card_face`` are required: a render module
    without one is refused when its game is checked (:func:`bot.games.check_games`, at the
    bot's start and each render worker's), not found missing at the first picture."""

    render_table: TableRenderer
    render_hand: TableRenderer
    card_face: CardFace
    #: The picture posted when a deal ends (None: the game draws none).
    render_deal_summary: TableRenderer | None = None
    #: The game's fixed PNG palette, built once per process (None: chosen per image).
    png_palette: Callable[[], Any] | None = None

    REQUIRED: ClassVar[tuple[str, ...]] = ("render_table", "render_hand", "card_face")
    OPTIONAL: ClassVar[tuple[str, ...]] = ("render_deal_summary", "png_palette")

    @classmethod
    def of(cls, module: ModuleType) -> Renderers:
        """The renderers of ``module``; TypeError naming what is missing or not callable."""
        missing = [n for n in cls.REQUIRED if not callable(getattr(module, n, None))]
        if missing:
            raise TypeError(f"render module {module.__name__} lacks {', '.join(missing)}")
        found: dict[str, Any] = {
            n: getattr(module, n, None) for n in (*cls.REQUIRED, *cls.OPTIONAL)
        }
        wrong = [n for n, fn in found.items() if fn is not None and not callable(fn)]
        if wrong:
            raise TypeError(f"render module {module.__name__}: {', '.join(wrong)} not callable")
        return cls(**found)

    @classmethod
    def check_declared(cls, module_name: str) -> None:
        """TypeError unless module ``module_name`` declares every required renderer at its
        top level (a ``def``, an assignment or an import), read from its source without
        importing it: a process that does not draw (the bot's, beside its render workers)
        checks a game without loading Pillow and the game's art."""
        found = importlib.util.find_spec(module_name)
        if found is None or not found.origin or not found.origin.endswith(".py"):
            raise TypeError(f"render module {module_name} not found")
        with open(found.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read(), found.origin)
        names: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
        missing = [n for n in cls.REQUIRED if n not in names]
        if missing:
            raise TypeError(f"render module {module_name} lacks {', '.join(missing)}")


@functools.cache
def _renderers(module_name: str) -> Renderers:
    return Renderers.of(importlib.import_module(module_name))


@dataclass(frozen=True)
class GameSpec(Generic[ViewT]):
    """A registered game: its identity, its pure functions and how the host should treat it.

    A game declares ``SPEC: GameSpec[KoiKoiView] = GameSpec(...)``: its controls, hint and
    progress are checked against its own view type; the bot reads every game as a plain
    ``GameSpec`` (its views as mappings)."""

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
    choose: Callable[[ViewT, Sequence[str], random.Random], str]
    #: The controls of a seat's pending decision: ``controls(view, legal) -> Controls``.
    controls: Callable[[ViewT, Sequence[str]], Controls]
    #: A short label for an action code.
    describe: Callable[[str], str]
    #: Advice for newcomers: ``hint(view, legal) -> (code, reason)``, what the AI would play
    #: from this view and why, in a line. ``code`` is ``""`` when the advice is to do
    #: nothing now (an optional out-of-turn play best kept for later). None: no hints.
    hint: Callable[[ViewT, Sequence[str]], tuple[str, str]] | None = None
    #: The AI's other levels by name (``easy``, ``strong``), each ``choose``'s signature;
    #: ``normal`` is :attr:`choose` itself. A level the game lacks plays ``normal``.
    levels: Mapping[str, Callable[[ViewT, Sequence[str], random.Random], str]] = field(
        default_factory=dict
    )
    #: The levels whose ``choose`` searches (milliseconds to a few tenths of a second a
    #: decision): the host runs them in a worker thread, the others on the event loop.
    searching_levels: frozenset[str] = frozenset({STRONG})
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
    progress: Callable[[ViewT], str] = round_or_deal
    #: The game's deal summary already shows every hand face up (Mah-Jongg's score sheet):
    #: the host's deal-end post then adds no picture of the hands.
    summary_shows_hands: bool = False
    #: A card's (or tile's) name for people, from its code (a Text: ``Crane (Jan)``,
    #: ``5 of Dots``): public texts name cards, never codes.
    card_name: Callable[[str], str] = str
    #: The game's package: its ``summary.md`` (and translations) for ``/rules``, and by
    #: default its render module. Default ``bot.games.<name>``.
    package: str = ""
    #: The render module (Pillow), read as :class:`Renderers`. Default ``<package>.render``.
    render_module: str = ""
    #: The extension with the game's ``/<name> new`` command. Default ``cogs.<name>``.
    cog: str = ""

    # ----- the conventions between the game's states and the bot --------------------
    #: The key of a seat's view holding its private hand (a list of codes): its DM is
    #: refreshed when it changes, and replays lay it face up.
    hand_key: str = "hand"
    #: The code that passes (a timeout in an answer window is this pass): the game's
    #: ``State.pass_code``, which ``State.default_action`` answers when it is legal
    #: (tests/engine/test_pass_code.py checks that the two agree).
    pass_code: str = "pass"
    #: The event kind that ends a deal (the host posts its summary, replays mark it).
    deal_end_kind: str = "deal_end"
    #: The event kind that says the match is over.
    match_end_kind: str = "match_end"
    #: The key of the public view counting deals (1 first): replays step by deal.
    deal_key: str = "deal"
    #: What a deal is called to players: ``hand`` or ``round`` (Koi-Koi's).
    deal_word: Literal["hand", "round"] = "hand"
    #: Ratings per hand (each hand a contest of its own: ``Result.rating_games``, San Da
    #: Yi's declarer against three) rather than by the match's final places.
    rated_per_hand: bool = False
    #: Verbs whose move is said by an event of another kind (the flipped card's ``take``
    #: by the ``flip`` event): a replay then does not repeat the move.
    said_by: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: Options that keep a match going for hundreds of actions (the replay timing bench).
    long_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.package:
            object.__setattr__(self, "package", f"bot.games.{self.name}")
        if not self.render_module:
            object.__setattr__(self, "render_module", f"{self.package}.render")
        if not self.cog:
            object.__setattr__(self, "cog", f"cogs.{self.name}")
        if self.deal_word not in ("hand", "round"):
            raise ValueError(f"{self.name}: deal_word is 'hand' or 'round', not {self.deal_word!r}")

    def ai_levels(self) -> dict[str, Callable[[ViewT, Sequence[str], random.Random], str]]:
        """Every AI level of the game, ``normal`` included, weakest first."""
        out = {name: fn for name, fn in self.levels.items() if name in AI_LEVELS}
        out["normal"] = self.choose
        return {name: out[name] for name in AI_LEVELS if name in out}

    def ai(self, level: str = NORMAL) -> Callable[[ViewT, Sequence[str], random.Random], str]:
        """The ``choose`` of an AI level; ``normal`` for an unknown one (or one the game
        lacks), so a stored level never stops a table."""
        return self.levels.get(level, self.choose) if level in AI_LEVELS else self.choose

    def searches(self, level: str) -> bool:
        """Whether the level a seat plays (:meth:`ai`: ``normal`` for one the game lacks)
        searches, so the host must think for it off the event loop."""
        played = level if level in AI_LEVELS and level in self.levels else NORMAL
        return played in self.searching_levels

    def renderers(self) -> Renderers:
        """The game's renderers (imports Pillow: for render processes, not the host's
        loop); TypeError if its render module lacks a required one."""
        return _renderers(self.render_module)

    def deal_number(self, public_view: View) -> int:
        """Which deal a public view is in (1 when the view does not say)."""
        value = public_view.get(self.deal_key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1

    def hand_of(self, view: View) -> list[str]:
        """The cards a seat's view shows in its hand (a drawn card kept apart included)."""
        hand = view.get(self.hand_key)
        if isinstance(hand, dict):
            hand = [c for group in hand.values() for c in group]
        cards = [str(c) for c in (hand or [])]
        drawn = view.get("drawn")
        if isinstance(drawn, str) and drawn and drawn not in cards:
            cards.append(drawn)
        return cards

    def says_move(self, seat: int, code: str, events: Sequence[Event]) -> bool:
        """Whether one of an action's public events already says the move: an event of
        the acting seat whose kind is the action's verb (``play`` … ``play``), or a kind
        that reports that verb (:attr:`said_by`)."""
        verb = code.split(" ", 1)[0]
        kinds = {verb, *self.said_by.get(verb, ())}
        return any(e.seat == seat and e.kind in kinds for e in events)

    def label(self, code: str) -> str:
        """``describe(code)``, or the code itself should the game fail to say it."""
        try:
            label = self.describe(code)
        except Exception:  # a label is a nicety: the code itself says it too
            return code
        return label if isinstance(label, str) else str(label)  # a Text stays one

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


__all__ = [
    "AI_LEVELS",
    "NORMAL",
    "STRONG",
    "CardFace",
    "GameSpec",
    "Renderers",
    "TableRenderer",
    "round_or_deal",
]
