"""The state-machine contract shared by all five games.

Subclasses implement the game-specific hooks (``to_act``, ``legal_actions``, ``_apply``,
``_view``, ``scores``, ``is_over``, ``result``); the base class keeps the action log and the
version, validates every action before any change, and merges the fields every view carries.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from bot.engine.view import TableView

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class IllegalAction(Exception):
    """An action that the rules do not allow now. ``reason`` is written for a player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """Something that happened, for the table's "what just happened" line and the log.

    ``kind`` is a short machine word (``play``, ``capture``, ``yaku``, ``round_end``...),
    ``text`` a sentence for players. ``data`` may hold codes; it never holds hidden cards
    of a seat other than ``private_to``.
    """

    kind: str
    text: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | None = None  # only this seat may see the event (e.g. a drawn card)


@dataclass(frozen=True)
class Result:
    """The final outcome of a match.

    ``scores`` per seat, ``placements`` per seat (1 = best; equal scores share a place),
    ``teams`` as lists of seats (one seat per team in a free-for-all).
    """

    scores: tuple[int, ...]
    placements: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    #: For ratings, when the match is better seen as a series of contests than by its final
    #: standing (San Da Yi: each hand is one declarer against three). Each is
    #: ``(teams, places)``: tuples of seats and each team's place (1 best). Empty: ratings
    #: use ``teams`` and ``placements``.
    rating_games: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...] = ()

    @classmethod
    def from_team_scores(
        cls, scores: Sequence[int], teams: Sequence[Sequence[int]], team_scores: Sequence[int]
    ) -> Result:
        """Placements by team score (higher is better; ties share a place)."""
        team_place = [1 + sum(1 for other in team_scores if other > mine) for mine in team_scores]
        placements = [0] * len(scores)
        for t, team in enumerate(teams):
            for seat in team:
                placements[seat] = team_place[t]
        return cls(
            scores=tuple(scores),
            placements=tuple(placements),
            teams=tuple(tuple(t) for t in teams),
        )

    @classmethod
    def free_for_all(cls, scores: Sequence[int]) -> Result:
        return cls.from_team_scores(scores, [[s] for s in range(len(scores))], scores)


OptionsT = TypeVar("OptionsT", bound="DataclassInstance")  # (a game's options dataclass)
StateT = TypeVar("StateT", bound="State")


def parse_options(cls: type[OptionsT], options: Mapping[str, Any] | None) -> OptionsT:
    """Build a game's options dataclass from a plain dict (as stored in the database).

    Unknown names or values of the wrong type raise ``ValueError`` with a readable message;
    a dataclass may validate further in ``__post_init__``.
    """
    options = dict(options or {})
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(options) - set(fields))
    if unknown:
        noun = "option" if len(unknown) == 1 else "options"
        raise ValueError(f"Unknown {noun}: {', '.join(unknown)}.")
    kwargs = {}
    for name, value in options.items():
        default = getattr(cls, name, None)
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"Option {name} must be true or false.")
        if isinstance(default, int) and not isinstance(default, bool):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"Option {name} must be a whole number.")
        kwargs[name] = value
    return cls(**kwargs)


#: Longer action codes are refused before a game parses them (the longest real code, a
#: Panda play of 14 cards, is well under 200 characters).
MAX_CODE_LENGTH = 500


def is_seat(state: State, seat: object) -> bool:
    """Whether ``seat`` names a seat at ``state``'s table (an int in range, not a bool)."""
    return type(seat) is int and 0 <= seat < state.num_seats


