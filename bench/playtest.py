"""The playtest bench: ``python -m bench play [--game G] [--humans N] [--ignore-pass] ...``.

What playing feels like for people, measured: the real bot (in this process, with its
default timings: 120 s turns, the configured claim window, AIs moving after 1 s, table
edits at most once a second) hosts a table of each game over the fake Discord; ``humans``
seats are simulated people, the rest AIs added in the lobby. A person does what a person
does: a prompt reaches their DM (a DM created or edited that carries action controls they
have not answered yet), they wait ``delay`` seconds, look at their DM as it is then, decide
what the game's own AI would play from their seat's view (``spec.choose``) and click the
control that makes that move (a button, or the values of a select, found in what the bot
sent: ``tests.e2e.teahouse.control_moves``). Nothing here knows a game's controls, so the
bench measures whatever the bot sends. With ``ignore_pass`` a person never answers a prompt
whose only possible answer is Pass (a lone Pass control, or Pass as the only legal action):
they let its time run out, as people who are not notified do.

Per hand (a hand runs from the first state of a deal to the first state of the next; the
last hand of a finished match until the bench stops watching, ``SETTLE_S`` after the end):

* ``wall_s`` — the hand's wall time. The first hand begins with the Start click; its
  ``start_s`` (per game) is the part until the table message was posted.
* ``dms_new`` — messages the bot created in the people's DM channels (ephemeral ones
  apart: ``dm_ephemeral``); ``dms_notifying`` those of them that notify (not sent with
  SUPPRESS_NOTIFICATIONS). A deferred answer's "thinking" message and the content that
  fills it count once, as a new message.
* ``dm_edits`` — edits of messages in the people's DMs (through PATCH or an interaction).
* ``clicks`` / ``selects`` — component interactions the people sent; of them, those on a
  select. ``clicks_single_answer`` — clicks on a prompt that offered exactly one possible
  answer: one legal action in the state at the click, or one distinct move in the controls
  the person saw (two identical cards as one button).
* ``idle_wait_s`` — seconds the table waited on a person who had nothing to decide: summed
  over the human seats, the time each was in ``to_act`` with exactly one legal action
  (sampled every ``SAMPLE_S``). ``table_held_s`` — wall seconds during which everyone the
  table waited on had at most one legal action and at least one of them was a person: the
  time the whole table stood still for decisions nobody had to make.
* ``table_edits`` — edits of the table message; ``thread_posts`` — other messages created in
  the table's thread (or channel, without a thread).
* ``actions`` — moves stored in the hand, by source (player, ai, timeout), read from the
  bot's database; ``by_person`` — the same figures for each person, and their own stored
  moves by verb (``discard``, ``pung``, ...).
* ``problems`` — prompts with no control that sends a legal move, AI choices no control can
  make (the person then clicks another legal move), clicks refused, clicks never answered.
* ``whole_run`` (per game) — the message and click figures from the Start click until the
  bot stopped: what the hands saw plus what came after the last one.

What a hand's end causes (its summary post, the DMs of the next deal) arrives a moment after
the state has entered the next hand, so it is counted in the next hand's figures; over a
whole match (``hands=0``) nothing is lost.

The bench is bounded: each hand may last ``timeout`` seconds (then it is reported with
``timed_out`` and the run stops); everything runs on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.games import GAME_NAMES, game_spec
from bot.i18n import DEFAULT_LOCALE, localize
from tests.e2e.fakediscord import (
    EPHEMERAL,
    LOADING,
    SUPPRESS_NOTIFICATIONS,
    FakeDiscord,
    FakeMessage,
    configure_discord_py,
)
from tests.e2e.teahouse import (
    Move,
    RunningBot,
    action_components,
    click_move,
    control_moves,
    eventually,
    form_fields,
    latest_controls,
    state_checks,
)

#: Seconds between two looks at a table's state (hand changes, idle waits).
SAMPLE_S = 0.05
#: Seconds the bench keeps watching after a match ends (its last posts and DMs).
SETTLE_S = 3.0
#: Seconds the bot may take to stop at the end of a run.
STOP_S = 60.0
#: Seconds a person whose DM cannot make the AI's choice waits for it to change.
LAG_S = 2.0
#: The bot's timing settings a run may take from the environment, as the bot itself would.
TIMING_VARS = {
    "TEAHOUSE_TURN_SECONDS": "turn_seconds",
    "TEAHOUSE_CLAIM_SECONDS": "claim_seconds",
    "TEAHOUSE_AI_DELAY": "ai_delay",
    "TEAHOUSE_EDIT_INTERVAL": "edit_interval",
    "TEAHOUSE_TIMEOUTS_BEFORE_AI": "timeouts_before_ai",
    "TEAHOUSE_SIMULTANEOUS_WINDOW": "simultaneous_window",
}


# ---------------------------------------------------------------------- what is recorded


@dataclass(frozen=True)
class MessageEvent:
    """The bot created or edited a message (a fake message observer's call)."""

    at: float
    channel_id: int
    message_id: int
    created: bool
    #: The DM's recipient, or None outside DMs.
    dm_user: int | None
    ephemeral: bool
    #: A new message that notifies (not ephemeral, not sent with SUPPRESS_NOTIFICATIONS).
    notifying: bool
    #: An edit that only fills a deferred answer's "thinking" message (part of its creation).
    fills: bool = False


@dataclass(frozen=True)
class ClickEvent:
    """A simulated person's component interaction."""

    at: float
    user: int
    seat: int
    code: str
    select: bool
    #: The prompt offered exactly one possible answer.
    single_answer: bool


@dataclass
class HandWindow:
    """One hand: when it began and ended (wall clock), and what was sampled meanwhile."""

    index: int
    key: tuple[Any, ...]
    start: float
    end: float | None = None
    timed_out: bool = False
    #: Human seat → seconds in ``to_act`` with exactly one legal action.
    idle_wait: Counter[int] = field(default_factory=Counter)
    table_held: float = 0.0


class Recorder:
    """A fake message observer: every message the bot creates or edits, stamped, and the
    arrival time of each set of DM controls (what a person reacts to)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.events: list[MessageEvent] = []
        self._loading: set[int] = set()
        #: (user, controls key) → when those controls first reached the user's DM.
        self.arrived: dict[tuple[int, tuple[str, ...]], float] = {}
        self.dm_changed: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        fake.message_observers.append(self)

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.fake.message_observers.remove(self)

    def __call__(self, msg: FakeMessage, created: bool) -> None:
        now = time.time()
        channel = self.fake.channel(msg.channel_id)
        user = channel.recipient_id if channel.is_dm else None
        fills = False
        if created and msg.flags & LOADING:
            self._loading.add(msg.id)
        elif not created and msg.id in self._loading:
            self._loading.discard(msg.id)
            fills = True
        ephemeral = bool(msg.flags & EPHEMERAL)
        self.events.append(
            MessageEvent(
                at=now,
                channel_id=msg.channel_id,
                message_id=msg.id,
                created=created,
                dm_user=user,
                ephemeral=ephemeral,
                notifying=created and not ephemeral and not msg.flags & SUPPRESS_NOTIFICATIONS,
                fills=fills,
            )
        )
        if user is not None:
            key = controls_key(action_components(msg))
            if key:
                self.arrived.setdefault((user, key), now)
            self.dm_changed[user].set()


def controls_key(comps: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """What identifies a prompt as a person sees it: its action controls' custom ids."""
    return tuple(sorted(c["custom_id"] for c in comps))


# ---------------------------------------------------------------------- counting


def count_messages(
    events: Sequence[MessageEvent],
    start: float,
    end: float,
    *,
    people: Iterable[int],
    table_message: int | None,
    thread: int | None,
) -> dict[str, int]:
    """The message figures of one table between ``start`` (included) and ``end``."""
    people = set(people)
    out = Counter(
        dms_new=0, dms_notifying=0, dm_edits=0, dm_ephemeral=0, table_edits=0, thread_posts=0
    )
    for e in events:
        if not start <= e.at < end:
            continue
        if e.dm_user is not None:
            if e.dm_user not in people:
                continue
            if e.ephemeral:
                out["dm_ephemeral"] += e.created
            elif e.created:
                out["dms_new"] += 1
                out["dms_notifying"] += e.notifying
            elif not e.fills:
                out["dm_edits"] += 1
        elif e.message_id == table_message and not e.created:
            out["table_edits"] += 1
        elif (
            e.channel_id == thread
            and e.created
            and not e.ephemeral
            and e.message_id != table_message
        ):
            out["thread_posts"] += 1
    return dict(out)


def dm_figures(
    events: Sequence[MessageEvent], user: int, start: float, end: float
) -> dict[str, int]:
    """The DM figures of one person."""
    counted = count_messages(events, start, end, people=[user], table_message=None, thread=None)
    return {k: v for k, v in counted.items() if k.startswith(("dms_", "dm_"))}


def count_clicks(clicks: Sequence[ClickEvent], start: float, end: float) -> dict[str, int]:
    inside = [c for c in clicks if start <= c.at < end]
    return {
        "clicks": len(inside),
        "clicks_single_answer": sum(c.single_answer for c in inside),
        "selects": sum(c.select for c in inside),
    }


def count_actions(
    actions: Sequence[tuple[int, str, str, float]], start: float, end: float
) -> dict[str, Any]:
    """Stored moves ``(seat, code, source, created_at)`` in the hand, by source."""
    inside = [a for a in actions if start <= a[3] < end]
    return dict(Counter(source for _, _, source, _ in inside))


def own_moves(
    actions: Sequence[tuple[int, str, str, float]], seat: int, start: float, end: float
) -> dict[str, int]:
    """A seat's stored moves in the hand by verb (the first word of the code), those the
    person made (player) and those their clock made (timeout)."""
    return dict(
        Counter(
            (code.split() or [""])[0] + (" (timeout)" if source == "timeout" else "")
            for s, code, source, at in actions
            if s == seat and start <= at < end and source in ("player", "timeout")
        )
    )


def single_answer(
    legal: Sequence[str], moves: Sequence[Move], spec: Any = None, *, required: bool = True
) -> bool:
    """Whether a prompt offered exactly one possible answer: a decision the table waits
    for (not an optional out-of-turn play, which one may also not make) with one distinct
    legal answer (the game's ``answer_key``: two identical cards are one), or one distinct
    control move (two identical cards shown as one button)."""
    if not required:
        return False
    answers = spec.distinct_answers(legal) if spec is not None else list(legal)
    if len(answers) == 1:
        return True
    # The controls tell only when they are plain buttons, one per answer: a select or a
    # form (a button that opens one) holds many answers in one control.
    buttons = all(m.component.get("type") == 2 and m.values is None for m in moves)
    plain = buttons and not any(str(m.component["custom_id"]).startswith("th:f:") for m in moves)
    return plain and len({m.component["custom_id"] for m in moves}) == 1


def only_pass(
    legal: Sequence[str], moves: Sequence[Move], normalize: Any = None, pass_code: str = "pass"
) -> bool:
    """Whether Pass (the game's ``pass_code``) is all a prompt lets the person do (Pass
    the only legal action, or a lone Pass among the controls)."""
    norm = normalize or (lambda code: " ".join(code.split()))
    if [norm(c) for c in legal] == [pass_code]:
        return True
    return bool(moves) and all(norm(m.code) == pass_code for m in moves)


def ai_form_answer(
    spec: Any,
    state: Any,
    seat: int,
    verb: str,
    normalize: Callable[[str], str],
    rng: random.Random,
) -> Callable[[dict[str, Any]], dict[str, list[str]]] | None:
    """The answers to a form (one ``verb key value`` move per question: Panda's three
    passed cards) that make the AI's own choices, asked one question at a time on a copy
    of the state; None if the AI's choice is not such a move."""
    trial = copy.deepcopy(state)
    picks: dict[str, str] = {}
    while legal := trial.legal_actions(seat):
        words = normalize(spec.choose(trial.view(seat), legal, rng) or "").split()
        if len(words) != 3 or words[0] != verb or words[1] in picks:
            break
        picks[words[1]] = words[2]
        trial.apply(seat, " ".join(words))
    if not picks:
        return None

    def answer(modal: dict[str, Any]) -> dict[str, list[str]]:
        return {
            key: [picks[key] if picks.get(key) in values else values[0]]
            for key, values in form_fields(modal)
        }

    return answer


def hand_key(spec: Any, state: Any) -> tuple[Any, ...]:
    """What changes when a new hand (deal, round) begins, from the public view."""
    view = state.view(None)
    return (view.get("round"), view.get("deal"), spec.progress(view))


# ---------------------------------------------------------------------- one table


@dataclass
class PlayOptions:
    game: str
    humans: int
    hands: int = 1
    delay: float = 1.0
    ignore_pass: bool = False
    #: A person who would pass in an answer window (a claim they could make but don't)
    #: lets the window close by itself instead of clicking Pass (it closes in seconds).
    wait_out_pass: bool = False
    timeout: float = 1800.0
    seed: int = 1
    #: The table's options, as ``/<game> new`` takes them (``{"max_hands": 1}``).
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """A person's answer to a prompt: the AI's ``choice`` and the control move they make."""

    seat: int
    choice: str
    #: None: no control sends a legal move.
    move: Move | None
    #: The move makes the AI's choice (else no control could: another legal move).
    fits: bool
    single_answer: bool


@dataclass
class Problems:
    counts: Counter[str] = field(default_factory=Counter)

    def note(self, what: str) -> None:
        self.counts[what] += 1


class PlayTable:
    """One table of the run: its people, its sampler, its figures."""

    def __init__(
        self,
        fake: FakeDiscord,
        running: RunningBot,
        recorder: Recorder,
        opts: PlayOptions,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.fake, self.running, self.recorder, self.opts = fake, running, recorder, opts
        self.say = progress or (lambda line: None)
        self.spec = game_spec(opts.game)
        self.users: list[int] = []
        self.names: dict[int, str] = {}
        self.table_id: int | None = None
        self.live: Any = None
        self.channel = 0
        self.hands: list[HandWindow] = []
        self.clicks: list[ClickEvent] = []
        self.problems = Problems()
        #: When a person let a Pass-only prompt run out (``ignore_pass``).
        self.ignored_pass: list[float] = []
        self.finished = False
        self.started_at = 0.0
        #: Seconds from the Start click to the table message (part of the first hand).
        self.posted_after = 0.0
        #: From the table, by :meth:`capture`.
        self.table_message: int | None = None
        self.thread: int | None = None
        self.seats: dict[int, int] = {}

    @property
    def table(self) -> Any:
        """The bot's table (kept: the host forgets a table once its match is over)."""
        assert self.live is not None, "open() first"
        return self.live

    def prepare(self, guild: int) -> None:
        """The table's channel and people, made before the bot connects (a channel made
        later is not in the bot's cache: the table would play without a thread)."""
        fake, opts = self.fake, self.opts
        self.channel = fake.add_text_channel(guild, f"{opts.game}-table")
        for i in range(opts.humans):
            user = fake.add_user(f"{opts.game}-person{i + 1}")
            self.users.append(user)
            self.names[user] = f"person{i + 1}"

    async def open(self) -> None:
        """The first person opens the table, the others join, AIs fill the rest, start."""
        fake, opts = self.fake, self.opts
        host = self.users[0]
        inter = await fake.slash(host, self.channel, f"{opts.game} new", opts.options)
        await inter.wait_response(timeout=60)
        lobby = fake.message(inter.original_id)
        self.table_id = int(lobby.embeds[0]["title"].split("#")[1])
        for guest in self.users[1:]:
            await (await fake.click(guest, lobby, label="Join")).wait_response(timeout=60)
        for _ in range(self.spec.seats - opts.humans):
            await (await fake.click(host, lobby, label="Add AI")).wait_response(timeout=60)
        self.started_at = time.time()  # (the first hand's DMs follow the click at once)
        await (await fake.click(host, lobby, label="Start")).wait_response(timeout=60)
        bot = self.running.bot
        assert bot is not None
        self.live = await eventually(lambda: bot.host.tables.get(self.table_id), timeout=60)
        await eventually(lambda: self.live.table_message_id, timeout=60)
        self.posted_after = time.time() - self.started_at
        self.capture()

    # ------------------------------------------------------------------ people

    async def person(self, user: int) -> None:
        """Answer every new prompt in the user's DM, ``delay`` seconds after it arrived."""
        answered: set[tuple[str, ...]] = set()
        changed = self.recorder.dm_changed[user]
        while True:
            changed.clear()
            found = latest_controls(self.fake, user)
            key = controls_key(found[1]) if found else ()
            if key and key not in answered:
                arrived = self.recorder.arrived.get((user, key), time.time())
                await asyncio.sleep(max(0.0, arrived + self.opts.delay - time.time()))
                # The person reads their DM as it is now (it may have moved on meanwhile).
                found = latest_controls(self.fake, user)
                answered.add(key)
                if found is not None:
                    answered.add(controls_key(found[1]))
                    answered.add(await self.answer(user, *found))
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 1.0)

    async def answer(
        self, user: int, message: FakeMessage, comps: list[dict[str, Any]]
    ) -> tuple[str, ...]:
        """Play what the AI would from this seat, with the control that makes that move.
        The DM may be a moment behind the state (its new controls are on their way): when
        no control makes the AI's choice, the person looks again once the DM changes (at
        most ``LAG_S`` later) before settling for another legal move. Returns the key of
        the controls answered."""
        plan = self.plan(user, comps)
        if isinstance(plan, Plan) and not plan.fits:
            changed = self.recorder.dm_changed[user]
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), LAG_S)
            found = latest_controls(self.fake, user)
            if found is None:
                return ()
            message, comps = found
            plan = self.plan(user, comps)
        if plan is None:
            return controls_key(comps)
        if plan.move is None:
            self.problems.note("no control sends a legal move")
            if os.environ.get("BENCH_DEBUG"):
                print(f"{self.opts.game}: {plan} {comps}", file=sys.stderr)
            return controls_key(comps)
        if not plan.fits:
            self.problems.note("no control makes the AI's choice")
            if os.environ.get("BENCH_DEBUG"):
                print(f"{self.opts.game}: {plan}", file=sys.stderr)
        await self.click(user, message, plan)
        return controls_key(comps)

    def plan(self, user: int, comps: list[dict[str, Any]]) -> Plan | None:
        """What the person does about these controls now (None: nothing)."""
        table = self.table
        if table.finished:
            return None
        seat = self.seats[user]
        state = table.state
        if seat not in state.to_act and seat not in state.may_act:
            self.problems.note("controls for no decision")
            return None
        legal = state.legal_actions(seat)
        if not legal:
            return None
        rng = random.Random(f"{self.opts.seed}:{table.id}:{state.version}:{seat}")
        choice = self.spec.choose(state.view(seat), legal, rng)
        if not choice:
            return None  # an optional out-of-turn play the AI keeps for later
        normalize, accepts = state_checks(state, seat)
        # A game may accept codes it does not list (San Da Yi's six buried cards at once):
        # the AI's choice is then looked for among the controls too.
        wanted = [*legal, choice] if choice not in legal and accepts(choice) else legal
        moves = control_moves(comps, wanted, normalize=normalize, accepts=accepts, rng=rng)
        if not moves:
            return Plan(seat, choice, None, fits=False, single_answer=False)
        if self.opts.ignore_pass and only_pass(legal, moves, normalize, self.spec.pass_code):
            self.ignored_pass.append(time.time())
            return None
        if self.opts.wait_out_pass and table.in_answer_phase():
            if normalize(choice) == normalize(state.default_action(seat)):
                self.ignored_pass.append(time.time())
                return None
        fitting = [m for m in moves if normalize(m.code) == normalize(choice)]
        if not fitting:  # the same move with an identical card (the controls show one of two)
            fitting = [m for m in moves if self.said(m.code) == self.said(choice)]
        if not fitting:  # a form asks at once what the AI decides one question at a time
            fitting = [
                dataclasses.replace(m, answer=answer)
                for m in moves
                if m.answer is not None
                and (answer := ai_form_answer(self.spec, state, seat, m.code, normalize, rng))
                is not None
            ]
        return Plan(
            seat=seat,
            choice=choice,
            move=rng.choice(fitting or moves),
            fits=bool(fitting),
            single_answer=single_answer(legal, moves, self.spec, required=seat in state.to_act),
        )

    async def click(self, user: int, message: FakeMessage, plan: Plan) -> None:
        move = plan.move
        assert move is not None
        if plan.single_answer and os.environ.get("BENCH_DEBUG"):
            legal = self.table.state.legal_actions(plan.seat)
            print(f"{self.opts.game}: one-answer click {plan} legal={legal}", file=sys.stderr)
        self.clicks.append(
            ClickEvent(
                at=time.time(),
                user=user,
                seat=plan.seat,
                code=move.code,
                select=move.values is not None,
                single_answer=plan.single_answer,
            )
        )
        try:
            inter = await click_move(self.fake, user, message, move)
        except (ValueError, LookupError):  # the message changed under the person's finger
            self.problems.note("control gone")
            return
        try:
            callback = await inter.wait_response(timeout=30)
        except TimeoutError:
            self.problems.note("click never answered")
            return
        if callback.ephemeral:
            self.problems.note("click refused: " + (callback.data.get("content") or "?")[:60])

    def said(self, code: str) -> str:
        """How the game names a move to people (identical cards are named alike)."""
        return str(localize(DEFAULT_LOCALE, self.spec.describe(code)))

    # ------------------------------------------------------------------ hands

    def sample(self, dt: float) -> None:
        """Charge ``dt`` seconds of waiting on decisions with one answer to the hand."""
        table = self.table
        hand = self.hands[-1]
        state = table.state
        humans = set(self.seats.values())
        waiting = list(state.to_act)
        answers = {s: len(state.legal_actions(s)) for s in waiting}
        for s in waiting:
            if s in humans and answers[s] == 1:
                hand.idle_wait[s] += dt
        if waiting and all(n <= 1 for n in answers.values()) and humans & set(waiting):
            hand.table_held += dt

    async def watch(self) -> None:
        """Follow the table's hands until ``hands`` of them are over (or the match, or a
        hand's timeout); stamps each hand's start and end."""
        table = self.table
        opts = self.opts
        self.hands.append(HandWindow(1, hand_key(self.spec, table.state), self.started_at))
        last = time.monotonic()
        while True:
            await asyncio.sleep(SAMPLE_S)
            now_m, now = time.monotonic(), time.time()
            hand = self.hands[-1]
            if table.finished or table.state.is_over:
                await asyncio.sleep(SETTLE_S)
                hand.end = time.time()
                self.finished = True
                self.say(f"{opts.game}: hand {hand.index} and the match over")
                return
            key = hand_key(self.spec, table.state)
            if key != hand.key:
                hand.end = now
                self.say(f"{opts.game}: hand {hand.index} over after {now - hand.start:.0f} s")
                if opts.hands and len(self.hands) >= opts.hands:
                    return
                self.hands.append(HandWindow(hand.index + 1, key, now))
            elif now - hand.start > opts.timeout:
                hand.end, hand.timed_out = now, True
                self.say(f"{opts.game}: hand {hand.index} ran out of --timeout")
                return
            else:
                self.sample(now_m - last)
            last = now_m

    async def play(self) -> None:
        await self.open()
        people = [asyncio.create_task(self.person(u)) for u in self.users]
        try:
            await self.watch()
        finally:
            for task in people:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    self.problems.note(f"person crashed: {task.exception()!r}"[:120])
                task.cancel()
            for task in people:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # ------------------------------------------------------------------ figures

    def capture(self) -> None:
        """Note the table's seats and messages, once it has started."""
        table = self.table
        self.table_message = table.table_message_id
        self.thread = table.thread_id or table.channel_id
        self.seats = {u: table.seat_of(u).seat for u in self.users}

    def messages(self, start: float, end: float) -> dict[str, int]:
        return count_messages(
            self.recorder.events,
            start,
            end,
            people=self.users,
            table_message=self.table_message,
            thread=self.thread,
        )

    def figures(self, actions: Sequence[tuple[int, str, str, float]]) -> list[dict[str, Any]]:
        """A row per hand (after :meth:`capture`)."""
        out = []
        for hand in self.hands:
            start, end = hand.start, hand.end or time.time()
            row: dict[str, Any] = {"hand": hand.index, "wall_s": round(end - start, 1)}
            if hand.timed_out:
                row["timed_out"] = True
            row |= self.messages(start, end)
            row |= count_clicks(self.clicks, start, end)
            row["idle_wait_s"] = round(sum(hand.idle_wait.values()), 1)
            row["table_held_s"] = round(hand.table_held, 1)
            row["actions"] = count_actions(actions, start, end)
            if self.opts.ignore_pass or self.opts.wait_out_pass:
                row["pass_prompts_ignored"] = sum(start <= t < end for t in self.ignored_pass)
            row["by_person"] = {
                self.names[u]: {
                    "seat": self.seats[u],
                    **dm_figures(self.recorder.events, u, start, end),
                    **count_clicks([c for c in self.clicks if c.user == u], start, end),
                    "idle_wait_s": round(hand.idle_wait[self.seats[u]], 1),
                    "own_moves": own_moves(actions, self.seats[u], start, end),
                }
                for u in self.users
            }
            out.append(row)
        return out

    def report(self, actions: Sequence[tuple[int, str, str, float]]) -> dict[str, Any]:
        """The table's figures; ``whole_run`` counts from the Start click to the bot's stop
        (the hands, and what came after the last one while the bot stopped)."""
        return {
            "table": {"id": self.table_id, "message": self.table_message, "thread": self.thread},
            "humans": self.opts.humans,
            "ais": self.spec.seats - self.opts.humans,
            "delay_s": self.opts.delay,
            "ignore_pass": self.opts.ignore_pass,
            "wait_out_pass": self.opts.wait_out_pass,
            "match_over": self.finished,
            "start_s": round(self.posted_after, 1),
            "hands": self.figures(actions),
            "whole_run": self.messages(self.started_at, float("inf"))
            | count_clicks(self.clicks, self.started_at, float("inf")),
            "problems": dict(self.problems.counts),
        }


