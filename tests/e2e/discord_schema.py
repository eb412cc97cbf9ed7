"""Discord's request validation, for the fake Discord: the official OpenAPI spec plus the
documented limits the spec cannot express.

:func:`check_request` takes a request as the fake routes it (method, the fake's path
template such as ``/channels/{cid}/messages``, the JSON body or a multipart request's
``payload_json``) and returns its :class:`Problem` s, empty when Discord would accept it:

1. the body is validated against the request schema of the spec operation the route maps
   to (:func:`spec_operation`), with jsonschema (Draft 2020-12, ``$ref`` resolved with
   ``referencing`` against the spec document); one compiled validator per operation;
2. then the documented rules (:data:`RULES`, by spec route): message content and embeds
   (:func:`message_rules`), components (:func:`component_rules`), modals
   (:func:`modal_rules`), application commands (:func:`command_rules`,
   :func:`command_list_rules`).

:func:`errors_object` turns problems into Discord's nested ``errors`` object of a 400 /
50035 "Invalid Form Body" answer, e.g. ``{"components": {"0": {"components": {"1":
{"label": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}]}}}}}}``.

The spec is vendored in ``discord_api_spec/`` (MIT, see its README). It calls itself a
preview: where it disagrees with Discord's documentation, the documentation wins and the
code says so where it departs.
"""

from __future__ import annotations

import copy
import functools
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import referencing
import referencing.jsonschema

SPEC_PATH = Path(__file__).with_name("discord_api_spec") / "openapi.json"
#: The spec document's URI for ``referencing`` (any absolute URI; nothing is fetched).
SPEC_URI = "https://discord.com/api/v10/openapi.json"

# Discord's documented limits (https://discord.com/developers/docs/...).
CONTENT_MAX = 2000  # the spec's MessageCreateRequest says 4000: the docs say 2000
EMBEDS_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
V2_COMPONENTS_MAX = 40
MODAL_TITLE_MAX = 45
MODAL_ROWS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
COMMAND_NAME_MAX = 32
DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_STRING_MAX = 100  # the spec says 6000 for a string choice's value: the docs say 100
STRING_OPTION_LENGTH_MAX = 6000
INT53_MAX = 2**53 - 1
CHAT_INPUT_COMMANDS_MAX = 100

# Component and option types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 1, 2, 3, 4, 18
SELECT_TYPES = (3, 5, 6, 7, 8)
LINK_STYLE, PREMIUM_STYLE = 5, 6
SUB_COMMAND, SUB_COMMAND_GROUP, STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 1, 2, 3, 4, 10
CHAT_INPUT = 1
COMPONENTS_V2 = 1 << 15
#: Interaction callback types whose ``data`` is a message, and the modal's.
CB_MESSAGE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 7, 8, 9

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One reason Discord refuses a request: where (path into the body), Discord's error
    code and its message."""

    path: Path_
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(map(str, self.path)) or "(body)"
        return f"{where}: {self.code} {self.message}"


# ---------------------------------------------------------------------- the spec


@functools.cache
def spec() -> dict[str, Any]:
    """The vendored spec, with the one fix the documentation requires (see below)."""
    document = orjson.loads(SPEC_PATH.read_bytes())
    schemas = document["components"]["schemas"]
    # The spec types a snowflake as a decimal string only; Discord takes integers as well in
    # request bodies (discord.py sends ``recipient_id``, reference and attachment ids as
    # ints). A snowflake is an unsigned 64-bit integer.
    schemas["SnowflakeType"] = {
        "anyOf": [
            copy.deepcopy(schemas["SnowflakeType"]),
            {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        ]
    }
    _discriminate(document, schemas)
    _inline_refs(document, schemas, set())
    return document


def _inline_refs(node: Any, schemas: Mapping[str, Any], done: set[int]) -> None:
    """Replace each ``{"$ref": "#/components/schemas/X"}`` by schema X itself (the same
    object, so recursive schemas become cyclic, which validation follows only as deep as
    the value goes). Resolving a reference walks the document every time: two thirds of a
    message's validation before."""
    if id(node) in done:
        return
    done.add(id(node))
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, value in list(items):
        if isinstance(value, dict) and len(value) == 1:
            ref = value.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                value = node[key] = schemas[ref.rsplit("/", 1)[1]]
        if isinstance(value, dict | list):
            _inline_refs(value, schemas, done)