def _seat_guarded(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``legal_actions`` / ``default_action`` of a game, first checking the seat: a seat
    that is not at the table has no legal action and no default one."""
    if getattr(method, "_seat_guarded", False):
        return method

    @functools.wraps(method)
    def guarded(self: State, seat: int, *args: Any, **kwargs: Any) -> Any:
        if not is_seat(self, seat):
            if name == "legal_actions":
                return []
            raise IllegalAction("You are not seated at this table.")
        return method(self, seat, *args, **kwargs)

    guarded._seat_guarded = True  # type: ignore[attr-defined]  # (a mark on the function)
    return guarded


class State:
    """Base class of every game's match state. A match (several deals) is one State.

    Games override ``legal_actions`` and ``default_action``; the overrides are wrapped (in
    ``__init_subclass__``) so that a seat not at the table gets ``[]`` and IllegalAction
    before the game looks at it.
    """

    game: ClassVar[str] = ""
    #: Seats per team, for team games (Panda: ((0, 2), (1, 3))). None: everyone alone.
    teams: ClassVar[tuple[tuple[int, ...], ...] | None] = None
    #: Out-of-turn actions that arrive at the same moment are applied by the game's priority
    #: (``apply_simultaneous``), e.g. Panda's Ambushes. The host gathers them briefly first.
    batches_out_of_turn: ClassVar[bool] = False
    #: The code that passes: the timeout's answer when it is legal (``default_action``).
    #: The game's spec declares the same (``GameSpec.pass_code``, checked by the tests).
    pass_code: ClassVar[str] = "pass"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("legal_actions", "default_action"):
            if name in cls.__dict__:
                setattr(cls, name, _seat_guarded(cls.__dict__[name], name))

    def __init__(self, seed: int | str, players: Sequence[str], options: Mapping[str, Any]):
        self.seed = seed
        self.players: tuple[str, ...] = tuple(players)
        self.options: dict[str, Any] = dict(options)
        self.log: list[tuple[int, str]] = []
        self.events: list[Event] = []

    # ----- to be implemented by each game ---------------------------------------------
    @property
    def to_act(self) -> list[int]:
        """Seats that have a pending decision now (sorted)."""
        raise NotImplementedError

    @property
    def may_act(self) -> list[int]:
        """Seats not in ``to_act`` that may still act now, out of turn and optionally
        (Panda's Ambush or Panda call). Nobody waits for them and no deadline applies."""
        return []

    def legal_actions(self, seat: int) -> list[str]:
        """Every legal action code for ``seat`` now ([] if it has nothing to decide),
        including optional out-of-turn actions."""
        raise NotImplementedError

    def _apply(self, seat: int, code: str) -> list[Event]:
        """Carry out an action already known to be legal."""
        raise NotImplementedError

    def _view(self, seat: int | None) -> Mapping[str, Any]:
        """The game-specific part of what ``seat`` may see (a game's own ``TypedDict``: its
        view type less :class:`TableView`'s keys)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def scores(self) -> list[int]:
        """Running match totals per seat."""
        raise NotImplementedError

    def result(self) -> Result:
        raise NotImplementedError

    # ----- overridable defaults ------------------------------------------------------
    def normalize(self, seat: int, code: str) -> str:
        """Canonical spelling of an action code (games with unordered card lists sort them)."""
        return " ".join(code.split())

    def check(self, seat: int, code: str) -> None:
        """Raise IllegalAction with a player-readable reason if ``code`` is not legal now."""
        if code not in self.legal_actions(seat):
            raise IllegalAction(self.explain_illegal(seat, code))

    def explain_illegal(self, seat: int, code: str) -> str:
        return f"`{code}` is not a legal move now."

    def default_action(self, seat: int) -> str:
        """What a timeout does: pass (:attr:`pass_code`) if passing is legal, else the first
        legal action."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction("There is nothing to decide for this seat now.")
        return self.pass_code if self.pass_code in legal else legal[0]

    def describe(self, code: str) -> str:
        """A short label for an action code, for buttons."""
        return code

    def moot_answers(self) -> list[int] | None:
        """In an answer phase (every seat asked at once, as Mah-Jongg's claim windows), once
        an answer has been given that the outcome will show anyway (a claim): the seats
        still to answer whose answer can no longer change the outcome, so the host answers
        ``default_action`` for them at once. None while no such answer has been given: the
        host then lets the window run to its close, so its length tells nothing."""
        return None

    # ----- the contract ----------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return len(self.players)

    @property
    def version(self) -> int:
        """Number of actions applied so far; stamped on every component."""
        return len(self.log)

    def apply(self, seat: int, code: str) -> list[Event]:
        """Validate and carry out ``code`` for ``seat``; raises IllegalAction, changing nothing."""
        code = self.validate(seat, code)
        events = self._apply(seat, code)
        self.log.append((seat, code))
        self.events.extend(events)
        return events

    def validate(self, seat: int, code: str) -> str:
        """The canonical spelling of ``code`` if ``apply(seat, code)`` would accept it now;
        raises IllegalAction otherwise. Changes nothing: the host stores an action in the
        log before it changes the state (the log is the commit point)."""
        if self.is_over:
            raise IllegalAction("The match is over.")
        if not is_seat(self, seat):
            raise IllegalAction("You are not seated at this table.")
        if not isinstance(code, str):
            raise IllegalAction("An action is a line of text, such as `pass`.")
        if len(code) > MAX_CODE_LENGTH:
            raise IllegalAction("That action is too long to be a move.")
        if seat not in self.to_act and seat not in self.may_act:
            raise IllegalAction("It is not your turn.")
        code = self.normalize(seat, code)
        self.check(seat, code)
        return code

    def apply_simultaneous(self, requests: Sequence[tuple[int, str]]) -> list[Event]:
        """Apply actions asked for at the same moment, in the game's priority order (here:
        as given). Each is checked against the state the earlier ones left; the ones no
        longer legal are dropped. Games with a priority rule override this."""
        events: list[Event] = []
        for seat, code in requests:
            try:
                events += self.apply(seat, code)
            except IllegalAction:
                continue
        return events

    def view(self, seat: int | None = None) -> TableView:
        """Exactly what ``seat`` (None: a spectator) may see. ``may_act`` holds at most the
        viewer itself: who else could act out of turn (Panda: who holds a bomb) is secret.
        Raises IllegalAction for a seat that is not at the table.

        A game narrows the type: ``def view(...) -> KoiKoiView`` returning
        ``{**self._view(seat), **self._common(seat)}`` (``_common`` first: it checks the seat)."""
        common = self._common(seat)
        v = dict(self._view(seat))
        v.update(common)
        # (a game that does not narrow its view: its own keys are _view's, unchecked here)
        return cast(TableView, v)

    def _common(self, seat: int | None) -> TableView:
        """The keys every view carries (:class:`TableView`); IllegalAction for a seat that is
        not at the table."""
        if seat is not None and not is_seat(self, seat):
            raise IllegalAction("You are not seated at this table.")
        return {
            "game": self.game,
            "seat": seat,
            "players": list(self.players),
            "version": self.version,
            "to_act": list(self.to_act),
            "may_act": [seat] if seat is not None and seat in self.may_act else [],
            "scores": list(self.scores),
            "is_over": self.is_over,
        }

    def visible_events(self, seat: int | None, since: int = 0) -> list[Event]:
        return [e for e in self.events[since:] if e.private_to is None or e.private_to == seat]

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the state (for replay equality checks)."""
        out = {}
        for k, v in vars(self).items():
            if k == "events":
                continue
            out[k] = v.getstate() if isinstance(v, random.Random) else copy.deepcopy(v)
        return out

    def clone(self) -> State:
        return copy.deepcopy(self)


class NewGame(Protocol):
    def __call__(
        self,
        seed: int | str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        deck: Sequence[str] | None = None,
    ) -> State: ...


def replayer(new_game: Callable[..., StateT]) -> Callable[..., StateT]:
    """The ``replay(seed, players, options, log, deck=None)`` a game module exports."""

    def replay(
        seed: int | str,
        players: Sequence[str],
        options: Mapping[str, Any] | Any | None,
        log: Sequence[tuple[int, str]],
        deck: Any = None,
    ) -> StateT:
        """Rebuild a match from its action log (raises IllegalAction if the log does not fit)."""
        return replay_from(new_game, seed, players, options, log, deck=deck)

    return replay


def replay_from(
    new_game: Callable[..., StateT],
    seed: int | str,
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    log: Sequence[tuple[int, str]],
    deck: Sequence[str] | None = None,
) -> StateT:
    """Rebuild a state by applying ``log`` to a fresh game. Raises IllegalAction if it can't."""
    state = new_game(seed, players, options, deck=deck)
    for seat, code in log:
        state.apply(seat, code)
    return state
