"""Running the real Teahouse bot against the fake Discord, and playing as simulated users."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from collections.abc import Callable
from typing import Any

from bot.app import Teahouse
from bot.config import Settings
from bot.engine import IllegalAction
from tests.e2e.fakediscord import (
    FakeDiscord,
    FakeMessage,
    find_components,
    start_client,
    stop_client,
)

#: An action button (a), an action select (s), a button that opens a form (f).
ACTION_ID = re.compile(r"^th:(a|s|f):(\d+):(\d+):(\d+):")
#: The refusal of a click on controls of an earlier decision (bot/host/clicks.py).
STALE_CONTROLS = "These controls are out of date — use your latest hand message."


def settings_for(db_path: str, **overrides: Any) -> Settings:
    base = Settings(
        token="fake-token",
        database=db_path,
        turn_seconds=600.0,
        # Mah-Jongg claim windows must not close on their own under a loaded machine.
        claim_seconds=600.0,
        ai_delay=0.0,
        edit_interval=0.0,
        timeouts_before_ai=2,
        seed_base="e2e",
        new_cooldown=0.0,  # tests open tables back to back; the cooldown has its own test
    )
    return dataclasses.replace(base, **overrides)


class RunningBot:
    """A Teahouse instance connected to the fake; ``restart()`` simulates a process restart."""

    def __init__(self, fake: FakeDiscord, settings: Settings) -> None:
        self.fake = fake
        self.settings = settings
        self.bot: Teahouse | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> Teahouse:
        self.bot = Teahouse(self.settings, guild_ready_timeout=0.05)
        self.task = await start_client(self.bot)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None and self.task is not None:
            await stop_client(self.bot, self.task)
        self.bot = self.task = None

    async def restart(self) -> Teahouse:
        await self.stop()
        return await self.start()


def shorten_turns(table: Any, seconds: float) -> None:
    """Give the table's turns ``seconds`` (the command's minimum is 15 s), the decisions
    pending now included, whether or not the table's start has given them their deadlines
    yet: a decision keeps a deadline once given, so ``set_deadlines`` alone would change
    nothing after the start (and a test's lines may run before it or after it)."""
    table.options["turn_seconds"] = seconds
    table.deadlines.clear()
    table.set_deadlines(seconds)
    table.wake_driver()


def action_components(message: FakeMessage) -> list[dict[str, Any]]:
    return [
        c
        for c in find_components(message)
        if ACTION_ID.match(c.get("custom_id") or "") and not c.get("disabled")
    ]


def latest_controls(
    fake: FakeDiscord, user_id: int
) -> tuple[FakeMessage, list[dict[str, Any]]] | None:
    """The user's newest DM that carries action components."""
    for message in reversed(fake.dms(user_id)):
        comps = action_components(message)
        if comps:
            return message, comps
    return None


def current_controls(fake: FakeDiscord, table: Any, user_id: int):
    """The user's DM controls for the decision they must make now, once the bot has sent
    them (the state changes first, the DM a moment later): (message, components) or None."""
    seat = table.seat_of(user_id)
    if seat is None or seat.seat not in table.state.to_act or table.lock.locked():
        return None
    found = latest_controls(fake, user_id)
    prompt = table.prompts.get(seat.seat)
    if not found or prompt is None:
        return None
    if any(int(c["custom_id"].split(":")[4]) != prompt.version for c in found[1]):
        return None
    return found


def settled(table: Any) -> bool:
    """Nothing is under way inside the bot: no lock held, no out-of-turn plays being
    gathered, no AI seat with a decision to make, and every AI seat that may act out of turn
    (an Ambush) has considered the current state. Simulated people wait for this before
    clicking, so AI and human moves never race and a seed always plays the same match."""
    if table.finished:
        return True
    if table.lock.locked() or table.batch is not None:
        return False
    if table.auto_movers():  # an AI's move, or a person's only answer, is on its way
        return False
    version = table.state.version
    return all(
        table.ai_considered.get(s) == version
        for s in table.state.may_act
        if table.seats[s].played_by_ai
    )


def next_decision(fake: FakeDiscord, table: Any, users: list[int]):
    """Once the bot has settled: the human seat that acts next (the lowest seat among those
    who must decide, so the order never depends on timing) with its DM controls, as
    (user, (message, components)); None while waiting.

    An answer window (a Mah-Jongg claim window) that waits on nobody with a choice left is
    closed at once (the people let it run out): the suite's windows are long, so that no
    window closes on its own before a slow machine's simulated person has clicked."""
    if not settled(table):
        return None
    seats = sorted(
        (
            s
            for s in table.seats
            if s.user_id in users and s.seat in table.state.to_act and table.asked(s.seat)
        ),
        key=lambda s: s.seat,
    )
    if not seats:
        run_out_idle_window(table)
        return None
    found = current_controls(fake, table, seats[0].user_id)
    return (seats[0].user_id, found) if found else None


def run_out_idle_window(table: Any) -> None:
    """Let an answer window that waits on nobody with a choice left close now (its
    deadlines are brought forward and the driver woken), as if its time had run out."""
    waiting = table.waiting_on()
    if not waiting or not table.in_answer_phase() or any(table.asked(s) for s in waiting):
        return
    if any(table.seats[s].played_by_ai for s in waiting):
        return  # the AIs answer first
    for seat in waiting:
        table.deadlines[seat] = 0.0
    table.wake_driver()


def answered(table: Any, seat: int, version: int) -> bool:
    """The seat's click was taken: the state moved on, or its pass waits for the window's
    close (see ``Table.held``), or the match ended."""
    return table.finished or table.state.version > version or table.holds(seat)


def decision_rng(table: Any, seat: int) -> random.Random:
    """The simulated person's dice for one decision: from the table's seed, the state version
    and the seat, so a choice never depends on what was clicked before or when."""
    return random.Random(f"{table.seed}:{table.state.version}:{seat}")


async def click_some_action(
    fake: FakeDiscord,
    user_id: int,
    message: FakeMessage,
    comps: list[dict[str, Any]],
    rng: random.Random,
):
    """Click one of the components like a person who picks any legal move."""
    comp = rng.choice(comps)
    if comp["type"] == 3:  # select
        k = rng.randint(comp.get("min_values") or 1, comp.get("max_values") or 1)
        values = rng.sample([o["value"] for o in comp["options"]], k)
        return await fake.select(user_id, message, comp["custom_id"], values)
    return await fake.click(user_id, message, comp["custom_id"])


async def eventually(predicate, timeout: float = 20.0, interval: float = 0.01):
    """Poll ``predicate`` (for conditions inside the bot, which the fake is not told about)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"condition not met within {timeout} s")
        await asyncio.sleep(interval)


@dataclasses.dataclass(frozen=True)
class Move:
    """One way to use a control: click a button (``values`` None) or pick ``values`` in a
    select; ``code`` is the action code the host builds from it (bot/host/components.py).
    A button that opens a form has ``answer``: given the modal the bot opened, the answers
    to send (``code`` is then only the form's verb: the modal's menus are known once it is
    open)."""

    component: dict[str, Any]
    values: tuple[str, ...] | None
    code: str
    answer: Callable[[dict[str, Any]], dict[str, list[str]]] | None = None


def form_fields(modal: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(custom id, option values) of each select of a modal the bot opened, in order."""
    out = []
    for comp in modal.get("components") or []:
        inner = comp.get("component") if comp.get("type") == 18 else None
        for c in [inner] if inner else comp.get("components") or []:
            if c and c.get("type") == 3:
                out.append((c["custom_id"], [o["value"] for o in c.get("options") or []]))
    return out


def _form_answer(
    verb: str,
    wanted: set[str],
    norm: Callable[[str], str],
    accepts: Callable[[str], bool] | None,
    rng: random.Random,
) -> Callable[[dict[str, Any]], dict[str, list[str]]]:
    """Answers a person who knows the rules gives a form: for each question a value whose
    one-question code (``verb key value``) is among the ``wanted`` moves, all different,
    checked whole by ``accepts`` (tried a few times; the last try is sent anyway)."""

    def answer(modal: dict[str, Any]) -> dict[str, list[str]]:
        fields = form_fields(modal)
        chosen: dict[str, list[str]] = {}
        for _ in range(20):
            chosen, used = {}, set()
            for key, values in fields:
                fits = [v for v in values if norm(f"{verb} {key} {v}") in wanted and v not in used]
                pick = rng.choice(fits or [v for v in values if v not in used] or values)
                chosen[key] = [pick]
                used.add(pick)
            code = " ".join([verb, *(w for k, v in chosen.items() for w in (k, v[0]))])
            if accepts is None or accepts(code):
                break
        return chosen

    return answer


def _parts(comp: dict[str, Any]) -> tuple[str, str]:
    """(kind "a"/"s", code or verb) of an action component's custom id."""
    kind = ACTION_ID.match(comp["custom_id"]).group(1)
    return kind, comp["custom_id"].split(":", 5)[5]


def select_code(comp: dict[str, Any], values: list[str] | tuple[str, ...]) -> str:
    """The code the host's ActionSelect builds: the verb, then the values in option order."""
    _, verb = _parts(comp)
    order = {o["value"]: i for i, o in enumerate(comp["options"])}
    chosen = sorted(values, key=lambda v: order.get(v, len(order)))
    return " ".join([verb, *chosen]) if verb else " ".join(chosen)


def _values_for(
    comp: dict[str, Any], action: str, normalize: Callable[[str], str]
) -> tuple[str, ...] | None:
    """Select values whose code means ``action`` (None if this select cannot say it).

    A word of the action that is no option value (Panda's ``catfish=7``, which the select
    says as the plain Catfish or "Catfish as the LOWER card") is matched with the option
    that makes the game read the same action."""
    _, verb = _parts(comp)
    options = [o["value"] for o in comp["options"]]
    lo, hi = comp.get("min_values") or 1, comp.get("max_values") or 1
    if not verb and action in options:  # a select whose values are whole codes
        return (action,) if lo <= 1 <= hi else None
    if verb:
        if not action.startswith(verb + " "):
            return None
        words = action[len(verb) + 1 :].split()
    else:
        words = action.split()
    if not lo <= len(words) <= hi or len(set(words)) != len(words):
        return None
    target = normalize(action)
    chosen = [w for w in words if w in options]
    for w in words:
        if w in options:
            continue
        rest = [o for o in options if o not in chosen]
        fit = next(
            (
                o
                for o in rest
                if normalize(select_code(comp, [*(x for x in words if x != w), o])) == target
            ),
            None,
        )
        if fit is None:
            return None
        chosen.append(fit)
    if normalize(select_code(comp, chosen)) != target:
        return None
    return tuple(chosen)


def control_moves(
    comps: list[dict[str, Any]],
    legal: list[str],
    *,
    normalize: Callable[[str], str] | None = None,
    accepts: Callable[[str], bool] | None = None,
    rng: random.Random | None = None,
    samples: int = 60,
) -> list[Move]:
    """Every way the controls let a player make one of the ``legal`` actions.

    ``normalize`` is the game's spelling of codes (``state.normalize(seat, ·)``); codes are
    compared after it, as the bot does. A multi-select from which no listed action can be
    composed (a game may accept codes it does not list, e.g. several cards at once) is
    tried with up to ``samples`` random picks, kept when ``accepts`` (the game's own
    check) takes them."""
    norm = normalize or (lambda code: " ".join(code.split()))
    wanted = {norm(c) for c in legal}
    moves: list[Move] = []
    for comp in comps:
        kind, code = _parts(comp)
        if kind == "a":
            if norm(code) in wanted:
                moves.append(Move(comp, None, code))
            continue
        if kind == "f":
            if any(w.split()[0] == code for w in wanted):
                answer = _form_answer(code, wanted, norm, accepts, rng or random.Random(0))
                moves.append(Move(comp, None, code, answer))
            continue
        found = []
        for action in legal:
            values = _values_for(comp, action, norm)
            if values is not None:
                found.append(Move(comp, values, select_code(comp, values)))
        if not found and accepts is not None and rng is not None:
            options = [o["value"] for o in comp["options"]]
            lo, hi = comp.get("min_values") or 1, comp.get("max_values") or 1
            for _ in range(samples):
                values = tuple(rng.sample(options, rng.randint(lo, min(hi, len(options)))))
                if accepts(select_code(comp, values)):
                    found.append(Move(comp, values, select_code(comp, values)))
        moves += found
    return moves


def state_checks(state: Any, seat: int) -> tuple[Callable[[str], str], Callable[[str], bool]]:
    """(normalize, accepts) for ``seat`` from a game state: what the bot itself applies."""

    def normalize(code: str) -> str:
        return state.normalize(seat, code)

    def accepts(code: str) -> bool:
        try:
            state.check(seat, state.normalize(seat, code))
        except IllegalAction:
            return False
        return True

    return normalize, accepts


async def click_move(
    fake: FakeDiscord, user_id: int, message: FakeMessage, move: Move, *, locale: str = "en-US"
):
    """Make ``move`` as ``user_id`` (whose Discord speaks ``locale``). A form is opened,
    answered and sent: the interaction returned is the sending's."""
    if move.answer is not None:
        opened = await fake.click(user_id, message, move.component["custom_id"], locale=locale)
        await opened.wait_response()
        if opened.modal is None:  # refused (out of date, say): that answer is the outcome
            return opened
        return await fake.submit_modal(user_id, opened, move.answer(opened.modal), locale=locale)
    if move.values is None:
        return await fake.click(user_id, message, move.component["custom_id"], locale=locale)
    return await fake.select(
        user_id, message, move.component["custom_id"], list(move.values), locale=locale
    )


async def click_legal_action(
    fake: FakeDiscord,
    user_id: int,
    message: FakeMessage,
    comps: list[dict[str, Any]],
    legal: list[str],
    rng: random.Random,
    *,
    state: Any = None,
    seat: int | None = None,
    locale: str = "en-US",
):
    """Click a component that sends one of the ``legal`` codes (like a player who knows the
    rules), chosen at random among everything the controls can send. With ``state`` and
    ``seat``, codes are compared as the game spells them (and checked as the bot will).
    ``locale``: the player's Discord language (the interaction's)."""
    normalize = accepts = None
    if state is not None and seat is not None:
        normalize, accepts = state_checks(state, seat)
    moves = control_moves(comps, legal, normalize=normalize, accepts=accepts, rng=rng)
    if not moves:
        raise AssertionError(
            f"no component sends any of {legal[:10]}... in "
            f"{[(c['custom_id'], [o['value'] for o in c.get('options') or []]) for c in comps]}"
        )
    return await click_move(fake, user_id, message, rng.choice(moves), locale=locale)


async def start_table(
    fake: FakeDiscord,
    bot: Any,
    channel: int,
    host: int,
    options: dict | None = None,
    *,
    guest: int | None = None,
    game: str = "koikoi",
):
    """``host`` opens a table (with ``guest``, else an AI) and starts it: the Table."""
    inter = await fake.slash(host, channel, f"{game} new", options or {})
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    if guest is not None:
        await (await fake.click(guest, lobby, label="Join")).wait_response()
    else:
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    await (await fake.click(host, lobby, label="Start")).wait_response()
    return await eventually(lambda: bot.host.tables.get(table_id))


async def play_next_decision(
    fake: FakeDiscord, table: Any, users: list[int], rng: random.Random
) -> int:
    """Once the bot has settled, the person who decides next (:func:`next_decision`)
    clicks one of their legal moves from their DM controls; returns, once the move is
    stored, who played."""
    user, (message, comps) = await eventually(lambda: next_decision(fake, table, users))
    seat = table.seat_of(user).seat
    version = table.state.version
    inter = await click_legal_action(
        fake,
        user,
        message,
        comps,
        table.state.legal_actions(seat),
        rng,
        state=table.state,
        seat=seat,
    )
    await inter.wait_response()
    await eventually(lambda: answered(table, seat, version))
    return user


async def play_to_end(
    fake: FakeDiscord,
    running: Any,
    table_id: int,
    people: dict[int, str],
    *,
    timeout: float = 30.0,
    after_click: Callable[[Any], None] | None = None,
) -> tuple[Any, int]:
    """Play a table to its end by DM clicks: whenever the bot has settled (AIs moved, DMs
    sent), the lowest human seat that must decide clicks one of its legal moves from its
    newest controls — the same seed always plays the same match. ``people``: user id → the
    Discord locale of their clicks. ``after_click`` sees each acknowledged click. Returns
    (the table, clicks)."""
    bot = running.bot
    table = await eventually(lambda: bot.host.tables.get(table_id))
    users = list(people)
    clicks = 0
    while not table.finished:
        assert clicks < 3000, "the match did not end"
        found = await eventually(
            lambda: table.finished or next_decision(fake, table, users), timeout=timeout
        )
        if found is True:
            break
        user, (message, comps) = found
        seat = table.seat_of(user).seat
        version = table.state.version
        # Like most people, these players don't call Panda on a whim (random calls can keep a
        # match from ever reaching its target).
        legal = [c for c in table.state.legal_actions(seat) if c != "call"]
        inter = await click_legal_action(
            fake,
            user,
            message,
            comps,
            legal,
            decision_rng(table, seat),
            state=table.state,
            seat=seat,
            locale=people[user],
        )
        await inter.wait_response()
        await eventually(lambda t=table, v=version, s=seat: answered(t, s, v))
        if after_click is not None:
            after_click(inter)
        await eventually(lambda t=table: not t.lock.locked())
        clicks += 1
    return table, clicks
