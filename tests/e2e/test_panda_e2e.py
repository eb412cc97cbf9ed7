"""Panda over the fake Discord: Ambushes laid out of turn from the players' DMs."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest

import bot.games.panda as panda
from bot.engine import replay_from
from bot.games.panda.stacking import fill
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.teahouse import (
    RunningBot,
    action_components,
    click_legal_action,
    current_controls,
    eventually,
    form_fields,
    latest_controls,
    settings_for,
    settled,
)

pytestmark = pytest.mark.asyncio

SEVENS = ("7t", "7g", "7r", "7a")
NINES = ("9t", "9g", "9r", "9a")


def stack_first_deal(monkeypatch: pytest.MonkeyPatch, partial_hands: list[list[str]]) -> None:
    """Deal every new Panda table's first hand from a stacked deck built from these cards."""
    deck = [c for hand in fill(partial_hands) for c in hand]

    def replay(seed, players, options, log, deck_=None):
        return replay_from(panda.new_game, seed, players, options, log, deck=deck)

    # The host reaches a game through its spec.
    monkeypatch.setattr(panda, "SPEC", dataclasses.replace(panda.SPEC, replay=replay))


def _code(component: dict) -> str:
    return component["custom_id"].split(":", 5)[5]


def _ambush_of(cards: tuple[str, ...]):
    return lambda code: code.startswith("play ") and all(c in code.split() for c in cards)


async def _open_table(fake: FakeDiscord, channel: int, host: int, guests: list[int], ais: int):
    inter = await fake.slash(host, channel, "panda new")
    await inter.wait_response()
    lobby = fake.message(inter.original_id)
    table_id = int(lobby.embeds[0]["title"].split("#")[1])
    for guest in guests:
        await (await fake.click(guest, lobby, label="Join")).wait_response()
    for _ in range(ais):
        await (await fake.click(host, lobby, label="Add AI")).wait_response()
    return table_id, lobby


async def _play_until(fake: FakeDiscord, table, keep: dict[int, tuple[str, ...]], ready, rng):
    """Humans answer their own decisions (keeping the cards in ``keep``) until ``ready()``.

    Each step waits until the bot has settled (the AIs have moved), so the moment comes at
    the same point of the same deal every run."""
    for _ in range(80):
        await eventually(lambda: settled(table) and _dms_caught_up(fake, table))
        if found := ready():
            return found
        seat = min(
            (s for s in table.seats if s.seat in table.state.to_act and not s.is_ai),
            key=lambda s: s.seat,
            default=None,
        )
        assert seat is not None, "the bot settled with nobody to act"
        message, comps = await eventually(lambda u=seat.user_id: current_controls(fake, table, u))
        kept = keep.get(seat.seat, ())
        everything = [c for c in table.state.legal_actions(seat.seat) if c != "call"]
        legal = [c for c in everything if not any(x in c.split() for x in kept)] or everything
        version = table.state.version
        click = await click_legal_action(
            fake, seat.user_id, message, comps, legal, rng, state=table.state, seat=seat.seat
        )
        await click.wait_response()
        await eventually(lambda v=version: table.state.version > v)
    raise AssertionError("the moment never came")


def _dms_caught_up(fake: FakeDiscord, table) -> bool:
    """Every person with something to do now (a decision, or an Ambush they may lay) has
    its controls in their newest DM: the moment is judged on the DMs as they will stay, not
    on one still on its way (a DM arriving after the check made another person move
    first, and the moment came at another point of the deal)."""
    for s in table.seats:
        if s.is_ai or s.user_id is None or not table.state.legal_actions(s.seat):
            continue
        found = latest_controls(fake, s.user_id)
        prompt = table.prompts.get(s.seat)
        if found is None or prompt is None:
            return False
        if any(int(c["custom_id"].split(":")[4]) != prompt.version for c in found[1]):
            return False
    return True


