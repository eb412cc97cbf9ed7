"""The fake Discord refuses what Discord refuses (tests/e2e/discord_schema.py).

Each rule is checked with a real bot payload — the command upload, the lobby, a DM with its
controls, the table message, a thread, captured from the bot against the fake, or a select
built by the bot's own view code — altered to break exactly that rule: the fake answers
400 / 50035 "Invalid Form Body" naming the field in Discord's nested ``errors``, and the
unaltered payload passes."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from bot.engine.ui import Controls, Option, Select
from bot.host.components import controls_view
from tests.e2e import discord_schema
from tests.e2e.discord_schema import Problem, check_request, error_fields, errors_object
from tests.e2e.fakediscord import (
    APPLICATION_COMMAND,
    FakeDiscord,
    FakeInteraction,
    find_components,
)
from tests.e2e.teahouse import RunningBot, settings_for

Body = Any


# ---------------------------------------------------------------------- real payloads


@dataclasses.dataclass
class Captured:
    """What the bot sent while opening and starting a Koi-Koi table, by "METHOD template"."""

    bodies: dict[str, list[Body]]
    dm_channel: int
    lobby_token: str
    table_channel: int
    table_message: int

    def first(self, route: str, where: Callable[[Body], bool] = lambda b: True) -> Body:
        return copy.deepcopy(next(b for b in self.bodies[route] if where(b)))


def _has_actions(body: Body) -> bool:
    return any((c.get("custom_id") or "").startswith("th:a:") for c in find_components(body or {}))


def _is_table_message(body: Body) -> bool:
    return any((c.get("custom_id") or "").startswith("th:h:") for c in find_components(body or {}))


@pytest.fixture
async def captured(
    fake_discord: FakeDiscord, tmp_path, games_channel: int, alice: int
) -> AsyncIterator[Captured]:
    fake = fake_discord
    bodies: dict[str, list[Body]] = {}
    check = fake._check_request

    def capture(method: str, template: str, payload: Any) -> None:
        check(method, template, payload)  # the bot's own requests must pass, unaltered
        if payload is not None:
            bodies.setdefault(f"{method} {template}", []).append(copy.deepcopy(payload))

    fake._check_request = capture  # type: ignore[method-assign]
    running = RunningBot(fake, settings_for(str(tmp_path / "schema.db")))
    await running.start()
    try:
        slash = await fake.slash(alice, games_channel, "koikoi new")
        await slash.wait_response()
        lobby = fake.message(slash.original_id)
        await (await fake.click(alice, lobby, label="Add AI")).wait_response()
        await (await fake.click(alice, lobby, label="Start")).wait_response()
        dm = await fake.wait_until(
            lambda: next((m for m in fake.dms(alice) if find_components(m)), None),
            timeout=60,
            what="Alice's DM with her controls",
        )
        thread = fake.threads_of(games_channel)[0]
        table_message = await fake.wait_until(
            lambda: next((m for m in fake.messages_in(thread) if find_components(m)), None),
            timeout=60,
            what="the table message",
        )
    finally:
        await running.stop()
    fake._check_request = check  # type: ignore[method-assign]
    yield Captured(bodies, dm.channel_id, slash.token, thread, table_message.id)


async def _send(fake: FakeDiscord, method: str, path: str, body: Body) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http:
        async with http.request(
            method, fake.api_base + path, json=body, headers={"Authorization": "Bot test"}
        ) as response:
            return response.status, await response.json() if response.status != 204 else None


def _fresh_interaction(fake: FakeDiscord, user: int, channel_id: int) -> FakeInteraction:
    """A slash command interaction the fake knows (not dispatched: the test answers it)."""
    channel = fake.channel(channel_id)
    data = {"id": "1", "name": "koikoi", "type": 1, "options": []}
    iid, token, payload = fake._base_interaction(APPLICATION_COMMAND, user, channel, data, "en-US")
    inter = FakeInteraction(
        id=iid,
        token=token,
        type=APPLICATION_COMMAND,
        user_id=user,
        channel_id=channel_id,
        payload=payload,
        command_name="koikoi new",
    )
    inter._fake = fake
    fake._interactions[iid] = inter
    fake._by_token[token] = inter
    return inter


def _select_components(options: int = 7, max_values: int = 2) -> list[dict[str, Any]]:
    """The components of a DM whose controls are a select, by the bot's own view code."""
    spec = Select(
        verb="pass",
        placeholder="Choose cards to pass",
        options=tuple(Option(f"Card {n}", f"c{n}") for n in range(options)),
        max_values=max_values,
    )
    view = controls_view(1, 0, 3, Controls("Pass two cards.", (spec,)))
    return view.to_components()


