"""Running the real Teahouse bot against the fake Discord, and playing as simulated users."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from typing import Any

from bot.app import Teahouse
from bot.config import Settings
from tests.e2e.fakediscord import (
    FakeDiscord,
    FakeMessage,
    find_components,
    start_client,
    stop_client,
)

ACTION_ID = re.compile(r"^th:(a|s):(\d+):(\d+):(\d+):")


def settings_for(db_path: str, **overrides: Any) -> Settings:
    base = Settings(
        token="fake-token",
        database=db_path,
        turn_seconds=600.0,
        ai_delay=0.0,
        edit_interval=0.0,
        timeouts_before_ai=2,
        seed_base="e2e",
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


def component_moves(
    comps: list[dict[str, Any]],
) -> list[tuple[dict[str, Any], str, list[str] | None]]:
    """What each component can send: (component, action code, select values or None)."""
    moves: list[tuple[dict[str, Any], str, list[str] | None]] = []
    for comp in comps:
        kind, *_rest = ACTION_ID.match(comp["custom_id"]).groups()
        tail = comp["custom_id"].split(":", 5)[5]
        if kind == "a":
            moves.append((comp, tail, None))
        else:
            moves.append((comp, tail, []))  # a select: the verb; values are chosen later
    return moves


async def click_legal_action(
    fake: FakeDiscord,
    user_id: int,
    message: FakeMessage,
    comps: list[dict[str, Any]],
    legal: list[str],
    rng: random.Random,
):
    """Click a component that sends one of the ``legal`` codes (like a player who knows the
    rules): a button carrying the code, or select values that compose it."""
    candidates: list[tuple[dict[str, Any], list[str] | None]] = []
    legal_set = set(legal)
    for comp, code, values in component_moves(comps):
        if values is None:
            if code in legal_set:
                candidates.append((comp, None))
            continue
        verb = code
        options = [o["value"] for o in comp["options"]]
        lo, hi = comp.get("min_values") or 1, comp.get("max_values") or 1
        for action in legal:
            if verb:
                if not action.startswith(verb + " "):
                    continue
                words = action[len(verb) + 1 :].split()
            else:
                words = action.split()
            if lo <= len(words) <= hi and all(w in options for w in words):
                # The host sends the values in option order; the game's normalize() sorts.
                candidates.append((comp, words))
            elif not verb and action in options and lo <= 1 <= hi:
                candidates.append((comp, [action]))
    if not candidates:
        raise AssertionError(
            f"no component sends any of {legal[:10]}... in {[c['custom_id'] for c in comps]}"
        )
    comp, values = rng.choice(candidates)
    if values is None:
        return await fake.click(user_id, message, comp["custom_id"])
    return await fake.select(user_id, message, comp["custom_id"], values)