# ---------------------------------------------------------------------- a run


def dump_tasks() -> None:
    """Print every asyncio task's stack to stderr."""
    for task in asyncio.all_tasks():
        print(f"--- {task.get_name()}", file=sys.stderr)
        task.print_stack(limit=12, file=sys.stderr)
    sys.stderr.flush()


def bot_settings(db_path: str, seed: int, env: Mapping[str, str], **overrides: Any) -> Settings:
    """The bot's own defaults, with the timing variables of ``env`` (TEAHOUSE_TURN_SECONDS,
    ...) read as the bot reads them, then ``overrides``; reproducible deals (``seed``)."""
    picked = {k: v for k, v in env.items() if k in TIMING_VARS}
    base = Settings.from_env({"DISCORD_TOKEN": "bench-token", **picked})
    return dataclasses.replace(
        base,
        database=db_path,
        seed_base=f"play-{seed}",
        new_cooldown=0.0,
        log_level="WARNING",
        **overrides,
    )


def read_actions(db_path: str, table_id: int) -> list[tuple[int, str, str, float]]:
    """The table's stored moves: (seat, code, source, created_at), oldest first."""
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT seat, code, source, created_at FROM actions WHERE table_id = ? ORDER BY idx",
            (table_id,),
        ).fetchall()
    return [(int(s), str(c), str(src), float(at)) for s, c, src, at in rows]