# ---------------------------------------------------------------------- alterations


def _command(body: Body, name: str) -> dict[str, Any]:
    return next(c for c in body if c["name"] == name)


def _index(body: Body, name: str) -> int:
    return next(n for n, c in enumerate(body) if c["name"] == name)


@dataclasses.dataclass
class Case:
    rule: str
    route: str  # of the captured payload
    alter: Callable[[Body], Any]
    field: Callable[[Body], str]  # the field Discord names, given the unaltered body


def _set(path: list[Any], value: Any) -> Callable[[Body], None]:
    def alter(body: Body) -> None:
        node = body
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return alter


def _replay_option(option: str, key: str, value: Any) -> Callable[[Body], None]:
    def alter(body: Body) -> None:
        opt = next(o for o in _command(body, "replay")["options"] if o["name"] == option)
        opt[key] = value

    return alter


def _replay_field(option: str, key: str) -> Callable[[Body], str]:
    def field(body: Body) -> str:
        options = _command(body, "replay")["options"]
        n = next(i for i, o in enumerate(options) if o["name"] == option)
        return f"{_index(body, 'replay')}.options.{n}.{key}"

    return field


def _required_last(body: Body) -> None:
    options = _command(body, "replay")["options"]
    options.append(options.pop(0))  # table (required) after hand and public (optional)


def _more_choices(body: Body) -> None:
    game = _command(body, "rules")["options"][0]
    game["choices"] = [{"name": f"Game {n}", "value": f"g{n}"} for n in range(26)]


def _duplicate_command(body: Body) -> None:
    body.append(copy.deepcopy(_command(body, "rules")))


def _first_button(body: Body) -> dict[str, Any]:
    return body["components"][0]["components"][0]


def _duplicate_custom_id(body: Body) -> None:
    row = body["components"][0]["components"]
    assert len(row) >= 2, row
    row[1]["custom_id"] = row[0]["custom_id"]


def _six_rows(body: Body) -> None:
    row = body["components"][0]
    while len(body["components"]) < 6:
        extra = copy.deepcopy(row)
        for n, button in enumerate(extra["components"]):
            button["custom_id"] = f"th:a:1:0:0:extra{len(body['components'])}-{n}"
        body["components"].append(extra)


def _six_buttons(body: Body) -> None:
    row = body["components"][0]["components"]
    while len(row) < 6:
        button = copy.deepcopy(row[0])
        button["custom_id"] = f"th:a:1:0:0:more{len(row)}"
        row.append(button)


def _with_select(body: Body) -> None:
    body["components"] = _select_components()


def _select_and_button(body: Body) -> None:
    _with_select(body)
    body["components"][0]["components"].append(
        {"type": 2, "style": 2, "label": "Hint", "custom_id": "th:i:1:0:3"}
    )


def _many_options(body: Body) -> None:
    body["components"] = _select_components(options=26)


def _max_values_above_options(body: Body) -> None:
    body["components"] = _select_components(options=2, max_values=3)


def _big_embed(body: Body) -> None:
    embed = body["embeds"][0]
    embed["description"] = "x" * 4096
    embed["footer"] = {"text": "y" * 2048}  # each within its own limit: 6,144 together


