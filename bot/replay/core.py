"""Rebuild any step of a finished match from its action log (pure: no Discord, no Pillow).

A :class:`ReplayRecord` is everything a replay needs — game, options, seed, players and the
action log with seats, sources and times — as stored in the database or exported to a JSON
file (``docs/replay-format.md``). A :class:`Replayer` walks the log once, noting what every
action did (its description and the events it made public, which deal it belongs to), and
keeps a pickled copy of the state every ``checkpoint_every`` actions (unpickling costs
about 0.2 ms where a deep copy costs 10 ms), so any step is rebuilt by
replaying at most that many actions from the nearest copy.

Step ``k`` is the state after the first ``k`` actions: step 0 is the first deal, step
``len(actions)`` the end.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine import State
from bot.engine.spec import GameSpec
from bot.games import game_names, game_spec
from bot.i18n import Text, localize

log = logging.getLogger(__name__)

FORMAT = "teahouse-replay"
VERSION = 1
#: How many actions lie between two kept copies of the state.
CHECKPOINT_EVERY = 25
#: A live state takes about this many times the memory of its pickle (Python objects)...
LIVE_STATE_FACTOR = 4
#: ... and the steps' records (labels and events: many small Texts) about this many
#: (measured with tracemalloc on a whole match of each game: within about 25 %).
LIVE_STEPS_FACTOR = 8


class ReplayError(ValueError):
    """A replay file or record that cannot be read or does not replay (the message says why)."""


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    name: str
    ai: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    code: str
    source: str = "player"
    #: Unix time the action was logged (None when unknown).
    time: float | None = None


@dataclass(frozen=True)
class ReplayRecord:
    """A whole match as a replay needs it."""

    game: str
    seed: str | int
    options: dict[str, Any]
    players: tuple[Player, ...]
    actions: tuple[Action, ...]
    table_id: int | None = None
    started_at: float | None = None
    finished_at: float | None = None
    #: Final scores and places as recorded (None if the match did not finish).
    scores: tuple[int, ...] | None = None
    places: tuple[int, ...] | None = None

    @property
    def log(self) -> list[tuple[int, str]]:
        return [(a.seat, a.code) for a in self.actions]

    @property
    def names(self) -> list[str]:
        return [p.name for p in sorted(self.players, key=lambda p: p.seat)]


def game_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the game itself takes (a table also stores the host's, e.g.
    ``turn_seconds``, which ``new_game`` would refuse)."""
    known = {f.name for f in dataclasses.fields(game_spec(game).options)}
    return {k: v for k, v in options.items() if k in known}


# ----- JSON export / import --------------------------------------------------------------