def play_options(
    games: Sequence[str],
    humans: int | None,
    *,
    hands: int,
    delay: float,
    ignore_pass: bool,
    timeout: float,
    seed: int,
    wait_out_pass: bool = False,
) -> list[PlayOptions]:
    """One table per game; ``humans`` None: every seat a person (capped at the seats).
    ValueError for a game that does not exist or a count that makes no table."""
    unknown = [g for g in games if g not in GAME_NAMES]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}: one of {', '.join(GAME_NAMES)}")
    if humans is not None and humans < 1:
        raise ValueError("--humans must be at least 1 (a table needs a person to host it)")
    if hands < 0 or delay < 0 or timeout <= 0:
        raise ValueError("--hands and --delay must be ≥ 0, --timeout > 0")
    return [
        PlayOptions(
            game=g,
            humans=min(humans or game_spec(g).seats, game_spec(g).seats),
            hands=hands,
            delay=delay,
            ignore_pass=ignore_pass,
            wait_out_pass=wait_out_pass,
            timeout=timeout,
            seed=seed,
        )
        for g in games
    ]


async def run_play(
    tables: Sequence[PlayOptions],
    *,
    env: Mapping[str, str] | None = None,
    fake: FakeDiscord | None = None,
    progress: Callable[[str], None] | None = None,
    **overrides: Any,
) -> dict[str, Any]:
    """Play ``tables`` at once on one bot and one fake Discord (each table in its own
    channel); the figures per game and hand. ``overrides``: bot settings (tests shorten
    the timings with them). ``fake``: a started fake to use (its recorded requests then
    stay readable afterwards); else one is made and stopped here. ``progress`` is told
    when each hand ends."""
    own_fake = fake is None
    fake = fake or FakeDiscord()
    if own_fake:
        await fake.start()
    restore = configure_discord_py(fake)
    recorder = Recorder(fake)
    guild = fake.add_guild("Playtest")
    tmp = tempfile.TemporaryDirectory(prefix="teahouse-play-")
    db_path = str(Path(tmp.name) / "play.db")
    settings = bot_settings(db_path, tables[0].seed if tables else 1, env or {}, **overrides)
    running = RunningBot(fake, settings)
    played = [PlayTable(fake, running, recorder, opts, progress) for opts in tables]
    result: dict[str, Any] = {
        "settings": {
            k: getattr(settings, k)
            for k in ("turn_seconds", "claim_seconds", "ai_delay", "edit_interval")
        },
        "games": {},
    }
    for t in played:
        t.prepare(guild)
    loop = asyncio.get_running_loop()
    # ``kill -USR1 <pid>``: every task's stack on stderr (a wall-clock run that seems stuck).
    loop.add_signal_handler(signal.SIGUSR1, dump_tasks)
    try:
        await running.start()
        await asyncio.gather(*(t.play() for t in played))
    finally:
        loop.remove_signal_handler(signal.SIGUSR1)
        try:
            await asyncio.wait_for(running.stop(), STOP_S)
        except TimeoutError:
            for t in played:
                t.problems.note(f"the bot did not stop within {STOP_S:g} s")
        recorder.close()
        restore()
        if own_fake:
            await fake.stop()
    try:
        for t in played:
            result["games"][t.opts.game] = t.report(read_actions(db_path, t.table_id or 0))
    finally:
        tmp.cleanup()
    return result