FIRST_BUTTON = "components.0.components.0"
COMMANDS = "PUT /applications/{app}/commands"
DM = "POST /channels/{cid}/messages"
LOBBY_EDIT = "PATCH /webhooks/{app}/{token}/messages/{mid}"
CALLBACK = "POST /interactions/{iid}/{token}/callback"
THREAD = "POST /channels/{cid}/messages/{mid}/threads"
TABLE_EDIT = "PATCH /channels/{cid}/messages/{mid}"

CASES = [
    # The /replay bound that made Discord refuse the whole command upload (2^53 > 2^53 - 1).
    Case(
        "integer bound within ±(2^53-1)",
        COMMANDS,
        _replay_option("table", "max_value", 2**53),
        _replay_field("table", "max_value"),
    ),
    Case(
        "min_value <= max_value",
        COMMANDS,
        _replay_option("hand", "min_value", 20000),
        _replay_field("hand", "max_value"),
    ),
    Case(
        "command name lowercase",
        COMMANDS,
        lambda b: _command(b, "replay").update(name="Replay"),
        lambda b: f"{_index(b, 'replay')}.name",
    ),
    Case(
        "command name ^[-_\\p{L}\\p{N}]{1,32}$",
        COMMANDS,
        lambda b: _command(b, "replay").update(name="re play"),
        lambda b: f"{_index(b, 'replay')}.name",
    ),
    Case(
        "option name lowercase",
        COMMANDS,
        _replay_option("table", "name", "Table"),
        _replay_field("table", "name"),
    ),
    Case(
        "localized option name valid",
        COMMANDS,
        _replay_option("table", "name_localizations", {"ja": "卓 番号"}),
        lambda b: _replay_field("table", "name_localizations")(b) + ".ja",
    ),
    Case(
        "command description 1-100",
        COMMANDS,
        lambda b: _command(b, "replay").update(description=""),
        lambda b: f"{_index(b, 'replay')}.description",
    ),
    Case(
        "option description 1-100",
        COMMANDS,
        _replay_option("hand", "description", "d" * 101),
        _replay_field("hand", "description"),
    ),
    Case(
        "required options first",
        COMMANDS,
        _required_last,
        lambda b: f"{_index(b, 'replay')}.options.2.required",
    ),
    Case(
        "choices <= 25",
        COMMANDS,
        _more_choices,
        lambda b: f"{_index(b, 'rules')}.options.0.choices",
    ),
    Case(
        "string choice value <= 100",
        COMMANDS,
        lambda b: _command(b, "rules")["options"][0]["choices"][0].update(value="v" * 101),
        lambda b: f"{_index(b, 'rules')}.options.0.choices.0.value",
    ),
    Case(
        "command names unique",
        COMMANDS,
        _duplicate_command,
        lambda b: f"{len(b)}.name",
    ),
    Case("content <= 2000", DM, _set(["content"], "x" * 2001), lambda b: "content"),
    Case(
        "custom_ids unique",
        DM,
        _duplicate_custom_id,
        lambda b: "components.0.components.1.custom_id",
    ),
    Case(
        "custom_id 1-100",
        DM,
        lambda b: _first_button(b).update(custom_id="th:a:" + "9" * 96),
        lambda b: f"{FIRST_BUTTON}.custom_id",
    ),
    Case(
        "label <= 80",
        DM,
        lambda b: _first_button(b).update(label="L" * 81),
        lambda b: f"{FIRST_BUTTON}.label",
    ),
    Case("at most 5 action rows", DM, _six_rows, lambda b: "components"),
    Case("a row holds <= 5 buttons", DM, _six_buttons, lambda b: "components.0.components"),
    Case(
        "a select is alone in its row",
        DM,
        _select_and_button,
        lambda b: "components.0.components",
    ),
    Case(
        "<= 25 select options",
        DM,
        _many_options,
        lambda b: f"{FIRST_BUTTON}.options",
    ),
    Case(
        "max_values <= options",
        DM,
        _max_values_above_options,
        lambda b: f"{FIRST_BUTTON}.max_values",
    ),
    Case(
        "button label or emoji",
        TABLE_EDIT,
        lambda b: _first_button(b).update(label=None, emoji=None),
        lambda b: f"{FIRST_BUTTON}.label",
    ),
    Case("embeds <= 6000 characters", LOBBY_EDIT, _big_embed, lambda b: "embeds"),
    Case(
        "callback content <= 2000",
        CALLBACK,
        _set(["data", "content"], "x" * 2001),
        lambda b: "data.content",
    ),
    Case(
        "callback custom_ids unique",
        CALLBACK,
        lambda b: b["data"]["components"][0]["components"][1].update(
            custom_id=b["data"]["components"][0]["components"][0]["custom_id"]
        ),
        lambda b: "data.components.0.components.1.custom_id",
    ),
    Case("thread name <= 100 (spec)", THREAD, _set(["name"], "n" * 101), lambda b: "name"),
]