def _type_enum(schemas: Mapping[str, Any], branch: Any) -> list[Any] | None:
    """The ``type`` values a union member ``{"$ref": ...}`` requires, if it requires one."""
    ref = branch.get("$ref", "") if isinstance(branch, Mapping) else ""
    if not ref.startswith("#/components/schemas/") or len(branch) != 1:
        return None
    target = schemas[ref.rsplit("/", 1)[1]]
    enum = target.get("properties", {}).get("type", {}).get("enum")
    return list(enum) if enum and "type" in target.get("required", ()) else None


def _discriminate(node: Any, schemas: Mapping[str, Any]) -> None:
    """Rewrite each union (oneOf/anyOf) whose members are told apart by a required ``type``
    enum (components, command options, callbacks) into the keyword ``x-type-union``
    (``{type value: member}``, see :func:`_type_union`). Same verdicts, but a value is
    checked against its own member only instead of all of them (jsonschema tries every
    member of a oneOf: a table message with 20 buttons took 13 ms), and an error names the
    field inside the member instead of "is not valid under any of the given schemas"."""
    if isinstance(node, list):
        for item in node:
            _discriminate(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _discriminate(value, schemas)
    for keyword in ("oneOf", "anyOf"):
        members = node.get(keyword)
        if not isinstance(members, list) or len(members) < 2:
            continue
        if all(isinstance(m, dict) and "const" in m for m in members):
            # An enumeration spelled as one titled const per value (MessageComponentTypes,
            # ButtonStyleTypes, ...): the same as an enum, checked in one step.
            del node[keyword]
            node["enum"] = [m["const"] for m in members]
            continue
        enums = [_type_enum(schemas, m) for m in members]
        if any(e is None for e in enums):
            continue
        flat = [v for e in enums for v in e or ()]
        if len(flat) != len(set(flat)):
            continue
        del node[keyword]
        node["x-type-union"] = {
            str(v): m for e, m in zip(enums, members, strict=True) for v in e or ()
        }


def _type_union(
    validator: Any, members: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    """``x-type-union``: an object whose ``type`` picks the member it must match."""
    if not isinstance(instance, dict):
        yield jsonschema.ValidationError(f"{instance!r} is not of type 'object'")
        return
    kind = instance.get("type")
    member = members.get(str(kind)) if isinstance(kind, int) else None
    if member is None:
        allowed = sorted(int(k) for k in members)
        yield from validator.descend(kind, {"enum": allowed}, path="type")
        return
    yield from validator.descend(instance, member)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, validators={"x-type-union": _type_union}
)


@functools.cache
def _registry() -> referencing.Registry:
    resource = referencing.Resource.from_contents(
        spec(), default_specification=referencing.jsonschema.DRAFT202012
    )
    return referencing.Registry().with_resource(SPEC_URI, resource)


def _shape(template: str) -> tuple[str, ...]:
    """A path template with its parameter names dropped: ``/a/{x}/b`` -> ("a", "{}", "b")."""
    return tuple("{}" if s.startswith("{") else s for s in template.strip("/").split("/"))


@functools.cache
def spec_operation(method: str, template: str) -> str | None:
    """The spec path of the operation serving ``method`` on the fake's ``template`` (its
    parameter names may differ: ``/channels/{cid}`` is ``/channels/{channel_id}``), or
    None if the spec has no such operation."""
    paths = spec()["paths"]
    shape = _shape(template)
    found = [p for p in paths if _shape(p) == shape and method.lower() in paths[p]]
    if len(found) > 1:
        raise ValueError(f"{method} {template} matches several spec paths: {found}")
    return found[0] if found else None


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(method: str, path: str) -> jsonschema.protocols.Validator | None:
    """The compiled validator of the operation's JSON request body (a multipart request
    carries the same JSON in ``payload_json``), cached: the fake serves thousands of
    requests per test."""
    operation = spec()["paths"][path][method.lower()]
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" not in content:
        return None
    ref = (
        SPEC_URI
        + "#"
        + _pointer(
            "paths", path, method.lower(), "requestBody", "content", "application/json", "schema"
        )
    )
    return _Validator({"$ref": ref}, registry=_registry())


#: jsonschema keyword -> Discord's error code.
_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "type": "BASE_TYPE_BAD_TYPE",
}


