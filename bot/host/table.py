"""A running table: the game state plus what the host tracks around it.

This module knows nothing of Discord; the rest of :mod:`bot.host` does the talking.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from bot.engine import State
from bot.engine.spec import NORMAL, GameSpec
from bot.engine.ui import Controls

#: Names of a table's tasks that serve clicks (kept when the table stops being driven here).
SERVING_TASK_SUFFIX = "-serving"


@dataclass
class Seat:
    seat: int
    name: str
    user_id: int | None  # None for an AI seat
    is_ai: bool = False
    ai_takeover: bool = False
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    #: The fingerprint of the decision the current DM message was sent for (stored with
    #: the message's id; None: unknown). See :meth:`Table.decision_fingerprint`.
    dm_decision: int | None = None
    dms_closed: bool = False
    timeouts: int = 0
    #: An AI seat's level (None: normal); a seat an AI took over always plays normal.
    ai_level: str | None = None
    dm_acting: bool = False  # the current DM was sent for a decision the seat must make
    dm_hand_key: str | None = None  # the hand (and language) the current DM's image shows
    #: The current DM may carry live controls (unknown after a restart: assume it does).
    dm_has_controls: bool = True
    #: The seat's last DM click (its token sends and edits DMs without REST budget while
    #: valid: a ``bot.host.tokens.ClickToken``, which also knows the DM it was on and when
    #: it was made), and the click whose token sent the current DM, if one did. Credentials:
    #: not in the repr (logs).
    token: Any = field(default=None, repr=False)
    dm_token: Any = field(default=None, repr=False)
    #: DM refreshes of the seat go out one at a time (``dm_lock``); each is numbered when
    #: it is planned (``dm_plans``) and one that a later plan overtook is dropped.
    dm_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    dm_plans: int = 0
    #: Whether the DM is for a decision once the planned refreshes are out (None: none is
    #: waiting to go out; ``dm_acting`` says).
    dm_pending_acting: bool | None = None
    #: A refresh planned as a new message (a decision's notification) has not gone out yet.
    dm_new_owed: bool = False
    #: When (monotonic) the player last made a move or asked for a hint at the table: a
    #: player who acted a moment ago is playing, and their next decision edits their DM
    #: in place instead of notifying them again (see ``Table.notifies``).
    acted_at: float | None = None
    #: The prompt version and language of the seat's forms written to the store for other
    #: processes to answer its form buttons (``bot.host.forms``; None: none written here).
    forms_shared: tuple[int, str] | None = None

    @property
    def played_by_ai(self) -> bool:
        return self.is_ai or self.ai_takeover

    @property
    def level(self) -> str:
        """The AI level that plays this seat: its own for an AI seat, normal for a takeover."""
        return (self.ai_level or NORMAL) if self.is_ai else NORMAL


def serving(task: asyncio.Task[Any]) -> bool:
    """A task serving clicks (kept when the table stops being driven here)."""
    return task.get_name().endswith(SERVING_TASK_SUFFIX)


def fingerprint(text: str) -> bytes:
    """16 bytes that tell whether ``text`` changed: a table compares what it shows with
    these, not with a copy (the public view's text is several KiB, kept per table)."""
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


@dataclass
class Prompt:
    """What a seat was last shown: its legal actions, at which state version."""

    version: int
    legal: tuple[str, ...]
    hand_key: str
    #: Made when the table was restored: the DM controls were stamped before the restart.
    from_before_restart: bool = False
    #: The seat's DM offers controls for it (see :meth:`Table.asked`).
    asked: bool = True


@dataclass
class Table:
    id: int
    spec: GameSpec
    guild_id: int | None
    channel_id: int
    host_id: int
    seed: str
    options: dict[str, Any]
    seats: list[Seat]
    state: State
    thread_id: int | None = None
    table_message_id: int | None = None
    lobby_message_id: int | None = None
    #: The table's language: its table message, thread posts and table picture.
    locale: str = "en-US"
    prompts: dict[int, Prompt] = field(default_factory=dict)
    #: ``controls_for``'s answers for one state and version: the DM's text and its
    #: components both need them, for every seat, on every change.
    _controls: tuple[State | None, int, dict[int, Controls]] = field(
        default=(None, -1, {}), init=False, repr=False, compare=False
    )
    #: Passes given in an answer phase before anyone claimed, not applied yet: applying one
    #: would show who was asked (only seats with a choice are). Seat -> the version of the
    #: decision it answers (its prompt's); applied when the window closes or a claim is in.
    held: dict[int, int] = field(default_factory=dict)
    deadlines: dict[int, float] = field(default_factory=dict)  # seat -> monotonic time
    deadline_versions: dict[int, int] = field(default_factory=dict)  # the decision it is for
    #: The same deadlines as Unix times (whole seconds), fixed when set: what the DMs show
    #: (``<t:…:R>``), the same in every refresh of one decision.
    deadline_epochs: dict[int, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Serialises edits of the table message (an older picture never follows a newer one).
    edit_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Fingerprints (:func:`fingerprint`) of what the table message shows now: the public
    #: view and language of its picture, and its status text.
    shown: tuple[bytes, bytes] | None = None
    table_dirty: asyncio.Event = field(default_factory=asyncio.Event)
    #: When (monotonic) the oldest change the table message does not show yet was made, or
    #: None: the table updater's deadline, and its place in the REST queue.
    dirty_since: float | None = None
    #: Table-message updates that failed in a row (for a passing reason): it is tried again
    #: after ``RETRY_DELAYS[show_failures]`` (bot.host.presenter).
    show_failures: int = 0
    #: Permissions (discord.py's names) the table's host was told the bot lacks in the
    #: table's channel; and those Discord refused though the bot's cache had them, taken as
    #: missing until they are tried again after ``refusals`` (bot.host.recovery).
    missing_told: frozenset[str] = frozenset()
    refused_permissions: frozenset[str] = frozenset()
    refusals: int = 0
    #: The table moving to a new thread, its own deleted (bot.host.recovery).
    rehoming: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # the driver re-plans
    events_shown: int = 0
    #: The last public event lines, as the game said them (``Text``: told in each reader's
    #: language when shown).
    recent: list[str] = field(default_factory=list)
    #: The action that ended the last deal whose hands were revealed (bot.host.spectate).
    last_revealed: int | None = None
    finished: bool = False
    #: The end is being written and announced here (see bot.host.finish); ``finished`` once
    #: the results are recorded.
    ending: bool = False
    #: Writing the results failed once, perhaps after its commit (see bot.host.finish).
    result_unsure: bool = False
    #: Out-of-turn requests being gathered: (seat, code, version, interaction, the click
    #: shared with the process driving the table or None; see ``clicks.shared_click``).
    batch: list[tuple[int, str, int, Any, Any]] | None = None
    #: AI seats with optional actions: the version at which each last considered them.
    ai_considered: dict[int, int] = field(default_factory=dict)
    #: Times the driver task died of an unexpected error and was started again.
    driver_restarts: int = 0
    #: Since when (monotonic) every seat has been played by an AI, or None.
    ai_only_since: float | None = None
    #: This process holds the table's lease and runs its driver and table updater; else the
    #: table is a cache of the log that serves clicks while another process drives it.
    driven: bool = False
    #: Another process appended to the log (a notification said so): the driver catches up.
    log_moved: bool = False
    #: Another process held a seat's pass in the open answer window (a notification said
    #: so): the driver reads it (``Store.held_passes``) and holds it too.
    holds_moved: bool = False
    #: The index this process is appending now (its own append's notification, heard
    #: before the append returns, is no move of another process: see ``_heard_append``).
    appending: int | None = None
    #: When (monotonic) a click last used this table: idle caches are forgotten.
    last_used: float = field(default_factory=time.monotonic)

    def stop_driving(self) -> bool:
        """No longer driven here: from now on this is a cache of the log. True if the
        driver, the table updater and the restart messages are to stop (the caller's
        scheduler cancels them, not the gathering of clicks being served: see
        :func:`serving`); False while its end is being written and shown (let that
        complete)."""
        self.driven = False
        return not self.ending

    def mark_dirty(self) -> None:
        """The table message no longer shows the table: its updater will edit it."""
        if self.dirty_since is None:
            self.dirty_since = time.monotonic()
        self.table_dirty.set()

    def edit_may_wait(self) -> bool:
        """The table message may wait a moment to show the next moves in one edit: every
        seat that must act now is an AI (moving after ``ai_delay``), or it is an answer
        phase (a claim window: those who may claim decide from their DM, and the window
        closes within seconds)."""
        waiting = self.waiting_on()
        if not waiting:
            return False
        return all(self.seats[s].played_by_ai for s in waiting) or self.in_answer_phase()

    def wake_driver(self) -> None:
        self.wake.set()

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def channel_for_table(self) -> int:
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_ai and s.user_id is not None]

    def controls_for(self, seat: int) -> Controls:
        state, version, known = self._controls
        if state is not self.state or version != self.state.version:
            known = {}
            self._controls = (self.state, self.state.version, known)
        controls = known.get(seat)
        if controls is None:
            view = self.state.view(seat)
            controls = known[seat] = self.spec.controls(view, self.state.legal_actions(seat))
        return controls

    def hand_key(self, seat: int) -> str:
        """A fingerprint of the seat's private hand: its DM is refreshed when it changes."""
        view = self.state.view(seat)
        return repr(view.get(self.spec.hand_key))

    def changed_prompts(self, *, shown: bool = True) -> list[int]:
        """Seats whose decision or hand differ from what their DM shows.

        A decision is new when the seat's legal actions changed, or when the seat itself
        acted since it was shown (the same answers again are another decision: a second
        claim window like the first). Updates ``prompts`` so the components sent next carry
        the current version. A seat shown no controls before and after (a pass the host
        plays for it) with the same hand needs no refresh: its DM shows no decision.

        ``shown=False``: nothing of the table is shown from here (a cache serving clicks
        for a table another process drives): only the prompts' versions are kept, which
        judge the clicks' controls; the hands' fingerprints and whether each seat is asked
        (a view and the legal actions again per seat and action, most of the cost) are
        left out, and no seat is returned. A process that comes to drive the table
        rebuilds its prompts from the log first (see ``Sessions._reload``).
        """
        if not shown:
            self._restamp_prompts()
            return []
        changed = []
        version = self.state.version
        self._drop_stale_holds()
        for s in self.seats:
            legal = tuple(self.state.legal_actions(s.seat)) if not self.state.is_over else ()
            key = self.hand_key(s.seat)
            old = self.prompts.get(s.seat)
            if old is None or old.legal != legal or (legal and self._acted_since(s, old)):
                self.prompts[s.seat] = Prompt(version, legal, key)
                asked = self.prompts[s.seat].asked = self.asked(s.seat)
                if old is None or old.asked or asked or old.hand_key != key:
                    changed.append(s.seat)
            elif old.hand_key != key:
                # Same decision, new hand picture: keep the version so open buttons stay valid.
                self.prompts[s.seat] = Prompt(
                    old.version, legal, key, old.from_before_restart, old.asked
                )
                changed.append(s.seat)
        return changed

    def _restamp_prompts(self) -> None:
        """The versions of :meth:`changed_prompts` alone: a new decision (new legal actions,
        or the seat acted since) is stamped with the current version."""
        version = self.state.version
        self._drop_stale_holds()
        for s in self.seats:
            legal = tuple(self.state.legal_actions(s.seat)) if not self.state.is_over else ()
            old = self.prompts.get(s.seat)
            if old is None or old.legal != legal or (legal and self._acted_since(s, old)):
                self.prompts[s.seat] = Prompt(version, legal, "")

    def _acted_since(self, seat: Seat, prompt: Prompt) -> bool:
        """Whether the seat made a move since ``prompt`` was made: that answered it."""
        return any(s == seat.seat for s, _ in self.state.log[prompt.version :])

    def answers(self, seat: int) -> list[str]:
        """The seat's distinct answers now: its legal actions, those that are the same
        answer (the game's ``answer_key``) given once."""
        return self.spec.distinct_answers(self.state.legal_actions(seat))

    def forced(self, seat: int) -> bool:
        """The table waits on the seat for a decision with one answer: the host plays it."""
        return seat in self.waiting_on() and len(self.answers(seat)) == 1

    def asked(self, seat: int) -> bool:
        """The seat's DM offers controls now: it has legal actions, and is neither waited
        on for a decision with one answer (played for it) nor for a window it passed."""
        if not self.state.legal_actions(seat):
            return False
        return not self.forced(seat) and not self.holds(seat)

    def holds(self, seat: int) -> bool:
        """The seat passed the open answer window; the pass waits for the window's close."""
        prompt = self.prompts.get(seat)
        return (
            seat in self.held
            and prompt is not None
            and self.held[seat] == prompt.version
            and seat in self.waiting_on()
        )

    def _drop_stale_holds(self) -> None:
        for seat in [s for s in self.held if s not in self.waiting_on()]:
            del self.held[seat]

    def auto_movers(self) -> list[int]:
        """Seats the driver plays after ``ai_delay``: those an AI plays, and outside answer
        phases those with one answer. (In an answer phase a seat with one answer is answered
        when the window closes: answering earlier would show it had no choice.)"""
        waiting = self.waiting_on()
        if not waiting:
            return []
        answering = self.in_answer_phase()
        return [
            s for s in waiting if self.seats[s].played_by_ai or (not answering and self.forced(s))
        ]

    def in_answer_phase(self) -> bool:
        """Every seat is asked at once and most can only pass (Mah-Jongg's claim windows):
        short deadlines, AIs answering together, running out is a pass."""
        if not self.spec.answer_phases:  # (the public view, built to tell, is not cheap)
            return False
        return self.spec.in_answer_phase(self.state.view(None))

    def waiting_on(self) -> list[int]:
        return [] if self.state.is_over else list(self.state.to_act)

    def must_decide(self, seat: Seat) -> bool:
        """A person must make a decision for the seat now: its DM comes as a new message
        (which notifies). A decision with one answer is none: the host plays it."""
        return seat.seat in self.waiting_on() and not seat.played_by_ai and self.asked(seat.seat)

    def decision_fingerprint(self, seat: int) -> int:
        """A checksum of the seat's legal actions: a DM sent for the same fingerprint offers
        controls that are all legal now (controls from before a restart are accepted while
        they are legal: see ``_accept_earlier_controls``)."""
        return zlib.crc32("\n".join(self.state.legal_actions(seat)).encode())

    def dm_behind(self, seat: Seat) -> bool:
        """The seat must decide, but its DM message was sent for another decision (a restart
        came between storing the action and sending the DM), or nobody knows which."""
        return self.must_decide(seat) and seat.dm_decision != self.decision_fingerprint(seat.seat)

    def set_deadlines(self, seconds: float, now: float | None = None) -> None:
        """Give every seat that must act now a deadline; a decision keeps its deadline until
        it changes (calling this again at the same state changes nothing)."""
        now = time.monotonic() if now is None else now
        waiting = set(self.waiting_on())
        for seat in list(self.deadlines):
            if seat not in waiting:
                del self.deadlines[seat]
                self.deadline_versions.pop(seat, None)
                self.deadline_epochs.pop(seat, None)
        for seat in waiting:
            prompt = self.prompts.get(seat)
            decided_at = prompt.version if prompt else self.state.version
            if seat not in self.deadlines or self.deadline_versions.get(seat, -1) < decided_at:
                self.deadlines[seat] = now + seconds
                self.deadline_versions[seat] = decided_at
                self.deadline_epochs.pop(seat, None)

    def deadline_epoch(self, seat: int) -> int | None:
        """The seat's deadline as a Unix time (for Discord's ``<t:…:R>``), or None. Taken
        from the clock once per deadline, so every message about one decision shows the
        same second (the driver may also move a deadline: a takeover's remaining time)."""
        deadline = self.deadlines.get(seat)
        if deadline is None:
            return None
        epoch = self.deadline_epochs.get(seat)
        if epoch is None:
            epoch = round(time.time() + deadline - time.monotonic())
            self.deadline_epochs[seat] = epoch
        return epoch

    def notifies(self, seat: Seat, now: float, attention: float) -> bool:
        """A decision of the seat's comes as a new, notifying DM (else its DM is edited in
        place): a decision in an answer phase (a claim window: it closes within seconds),
        or one that finds the player away — they have not acted for ``attention`` seconds
        (a player who acted a moment ago is looking at their DM)."""
        if self.in_answer_phase():
            return True
        return seat.acted_at is None or now - seat.acted_at > attention