def to_json(record: ReplayRecord, *, indent: int | None = 1) -> str:
    """The replay as one JSON document (format ``teahouse-replay``, version 1)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": record.game,
        "title": game_spec(record.game).title,
        "table": record.table_id,
        "seed": record.seed,
        "options": record.options,
        "players": [{"seat": p.seat, "name": p.name, "ai": p.ai} for p in record.players],
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "result": None
        if record.scores is None
        else {"scores": list(record.scores), "places": list(record.places or ())},
        "actions": [
            {"seat": a.seat, "code": a.code, "source": a.source, "time": a.time}
            for a in record.actions
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=indent)


def _need(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ReplayError(
            f"replay file: `{key}` is missing or not a {getattr(kind, '__name__', kind)}"
        )
    return value


def from_json(text: str | bytes) -> ReplayRecord:
    """Read a replay file; raises :class:`ReplayError` with a readable reason."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ReplayError(f"not a JSON file ({exc})") from exc
    except RecursionError as exc:
        raise ReplayError("not a replay file: its JSON is nested too deeply") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ReplayError(f"not a Teahouse replay (the `format` field is not {FORMAT!r})")
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise ReplayError("replay file: `version` is missing")
    if version > VERSION:
        raise ReplayError(
            f"replay file version {version} is newer than this Teahouse reads ({VERSION})"
        )
    game = _need(doc, "game", str)
    if game not in game_names():
        raise ReplayError(f"unknown game {game!r}")
    seed = doc.get("seed")
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise ReplayError("replay file: `seed` is missing")
    options = _need(doc, "options", dict)
    players = []
    for p in _need(doc, "players", list):
        if not isinstance(p, dict) or not isinstance(p.get("seat"), int):
            raise ReplayError("replay file: a player has no seat")
        players.append(
            Player(int(p["seat"]), str(p.get("name") or f"Seat {p['seat']}"), bool(p.get("ai")))
        )
    if sorted(p.seat for p in players) != list(range(len(players))):
        raise ReplayError("replay file: the players' seats are not 0, 1, …")
    actions = []
    for a in _need(doc, "actions", list):
        if (
            not isinstance(a, dict)
            or not isinstance(a.get("seat"), int)
            or not isinstance(a.get("code"), str)
        ):
            raise ReplayError("replay file: an action has no seat or code")
        t = a.get("time")
        actions.append(
            Action(
                a["seat"],
                a["code"],
                str(a.get("source") or "player"),
                float(t) if isinstance(t, int | float) else None,
            )
        )
    result = doc.get("result")
    scores = places = None
    if isinstance(result, dict) and result.get("scores") is not None:
        scores = _whole_numbers(result["scores"], "result.scores")
        places = _whole_numbers(result.get("places") or [], "result.places")
    table = doc.get("table")
    return ReplayRecord(
        game=game,
        seed=seed,
        options=dict(options),
        players=tuple(sorted(players, key=lambda p: p.seat)),
        actions=tuple(actions),
        table_id=table if isinstance(table, int) else None,
        started_at=_float_or_none(doc.get("started_at")),
        finished_at=_float_or_none(doc.get("finished_at")),
        scores=scores,
        places=places,
    )