def _discriminated_out(branch: list[jsonschema.ValidationError]) -> bool:
    """Whether a union branch failed on what tells the union's members apart: its ``type``
    field (a component's, an option's, a callback's) or the whole value's JSON type."""
    for error in branch:
        rel = list(error.relative_path)
        if rel == ["type"] and error.validator in ("enum", "const"):
            return True
        if not rel and error.validator == "type":
            return True
    return False


def _leaf_errors(error: jsonschema.ValidationError) -> Iterator[jsonschema.ValidationError]:
    """The errors that name the field: a union (oneOf/anyOf) that failed is followed into
    the member the value meant to be (the one whose ``type`` matched)."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [b for b in branches.values() if not _discriminated_out(b)]
        if meant:
            # Several members left (e.g. a webhook's create and edit bodies): the closest.
            best = min(meant, key=len)
            for sub in best:
                yield from _leaf_errors(sub)
            return
    yield error


def spec_problems(method: str, template: str, body: Any) -> list[Problem]:
    """The body's violations of the spec operation's request schema."""
    path = spec_operation(method, template)
    if path is None:
        return []
    validator = _validator(method, path)
    if validator is None:
        return []
    problems = []
    for error in validator.iter_errors(body):
        for leaf in _leaf_errors(error):
            code = _CODES.get(str(leaf.validator), "BASE_TYPE_INVALID")
            problems.append(Problem(tuple(leaf.absolute_path), code, _message(leaf)))
    return problems


def _message(error: jsonschema.ValidationError) -> str:
    """Discord's wording for the common failures (jsonschema's quotes the whole value)."""
    limit = error.validator_value
    return {
        "maxLength": f"Must be {limit} or fewer in length.",
        "maxItems": f"Must be {limit} or fewer in length.",
        "minLength": f"Must be {limit} or more in length.",
        "minItems": f"Must be {limit} or more in length.",
        "maximum": f"int value should be less than or equal to {limit}.",
        "minimum": f"int value should be greater than or equal to {limit}.",
        "required": "This field is required",
    }.get(str(error.validator), error.message[:300])


# ---------------------------------------------------------------------- documented rules


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _too_long(path: Path_, text: str, limit: int) -> Iterator[Problem]:
    if len(text) > limit:
        yield Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _length_between(path: Path_, text: str, low: int, high: int) -> Iterator[Problem]:
    if not low <= len(text) <= high:
        yield Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def embed_characters(embed: Mapping[str, Any]) -> int:
    """The characters that count towards a message's 6,000 (title, description, field
    names and values, footer text, author name)."""
    total = len(_text(embed.get("title"))) + len(_text(embed.get("description")))
    for fld in _items(embed.get("fields")):
        total += len(_text(_dict(fld).get("name"))) + len(_text(_dict(fld).get("value")))
    total += len(_text(_dict(embed.get("footer")).get("text")))
    total += len(_text(_dict(embed.get("author")).get("name")))
    return total


def message_rules(body: Any, at: Path_ = ()) -> Iterator[Problem]:
    """A message body (create, edit, follow-up, a callback's ``data``): content ≤ 2,000
    characters (the spec says 4,000 for a channel message: Discord's docs say 2,000),
    embeds ≤ 6,000 characters together, and the components' rules."""
    body = _dict(body)
    yield from _too_long((*at, "content"), _text(body.get("content")), CONTENT_MAX)
    embeds = [_dict(e) for e in _items(body.get("embeds"))]
    total = sum(embed_characters(e) for e in embeds)
    if total > EMBEDS_TOTAL_MAX:
        yield Problem(
            (*at, "embeds"),
            "MESSAGE_EMBEDS_TOO_LARGE",
            f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX} ({total}).",
        )
    flags = body.get("flags")
    v2 = isinstance(flags, int) and bool(flags & COMPONENTS_V2)
    if v2 and (body.get("content") or body.get("embeds")):
        yield Problem(
            (*at, "content"),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with components v2.",
        )
    if isinstance(body.get("components"), list):
        yield from component_rules(body["components"], v2=v2, at=(*at, "components"))


def _walk_components(rows: list[Any], at: Path_) -> Iterator[tuple[Path_, Mapping[str, Any]]]:
    """Every component with its path, nested ones (rows, containers, sections) included."""
    for n, comp in enumerate(rows):
        comp = _dict(comp)
        path = (*at, n)
        yield path, comp
        if isinstance(comp.get("components"), list):
            yield from _walk_components(comp["components"], (*path, "components"))
        if isinstance(comp.get("accessory"), Mapping):
            yield (*path, "accessory"), comp["accessory"]
        if isinstance(comp.get("component"), Mapping):
            yield (*path, "component"), comp["component"]


def custom_id_rules(rows: list[Any], at: Path_) -> Iterator[Problem]:
    """custom_ids are 1–100 characters and unique within the message (or modal)."""
    seen: set[str] = set()
    for path, comp in _walk_components(rows, at):
        if "custom_id" not in comp or comp["custom_id"] is None:
            continue
        cid = _text(comp["custom_id"])
        yield from _length_between((*path, "custom_id"), cid, 1, CUSTOM_ID_MAX)
        if cid in seen:
            yield Problem(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(cid)


def component_rules(rows: list[Any], *, v2: bool, at: Path_ = ("components",)) -> Iterator[Problem]:
    """A message's components: at most 5 action rows (40 components in all with components
    v2), a row holds ≤ 5 buttons or exactly one select, button labels ≤ 80 characters, a
    non-link button has a custom_id and a link button a url, a select has ≤ 25 options with
    unique values and ``min_values`` ≤ ``max_values`` ≤ its option count, custom_ids unique
    and 1–100 characters."""
    yield from custom_id_rules(rows, at)
    if v2:
        count = sum(1 for _ in _walk_components(rows, at))
        if count > V2_COMPONENTS_MAX:
            yield Problem(
                at, "BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer in length."
            )
    else:
        if len(rows) > ACTION_ROWS_MAX:
            yield Problem(
                at, "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS_MAX} or fewer in length."
            )
        for n, row in enumerate(rows):
            if _dict(row).get("type") != ACTION_ROW:
                yield Problem(
                    (*at, n, "type"),
                    "UNION_TYPE_CHOICES",
                    "Without components v2 a message's components must be action rows.",
                )
    for path, comp in _walk_components(rows, at):
        kind = comp.get("type")
        if kind == ACTION_ROW:
            yield from _row_rules(path, _items(comp.get("components")))
        elif kind == BUTTON:
            yield from _button_rules(path, comp)
        elif kind in SELECT_TYPES:
            yield from _select_rules(path, comp)


def _row_rules(path: Path_, items: list[Any]) -> Iterator[Problem]:
    kinds = [_dict(item).get("type") for item in items]
    selects = sum(1 for k in kinds if k in SELECT_TYPES)
    if selects and len(items) > 1:
        yield Problem(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width (a select fills its row).",
        )
    elif len(items) > ROW_BUTTONS_MAX:
        yield Problem(
            (*path, "components"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ROW_BUTTONS_MAX} or fewer in length.",
        )


def _button_rules(path: Path_, button: Mapping[str, Any]) -> Iterator[Problem]:
    label = _text(button.get("label"))
    yield from _too_long((*path, "label"), label, LABEL_MAX)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            yield Problem((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id") is not None:
            yield Problem(
                (*path, "custom_id"),
                "COMPONENT_INVALID_BUTTON_LINK",
                "A link button cannot have a custom_id.",
            )
    elif style != PREMIUM_STYLE:
        if not button.get("custom_id"):
            yield Problem((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if not label and not button.get("emoji"):
            yield Problem(
                (*path, "label"), "BASE_TYPE_REQUIRED", "A button needs a label or an emoji."
            )


def _select_rules(path: Path_, select: Mapping[str, Any]) -> Iterator[Problem]:
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    low = low if isinstance(low, int) else 1
    high = high if isinstance(high, int) else 1
    if low > high:
        yield Problem(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
            f"min_values ({low}) must be at most max_values ({high}).",
        )
    if select.get("type") != STRING_SELECT:
        return
    options = [_dict(o) for o in _items(select.get("options"))]
    if len(options) > SELECT_OPTIONS_MAX:
        yield Problem(
            (*path, "options"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {SELECT_OPTIONS_MAX} or fewer in length.",
        )
    if high > len(options):
        yield Problem(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
            f"max_values ({high}) exceeds the number of options ({len(options)}).",
        )
    values: set[str] = set()
    for n, option in enumerate(options):
        value = _text(option.get("value"))
        if value in values:
            yield Problem(
                (*path, "options", n, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select options must have unique values.",
            )
        values.add(value)


def modal_rules(data: Any, at: Path_ = ("data",)) -> Iterator[Problem]:
    """A modal: title 1–45 characters, 1–5 rows, unique custom_ids of 1–100 characters,
    text input labels ≤ 45 characters."""
    data = _dict(data)
    yield from _length_between((*at, "title"), _text(data.get("title")), 1, MODAL_TITLE_MAX)
    rows = _items(data.get("components"))
    if not 1 <= len(rows) <= MODAL_ROWS_MAX:
        yield Problem(
            (*at, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MODAL_ROWS_MAX} in length.",
        )
    yield from custom_id_rules(rows, (*at, "components"))
    for path, comp in _walk_components(rows, (*at, "components")):
        if comp.get("type") == TEXT_INPUT and "label" in comp:
            yield from _too_long((*path, "label"), _text(comp["label"]), TEXT_INPUT_LABEL_MAX)


def callback_rules(body: Any) -> Iterator[Problem]:
    """An interaction callback: its ``data`` is a message (types 4 and 7) or a modal (9)."""
    body = _dict(body)
    kind = body.get("type")
    if kind in (CB_MESSAGE, CB_UPDATE) and body.get("data") is not None:
        yield from message_rules(body["data"], ("data",))
    elif kind == CB_MODAL:
        yield from modal_rules(body.get("data"))
    elif kind == CB_AUTOCOMPLETE:
        choices = _items(_dict(body.get("data")).get("choices"))
        yield from _choices_rules(("data", "choices"), choices)


def is_valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}]{1,32}$`` for command and option names (letters and
    numbers of any script, ``-``, ``_``), lowercase where the letters have a lowercase."""
    return (
        1 <= len(name) <= COMMAND_NAME_MAX
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
        and name == name.lower()
    )


def _name_rules(path: Path_, item: Mapping[str, Any], *, chat_input: bool) -> Iterator[Problem]:
    names = [((*path, "name"), _text(item.get("name")))]
    localized = _dict(item.get("name_localizations"))
    names += [((*path, "name_localizations", loc), _text(v)) for loc, v in localized.items()]
    for where, name in names:
        if chat_input and not is_valid_name(name):
            yield Problem(
                where,
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name {name!r} is invalid (lowercase ^[-_\\p{{L}}\\p{{N}}]{{1,32}}$).",
            )


def _description_rules(path: Path_, item: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _length_between(
        (*path, "description"), _text(item.get("description")), 1, DESCRIPTION_MAX
    )
    for loc, text in _dict(item.get("description_localizations")).items():
        yield from _length_between(
            (*path, "description_localizations", loc), _text(text), 1, DESCRIPTION_MAX
        )


def _choices_rules(path: Path_, choices: list[Any]) -> Iterator[Problem]:
    if len(choices) > CHOICES_MAX:
        yield Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
    for n, choice in enumerate(choices):
        choice = _dict(choice)
        yield from _length_between((*path, n, "name"), _text(choice.get("name")), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            yield from _length_between((*path, n, "value"), value, 1, CHOICE_STRING_MAX)
        elif isinstance(value, int | float) and not -INT53_MAX <= value <= INT53_MAX:
            yield Problem((*path, n, "value"), "NUMBER_TYPE_MAX", f"Must be within ±{INT53_MAX}.")


def _bounds_rules(path: Path_, option: Mapping[str, Any]) -> Iterator[Problem]:
    """min_value ≤ max_value, both within ±(2^53 − 1); min_length ≤ max_length ≤ 6,000."""
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if isinstance(value, int | float) and not -INT53_MAX <= value <= INT53_MAX:
            yield Problem(
                (*path, key),
                "NUMBER_TYPE_MAX" if value > 0 else "NUMBER_TYPE_MIN",
                f"Must be within ±{INT53_MAX} (2^53 - 1).",
            )
    low, high = option.get("min_value"), option.get("max_value")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        yield Problem(
            (*path, "max_value"),
            "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID",
            f"max_value ({high}) must be at least min_value ({low}).",
        )
    low, high = option.get("min_length"), option.get("max_length")
    for key, value in (("min_length", low), ("max_length", high)):
        if isinstance(value, int) and not 0 <= value <= STRING_OPTION_LENGTH_MAX:
            yield Problem(
                (*path, key), "NUMBER_TYPE_MAX", f"Must be 0 to {STRING_OPTION_LENGTH_MAX}."
            )
    if isinstance(low, int) and isinstance(high, int) and low > high:
        yield Problem(
            (*path, "max_length"),
            "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID",
            f"max_length ({high}) must be at least min_length ({low}).",
        )


def _options_rules(path: Path_, options: list[Any]) -> Iterator[Problem]:
    """A level of options: ≤ 25, unique names, required ones before optional ones, each
    named and described as Discord requires, with valid choices and bounds."""
    if len(options) > COMMAND_OPTIONS_MAX:
        yield Problem(
            path, "BASE_TYPE_MAX_LENGTH", f"Must be {COMMAND_OPTIONS_MAX} or fewer in length."
        )
    seen_names: set[str] = set()
    seen_optional = False
    for n, option in enumerate(options):
        option = _dict(option)
        where = (*path, n)
        yield from _name_rules(where, option, chat_input=True)
        yield from _description_rules(where, option)
        name = _text(option.get("name"))
        if name in seen_names:
            yield Problem(
                (*where, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        seen_names.add(name)
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            yield from _options_rules((*where, "options"), _items(option.get("options")))
            continue
        if option.get("required"):
            if seen_optional:
                yield Problem(
                    (*where, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        yield from _choices_rules((*where, "choices"), _items(option.get("choices")))
        if option.get("type") in (INTEGER_OPTION, NUMBER_OPTION, STRING_OPTION):
            yield from _bounds_rules(where, option)


def command_rules(command: Any, at: Path_ = ()) -> Iterator[Problem]:
    """One application command: a chat-input command's name (lowercase
    ``^[-_\\p{L}\\p{N}]{1,32}$``) and description (1–100 characters), then its options."""
    command = _dict(command)
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    yield from _name_rules(at, command, chat_input=chat_input)
    if chat_input:
        yield from _description_rules(at, command)
    yield from _options_rules((*at, "options"), _items(command.get("options")))


def command_list_rules(body: Any) -> Iterator[Problem]:
    """A bulk overwrite (all or nothing): each command's rules, names unique per command
    type, at most 100 chat-input commands."""
    commands = _items(body)
    seen: set[tuple[Any, Any]] = set()
    for n, command in enumerate(commands):
        yield from command_rules(command, (n,))
        key = (_dict(command).get("name"), _dict(command).get("type", CHAT_INPUT))
        if key in seen:
            yield Problem(
                (n, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({key[0]!r})",
            )
        seen.add(key)
    chat_inputs = sum(1 for c in commands if _dict(c).get("type", CHAT_INPUT) == CHAT_INPUT)
    if chat_inputs > CHAT_INPUT_COMMANDS_MAX:
        yield Problem(
            (),
            "BASE_TYPE_MAX_LENGTH",
            f"At most {CHAT_INPUT_COMMANDS_MAX} chat input commands ({chat_inputs}).",
        )


#: The documented rules of each spec route (method, spec path) whose body they govern.
RULES: dict[tuple[str, str], Callable[[Any], Iterable[Problem]]] = {
    ("POST", "/channels/{channel_id}/messages"): message_rules,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): message_rules,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): message_rules,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): message_rules,
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): callback_rules,
    ("PUT", "/applications/{application_id}/commands"): command_list_rules,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): command_list_rules,
    ("POST", "/applications/{application_id}/commands"): command_rules,
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"): command_rules,
    ("PATCH", "/applications/{application_id}/commands/{command_id}"): command_rules,
    (
        "PATCH",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
    ): command_rules,
}


def check_request(method: str, template: str, body: Any) -> list[Problem]:
    """Every reason Discord would refuse this request body (empty: it would accept it).
    ``template`` is the fake's route template; ``body`` the decoded JSON (a multipart
    request's ``payload_json``)."""
    problems = spec_problems(method, template, body)
    path = spec_operation(method, template)
    rules = RULES.get((method, path)) if path is not None else None
    if rules is not None:
        problems += list(rules(body))
    # A limit both the spec and a rule check (a label's 80 characters) is said once.
    return list(dict.fromkeys(problems))


def errors_object(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` object for a 400 / 50035 answer: one level per path
    element (list indexes as strings), ``_errors`` at the field."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return errors


def error_fields(errors: Mapping[str, Any], at: str = "") -> list[str]:
    """The dotted paths an ``errors`` object names (``components.0.components.1.label``),
    to read Discord's answers in tests and logs."""
    out = []
    for key, value in errors.items():
        if key == "_errors":
            out.append(at)
        elif isinstance(value, Mapping):
            out += error_fields(value, f"{at}.{key}" if at else key)
    return out