def _ambush_button(fake: FakeDiscord, table, user: int, seat: int, is_ambush):
    """The Ambush button in the user's current DM while the seat may only act out of turn."""
    if seat in table.state.to_act or seat not in table.state.may_act:
        return None
    found = latest_controls(fake, user)
    prompt = table.prompts.get(seat)
    if not found or prompt is None:
        return None
    message, comps = found
    if any(int(c["custom_id"].split(":")[4]) != prompt.version for c in comps):
        return None  # the DM for the current state is still on its way
    button = next((c for c in comps if c["type"] == 2 and is_ambush(_code(c))), None)
    return (message, button) if button else None


async def test_an_ambush_out_of_turn_from_the_dm(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int, monkeypatch
) -> None:
    # Bob (seat 1) holds four 7s; an AI (seat 2) holds the Stork and leads the first trick.
    stack_first_deal(monkeypatch, [[], list(SEVENS), ["stork"], []])
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "panda.db"), simultaneous_window=0.05))
    bot = await running.start()
    try:
        table_id, lobby = await _open_table(fake, games_channel, alice, [bob], ais=2)
        # Partners sit opposite: the lobby says who plays with whom.
        seats = lobby.embeds[0]["description"].splitlines()
        assert "team A" in seats[0] and "team B" in seats[1] and "team A" in seats[2]
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        sevens = _ambush_of(SEVENS)
        message, button = await _play_until(
            fake,
            table,
            {1: SEVENS},
            lambda: _ambush_button(fake, table, bob, 1, sevens),
            random.Random(1),
        )
        assert 1 not in table.state.to_act and 1 in table.state.may_act
        before = len(table.state.log)
        ambush = await fake.click(bob, message, button["custom_id"])
        await ambush.wait_response()
        await eventually(lambda: len(table.state.log) > before)
        seat, code = table.state.log[before]
        assert seat == 1 and sevens(code)
        assert (await bot.store.actions(table_id))[before] == (1, code)
        # The Ambush is on the table now; Bob's DM no longer offers it.
        await eventually(
            lambda: not any(sevens(_code(c)) for c in action_components(fake.message(message.id)))
        )
    finally:
        await running.stop()