def _whole_numbers(values: Any, key: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ReplayError(f"replay file: `{key}` is not a list of whole numbers")
    return tuple(values)


def _float_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


# ----- stepping through a match ----------------------------------------------------------


#: Most public events a step's description repeats (the last one — a match's end — is
#: always among them).
MAX_EVENTS = 6


@dataclass(frozen=True, slots=True)
class Step:
    """What action ``index`` (0-based) did: who, which code, and what it made public.

    ``label`` (the game's ``describe`` of the code) and ``events`` may be
    :class:`~bot.i18n.Text` s: :meth:`Replayer.describe` says them in any locale."""

    index: int
    seat: int
    code: str
    label: str
    events: tuple[str, ...]
    #: The deal (hand, round) the state is in after this action.
    hand: int
    #: A deal ended with this action (its summary can be shown).
    deal_end: bool = False
    #: One of the events already says the move (``label`` is then not repeated).
    move_said: bool = False
    #: One of the events says the match is over.
    match_end: bool = False


@dataclass
class Hand:
    number: int
    #: The first step (state) of this deal.
    first_step: int
    last_step: int = 0


@dataclass
class Replayer:
    """Any step of a recorded match, rebuilt from its log.

    Raises :class:`ReplayError` if the log does not replay (a corrupt file)."""

    record: ReplayRecord
    checkpoint_every: int = CHECKPOINT_EVERY
    steps: list[Step] = field(init=False)
    hands: list[Hand] = field(init=False)
    final: State = field(init=False)
    _checkpoints: dict[int, bytes] = field(init=False, repr=False)
    _cursor: State | None = field(init=False, repr=False, default=None)
    memory_bytes: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.spec: GameSpec = game_spec(self.record.game)
        spec = self.spec
        self.options = game_options(self.record.game, self.record.options)
        state = self._fresh()
        self._checkpoints = {0: _freeze(state)}
        self.steps = []
        first_hand = spec.deal_number(state.view(None))
        self.hands = [Hand(first_hand, 0)]
        for i, action in enumerate(self.record.actions):
            try:
                events = state.apply(action.seat, action.code)
            except Exception as exc:  # IllegalAction, or a game refusing a malformed code
                raise ReplayError(
                    f"action {i + 1} ({action.seat}: {action.code!r}) does not replay: {exc}"
                ) from exc
            state.events.clear()
            number = spec.deal_number(state.view(None))
            if number != self.hands[-1].number:
                self.hands[-1].last_step = i
                self.hands.append(Hand(number, i + 1))
            public = [e for e in events if e.private_to is None]
            self.steps.append(
                Step(
                    index=i,
                    seat=action.seat,
                    code=action.code,
                    label=spec.label(action.code),
                    events=tuple(e.text for e in public),
                    hand=number,
                    deal_end=any(e.kind == spec.deal_end_kind for e in events),
                    move_said=spec.says_move(action.seat, action.code, public),
                    match_end=any(e.kind == spec.match_end_kind for e in public),
                )
            )
            if (i + 1) % self.checkpoint_every == 0:
                self._checkpoints[i + 1] = _freeze(state)
        self.hands[-1].last_step = len(self.steps)
        self.final = state
        checkpoints = self._checkpoints.values()
        #: About how much memory this replayer holds: the checkpoints, the final state and
        #: the stepping cursor (live: each about the largest checkpoint's size times
        #: LIVE_STATE_FACTOR), the steps (their pickle's size times LIVE_STEPS_FACTOR).
        #: Replay caches are bounded by it.
        self.memory_bytes = (
            sum(len(c) for c in checkpoints)
            + 2 * LIVE_STATE_FACTOR * max(len(c) for c in checkpoints)
            + LIVE_STEPS_FACTOR * len(pickle.dumps(self.steps, pickle.HIGHEST_PROTOCOL))
        )

    def _fresh(self) -> State:
        try:
            return self.spec.new_game(self.record.seed, self.record.names, self.options)
        except Exception as exc:
            raise ReplayError(f"the match cannot be set up: {exc}") from exc

    @property
    def last(self) -> int:
        """The last step (the state after every action)."""
        return len(self.steps)

    def clamp(self, step: int) -> int:
        return max(0, min(self.last, step))

    def state_at(self, step: int) -> State:
        """The state after ``step`` actions (do not change it: it may be shared)."""
        step = self.clamp(step)
        if step == self.last:
            return self.final
        cur = self._cursor
        if cur is not None and cur.version <= step and step - cur.version < self.checkpoint_every:
            state = cur
        else:
            base = step - step % self.checkpoint_every
            state = pickle.loads(self._checkpoints[base])
        for action in self.record.actions[state.version : step]:
            state.apply(action.seat, action.code)
        state.events.clear()
        self._cursor = state
        return state

    def hand_of(self, step: int) -> Hand:
        step = self.clamp(step)
        for hand in reversed(self.hands):
            if hand.first_step <= step:
                return hand
        return self.hands[0]

    def hand_start(self, number: int) -> int | None:
        """The first step of deal ``number`` (None if the match has no such deal)."""
        return next((h.first_step for h in self.hands if h.number == number), None)

    def lines(self, step: int) -> list[str]:
        """What happened to reach ``step``, a line each (:class:`~bot.i18n.Text` s where
        the words are the bot's or the game's): the move, said once — by the table's own
        events when they say it, else as "who: move" — then what else the table saw."""
        step = self.clamp(step)
        if step == 0:
            return [Text("The first deal, before anyone has acted.")]
        s = self.steps[step - 1]
        lines: list[str] = []
        if not s.move_said:
            who = (
                self.record.names[s.seat]
                if 0 <= s.seat < len(self.record.players)
                else Text("Seat {seat}", seat=s.seat)
            )
            lines.append(Text("{player}: {move}", player=who, move=s.label))
        events = list(s.events)
        if len(events) > MAX_EVENTS:
            events = events[: MAX_EVENTS - 1] + events[-1:]
        lines += events
        if step == self.last and self.final.is_over and not s.match_end:
            lines.append(Text("The match is over."))
        return lines

    def describe(self, step: int, locale: str = "en-US") -> str:
        """What happened to reach ``step`` (:meth:`lines`) in ``locale``, one line each."""
        return "\n".join(str(localize(locale, line)) for line in self.lines(step))


def _freeze(state: State) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def final_results(record: ReplayRecord) -> tuple[list[int], list[int]]:
    """(scores, places) the log leads to."""
    state = Replayer(record).final
    result = state.result() if state.is_over else None
    if result is None:
        return list(state.scores), []
    return list(result.scores), list(result.placements)