#: The columns of the readable table: (key, heading).
COLUMNS = (
    ("wall_s", "wall s"),
    ("dms_new", "new DMs"),
    ("dms_notifying", "notif."),
    ("dm_edits", "DM edits"),
    ("clicks", "clicks"),
    ("clicks_single_answer", "1-answer"),
    ("selects", "selects"),
    ("idle_wait_s", "idle wait s"),
    ("table_held_s", "held s"),
    ("table_edits", "table edits"),
    ("thread_posts", "posts"),
)


def render_text(result: Mapping[str, Any]) -> str:
    """The figures as a readable table, a line per game and hand, then each person's."""
    s = result["settings"]
    lines = [
        f"turn {s['turn_seconds']:g} s, claim window {s['claim_seconds']:g} s, "
        f"AI delay {s['ai_delay']:g} s, edit interval {s['edit_interval']:g} s",
        f"{'game':<9}{'hand':>5}" + "".join(f"{head:>12}" for _, head in COLUMNS),
    ]
    for game, g in result["games"].items():
        for row in g["hands"]:
            mark = "*" if row.get("timed_out") else ""
            lines.append(
                f"{game:<9}{str(row['hand']) + mark:>5}"
                + "".join(f"{row.get(key, ''):>12}" for key, _ in COLUMNS)
            )
            for name, p in row["by_person"].items():
                moves = ", ".join(f"{k} {v}" for k, v in sorted(p["own_moves"].items()))
                lines.append(
                    f"{'':<9}{'':>5}  {name} (seat {p['seat']}): {p['dms_new']} new DMs "
                    f"({p['dms_notifying']} notifying), {p['dm_edits']} edits, "
                    f"{p['clicks']} clicks ({p['clicks_single_answer']} with one answer), "
                    f"idle {p['idle_wait_s']} s; moves: {moves or '-'}"
                )
        note = f"  {g['humans']} people + {g['ais']} AIs, a person answers after {g['delay_s']:g} s"
        if g["ignore_pass"]:
            note += ", never clicking a lone Pass"
        if g.get("wait_out_pass"):
            note += ", letting a claim window close rather than clicking Pass"
        lines.append(note + (" (match over)" if g["match_over"] else ""))
        if g["problems"]:
            lines.append(f"  problems: {g['problems']}")
    if any(r.get("timed_out") for g in result["games"].values() for r in g["hands"]):
        lines.append("* the hand ran out of --timeout: figures up to then")
    return "\n".join(lines)