def _base(captured: Captured, case: Case) -> Body:
    if case.route == DM:
        body = captured.first(DM, _has_actions)
        body.pop("attachments", None)  # (its uploaded files are not sent again)
        return body
    if case.route == TABLE_EDIT:
        # The table message as the bot posted it, sent again as an edit.
        body = captured.first(DM, _is_table_message)
        body.pop("attachments", None)
        return body
    if case.route == LOBBY_EDIT:
        return captured.first(LOBBY_EDIT, lambda b: bool(b.get("embeds")))
    if case.route == CALLBACK:
        return captured.first(CALLBACK, lambda b: b["type"] == 4)
    return captured.first(case.route)


async def _request(fake: FakeDiscord, captured: Captured, case: Case, body: Body):
    """Send ``body`` where the captured payload went (a fresh interaction for callbacks)."""
    app = fake.application_id
    if case.route == COMMANDS:
        return await _send(fake, "PUT", f"/applications/{app}/commands", body)
    if case.route == DM:
        return await _send(fake, "POST", f"/channels/{captured.dm_channel}/messages", body)
    if case.route == TABLE_EDIT:
        path = f"/channels/{captured.table_channel}/messages/{captured.table_message}"
        return await _send(fake, "PATCH", path, body)
    if case.route == LOBBY_EDIT:
        path = f"/webhooks/{app}/{captured.lobby_token}/messages/@original"
        return await _send(fake, "PATCH", path, body)
    if case.route == CALLBACK:
        channel = fake.channel_named("games")
        inter = _fresh_interaction(fake, fake.user_named("Alice"), channel)
        return await _send(fake, "POST", f"/interactions/{inter.id}/{inter.token}/callback", body)
    if case.route == THREAD:
        # A new message to start it from (a message holds one thread).
        channel = fake.channel_named("games")
        status, message = await _send(
            fake, "POST", f"/channels/{channel}/messages", {"content": "a table"}
        )
        assert status == 200, message
        return await _send(
            fake, "POST", f"/channels/{channel}/messages/{message['id']}/threads", body
        )
    raise AssertionError(case.route)


@pytest.mark.no_rate_limits  # dozens of requests to one channel in a moment: not the point
async def test_each_rule_refuses_a_real_payload_altered_to_break_it(
    fake_discord: FakeDiscord, captured: Captured
) -> None:
    fake = fake_discord
    failures = []
    for case in CASES:
        body = _base(captured, case)
        if case.alter in (_many_options, _max_values_above_options, _select_and_button):
            # The unaltered payload: the DM with the bot's own select instead of buttons.
            _with_select(body)
        status, answer = await _request(fake, captured, case, copy.deepcopy(body))
        if status not in (200, 201, 204):
            failures.append(f"{case.rule}: the unaltered payload was refused: {status} {answer}")
            continue
        field = case.field(body)
        altered = copy.deepcopy(body)
        case.alter(altered)
        violations = len(fake.spec_violations)
        status, answer = await _request(fake, captured, case, altered)
        named = error_fields((answer or {}).get("errors") or {})
        if (status, (answer or {}).get("code")) != (400, 50035) or field not in named:
            failures.append(
                f"{case.rule}: expected 400/50035 naming {field}, got {status} {answer}"
            )
        elif len(fake.spec_violations) != violations + 1:
            failures.append(f"{case.rule}: not recorded in fake.spec_violations")
    assert not failures, "\n".join(failures)
    # Every refusal was one of ours: none is left for the teardown's check.
    assert {r.code for r in fake.refusals} == {50035}
    assert len(fake.spec_violations) == len(CASES)
    fake.spec_violations.clear()
    fake.refusals.clear()