async def test_simultaneous_ambushes_go_by_turn_order_after_the_last_player(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int, bob: int, monkeypatch
) -> None:
    # Alice (seat 0) holds four 7s, Bob (seat 1) four 9s; the AI at seat 2 leads. Rule 11:
    # after seat 2 played, priority runs 3, 0, 1 — Alice's (lower) Ambush comes first, then
    # Bob's higher one still beats it.
    stack_first_deal(monkeypatch, [list(SEVENS), list(NINES), ["stork"], []])
    fake = fake_discord
    carol = fake.add_user("Carol")
    # Seat 3 is a person too, who takes her time once the Stork is out: both Ambushes are
    # laid while she thinks, however loaded the machine (no race with an AI's move).
    running = RunningBot(fake, settings_for(str(tmp_path / "panda2.db"), simultaneous_window=1.0))
    bot = await running.start()
    try:
        table_id, lobby = await _open_table(fake, games_channel, alice, [bob], ais=1)
        await (await fake.click(carol, lobby, label="Join")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        assert table.seats[2].is_ai and table.seats[3].user_id == carol
        sevens, nines = _ambush_of(SEVENS), _ambush_of(NINES)

        def both_ready():
            a = _ambush_button(fake, table, alice, 0, sevens)
            b = _ambush_button(fake, table, bob, 1, nines)
            return (a, b) if a and b else None

        (am, ab), (bm, bb) = await _play_until(
            fake, table, {0: SEVENS, 1: NINES}, both_ready, random.Random(2)
        )
        before = len(table.state.log)
        # Bob clicks first, Alice a moment later: both arrive within the window.
        bob_click = await fake.click(bob, bm, bb["custom_id"])
        alice_click = await fake.click(alice, am, ab["custom_id"])
        await asyncio.gather(bob_click.wait_response(), alice_click.wait_response())
        await eventually(lambda: len(table.state.log) >= before + 2 and not table.lock.locked())
        made = table.state.log[before : before + 2]
        assert made[0][0] == 0 and sevens(made[0][1])  # Alice first, by priority
        assert made[1][0] == 1 and nines(made[1][1])  # then Bob's higher Ambush on top of it
    finally:
        await running.stop()


async def test_three_cards_are_passed_in_one_form(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """Passing takes two interactions (open the form, send it; it was three menus, each a
    move that could not be taken back): the three picks go as one action and can be
    changed until sent. A form that gives one card twice is refused with the reason and
    changes nothing."""
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "pass.db")))
    bot = await running.start()
    try:
        table_id, lobby = await _open_table(fake, games_channel, alice, [], ais=3)
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        message, comps = await eventually(lambda: current_controls(fake, table, alice))
        (opener,) = [c for c in comps if c["custom_id"].startswith("th:f:")]
        assert opener["label"] == "Choose the cards to pass"
        assert not [c for c in comps if c["type"] == 3]  # no menus in the DM itself
        hand = list(table.state.view(0)["hand"])
        before = len(table.state.log)

        # 1. Open the form: a menu of her hand for each other player, named.
        opened = await fake.click(alice, message, opener["custom_id"])
        await opened.wait_response()
        fields = form_fields(opened.modal)
        assert [key for key, _ in fields] == ["left", "partner", "right"]
        assert all(values == hand for _, values in fields)
        labels = [c["label"] for c in opened.modal["components"]]
        names = [table.seats[s].name for s in (1, 2, 3)]
        assert labels == [f"Card for {name}" for name in names]
        assert len(opened.modal["title"]) <= 45 and all(len(x) <= 45 for x in labels)

        # The same card twice: refused, with the reason; nothing given.
        twice = await fake.submit_modal(
            alice, opened, {"left": [hand[0]], "partner": [hand[0]], "right": [hand[1]]}
        )
        await twice.wait_response()
        refusal = await eventually(lambda: [f for f in twice.followups if f.ephemeral])
        assert refusal[0].content.startswith("⚠️")
        assert table.state.given[0] == {} and len(table.state.log) == before

        # 2. Send it (the form stays open after a refusal in Discord: picks changed, sent).
        sent = await fake.submit_modal(
            alice, opened, {"left": [hand[2]], "partner": [hand[3]], "right": [hand[4]]}
        )
        await sent.wait_response()
        await eventually(lambda: len(table.state.log) > before)
        assert table.state.log[before] == (
            0,
            f"give left {hand[2]} partner {hand[3]} right {hand[4]}",
        )
        assert (await bot.store.actions(table_id))[before] == table.state.log[before]
        # Her DM no longer offers the form.
        await eventually(
            lambda: (
                not any(
                    c["custom_id"].startswith("th:f:")
                    for c in action_components(fake.message(message.id))
                )
            )
        )
    finally:
        await running.stop()


async def test_the_pass_form_works_from_show_my_hand(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> None:
    """A player who plays from the private hand (closed DMs) passes with the same form: it
    opens from the ephemeral message, and once sent that message shows the cards chosen."""
    fake = fake_discord
    running = RunningBot(fake, settings_for(str(tmp_path / "pass2.db")))
    bot = await running.start()
    try:
        table_id, lobby = await _open_table(fake, games_channel, alice, [], ais=3)
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        table = await eventually(lambda: bot.host.tables.get(table_id))
        await eventually(lambda: current_controls(fake, table, alice))
        shown = await fake.click(alice, fake.message(table.table_message_id), label="Show my hand")
        await shown.wait_response()
        private = (await eventually(lambda: shown.followups))[0]
        (opener,) = [c for c in action_components(private) if c["custom_id"].startswith("th:f:")]
        opened = await fake.click(alice, private, opener["custom_id"])
        await opened.wait_response()
        hand = list(table.state.view(0)["hand"])
        before = len(table.state.log)
        sent = await fake.submit_modal(
            alice, opened, {"left": [hand[0]], "partner": [hand[1]], "right": [hand[2]]}
        )
        await sent.wait_response()
        await eventually(lambda: len(table.state.log) > before)
        assert table.state.log[before] == (
            0,
            f"give left {hand[0]} partner {hand[1]} right {hand[2]}",
        )
        # The private hand no longer offers the form.
        await eventually(
            lambda: (
                not any(
                    c["custom_id"].startswith("th:f:")
                    for c in action_components(fake.message(private.id))
                )
            )
        )
    finally:
        await running.stop()