# ---------------------------------------------------------------------- the validator itself


def test_every_route_the_fake_serves_maps_to_one_spec_operation() -> None:
    fake = FakeDiscord()
    for method, template, _, _ in fake._routes:
        assert discord_schema.spec_operation(method, template), f"{method} {template}"
    # Every route with documented rules is one the fake serves.
    served = {
        (method, discord_schema.spec_operation(method, template))
        for method, template, _, _ in fake._routes
    }
    assert set(discord_schema.RULES) <= served


def test_errors_are_nested_as_discord_nests_them() -> None:
    problems = [
        Problem(("components", 0, "components", 1, "label"), "BASE_TYPE_MAX_LENGTH", "long"),
        Problem(("content",), "BASE_TYPE_MAX_LENGTH", "long"),
        Problem((), "X", "whole body"),
    ]
    assert errors_object(problems) == {
        "components": {
            "0": {
                "components": {
                    "1": {
                        "label": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "long"}]}
                    }
                }
            }
        },
        "content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "long"}]},
        "_errors": [{"code": "X", "message": "whole body"}],
    }
    assert error_fields(errors_object(problems)) == [
        "components.0.components.1.label",
        "content",
        "",
    ]


def test_content_follows_the_docs_where_the_spec_is_wrong() -> None:
    """The spec allows 4,000 characters of message content; Discord's docs say 2,000."""
    route = ("POST", "/channels/{cid}/messages")
    assert not discord_schema.spec_problems(*route, {"content": "x" * 3000})
    assert [p.path for p in check_request(*route, {"content": "x" * 3000})] == [("content",)]
    assert not check_request(*route, {"content": "x" * 2000})


def test_snowflakes_may_be_integers_as_discord_takes_them() -> None:
    """discord.py sends ``recipient_id`` as an integer; the spec types snowflakes as strings
    only, Discord takes both."""
    route = ("POST", "/users/@me/channels")
    assert not check_request(*route, {"recipient_id": 1576188599898996738})
    assert not check_request(*route, {"recipient_id": "1576188599898996738"})
    assert check_request(*route, {"recipient_id": "alice"})


def test_a_component_type_the_union_does_not_know_is_named() -> None:
    """Unions told apart by ``type`` are checked against their own member: an unknown type
    and a field of the member are both named where they are."""
    body = {
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "x"}]},
            {"type": 1, "components": [{"type": 99, "custom_id": "y"}]},
            {"type": 1, "components": [{"type": 2, "style": 9, "label": "b", "custom_id": "z"}]},
        ]
    }
    paths = {p.path for p in check_request("POST", "/channels/{cid}/messages", body)}
    assert ("components", 1, "components", 0, "type") in paths
    assert ("components", 2, "components", 0, "style") in paths


def test_modal_rules() -> None:
    """The bot sends no modal today; the rules are Discord's for when it does."""
    modal = {
        "type": 9,
        "data": {
            "custom_id": "th:m:1",
            "title": "Name your table",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 4, "custom_id": "name", "style": 1, "label": "Table name"}
                    ],
                }
            ],
        },
    }
    route = ("POST", "/interactions/{iid}/{token}/callback")
    assert not check_request(*route, modal)
    long_title = copy.deepcopy(modal)
    long_title["data"]["title"] = "t" * 46
    assert ("data", "title") in {p.path for p in check_request(*route, long_title)}
