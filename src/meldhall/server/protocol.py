"""The WebSocket protocol's messages as schemas (a small subset of JSON Schema), and the check.

docs/protocol.md describes the conversation; ``CLIENT`` and ``SERVER`` hold one schema per
message type. Every message from a client is checked before it reaches a table, and the tests
check every message the server sends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Schema = Mapping[str, Any]

_ANY: Schema = {}
_INT: Schema = {"type": "integer", "minimum": 0}
_ID: Schema = {"type": "string", "maxLength": 64, "minLength": 1}
_OBJECT: Schema = {"type": "object"}
_NAME: Schema = {"type": "string", "maxLength": 64}


def _message(kind: str, required: Mapping[str, Schema], optional: Mapping[str, Schema]) -> Schema:
    props = {"type": {"const": kind}, **required, **optional}
    return {
        "type": "object",
        "properties": props,
        "required": ["type", *required],
        "additionalProperties": False,
    }


CLIENT: dict[str, Schema] = {
    "hello": _message("hello", {}, {"token": {"type": ["string", "null"], "maxLength": 64}}),
    "start": _message(
        "start",
        {"game": _ID},
        {
            "contribution": {"type": "string", "maxLength": 200},
            "options": _OBJECT,
            "level": {"type": "string", "maxLength": 16},
        },
    ),
    "resume": _message("resume", {"match": _ID}, {"state_id": _INT}),
    "act": _message("act", {"state_id": _INT, "action": _ANY}, {"seat": _INT, "match": _ID}),
    "sync": _message("sync", {}, {}),
    "appraise": _message("appraise", {"state_id": _INT, "action": _ANY}, {}),
    "continue": _message("continue", {}, {}),
    "pace": _message("pace", {"pace": {"type": "string", "maxLength": 16}}, {}),
    # online play (docs/online.md)
    "lobby": _message("lobby", {}, {}),
    "create": _message(
        "create",
        {"game": _ID},
        {"options": _OBJECT, "settings": _OBJECT, "public": {"type": "boolean"}, "name": _NAME},
    ),
    "join": _message("join", {"table": _ID}, {"name": _NAME}),
    "leave": _message("leave", {}, {}),
    "begin": _message("begin", {}, {}),
    "watch": _message("watch", {"table": _ID}, {}),
    "rematch": _message("rematch", {}, {}),
    # table chat (docs/protocol.md, "Chat")
    "chat": _message(
        "chat",
        {},
        {
            "text": {"type": "string", "maxLength": 1000},
            "quick": {"type": "string", "maxLength": 32},
        },
    ),
    "chat_open": _message("chat_open", {}, {}),
    "mute": _message("mute", {"author": _ID}, {"on": {"type": "boolean"}}),
    "report": _message("report", {"message": _INT}, {}),
}

_SEAT: Schema = {"type": ["integer", "null"], "minimum": 0}
_LIST: Schema = {"type": "array"}

SERVER: dict[str, Schema] = {
    "welcome": _message(
        "welcome",
        {"token": _ID, "next_commitment": {"type": "string"}, "playing": _OBJECT},
        {},
    ),
    "match": _message(
        "match",
        {
            "match": _ID,
            "game": _ID,
            "seat": _SEAT,
            "seats": _INT,
            "players": _LIST,
            "commitment": {"type": "string"},
            "contributions": _LIST,
            "options": _OBJECT,
        },
        {"table": _ID},
    ),
    "state": _message(
        "state",
        {
            "match": _ID,
            "state_id": _INT,
            "seat": _SEAT,
            "observation": _OBJECT,
            "legal": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"json": _ANY, "text": {"type": "string"}},
                    "required": ["json", "text"],
                    "additionalProperties": False,
                },
            },
            "to_act": {"type": "array", "items": _INT},
            "events": {"type": "array", "items": _OBJECT},
            "paused": {"type": "boolean"},
            "last_hand": {"type": ["object", "null"]},
        },
        {"clock": {"type": ["object", "null"]}},
    ),
    "rejected": _message(
        "rejected",
        {"code": {"type": "string"}, "reason": {"type": "string"}},
        {
            "engine_code": {"type": "string"},
            "ref": {"type": ["string", "null"]},
            "details": _OBJECT,
        },
    ),
    "appraisal": _message(
        "appraisal",
        {"match": _ID, "state_id": _INT, "action": _ANY, "ok": {"type": "boolean"}},
        {
            "events": _LIST,
            "code": {"type": "string"},
            "reason": {"type": "string"},
            "details": _OBJECT,
        },
    ),
    "lobby": _message("lobby", {"tables": _LIST}, {}),
    "table": _message("table", {"table": _OBJECT}, {}),
    "left": _message("left", {}, {}),
    "players": _message("players", {"match": _ID, "players": _LIST}, {}),
    "scores": _message("scores", {"match": _ID, "rounds": _LIST, "current": _OBJECT}, {}),
    "clock": _message(
        "clock",
        {
            "match": _ID,
            "state_id": _INT,
            "seats": _LIST,
            "seconds": {"type": ["number"]},
            "paused": {"type": "boolean"},
        },
        {},
    ),
    "rematch": _message(
        "rematch", {"match": _ID, "table": _ID, "seat": _INT, "name": {"type": "string"}}, {}
    ),
    "chat": _message(
        "chat",
        {
            "id": _INT,
            "room": _ID,
            "author": _ID,
            "name": {"type": "string"},
            "text": {"type": "string"},
            "quick": {"type": ["string", "null"]},
            "at": {"type": "string"},
            "you": {"type": "boolean"},
        },
        {},
    ),
    "chat_history": _message("chat_history", {"room": _ID, "messages": _LIST}, {}),
    "muted": _message("muted", {"author": _ID, "on": {"type": "boolean"}}, {}),
    "reported": _message("reported", {"message": _INT}, {}),
    "notice": _message("notice", {"match": _ID, "kind": {"type": "string"}, "seat": _INT}, {}),
    "match_over": _message(
        "match_over",
        {
            "match": _ID,
            "outcome": _OBJECT,
            "secret": {"type": "string"},
            "commitment": {"type": "string"},
            "contributions": _LIST,
        },
        {},
    ),
}

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


class SchemaError(ValueError):
    """A message that does not match its schema; the message names the first problem."""


def check(value: Any, schema: Schema, where: str = "message") -> None:
    """Return None when ``value`` matches ``schema``; raise ``SchemaError`` naming the first
    place where it does not.

    >>> check({"a": 1}, {"type": "object", "properties": {"a": {"type": "integer"}}})
    >>> check({"a": "x"}, {"type": "object", "properties": {"a": {"type": "integer"}}})
    Traceback (most recent call last):
    ...
    meldhall.server.protocol.SchemaError: message.a must be integer
    >>> check({"a": [1, -1]}, {"properties": {"a": {"items": {"minimum": 0}}}})
    Traceback (most recent call last):
    ...
    meldhall.server.protocol.SchemaError: message.a[1] must be at least 0
    """
    _check(value, schema, where, None)


def _where(parent: str, key: str | int | None) -> str:
    """Return the name of a place in a message: ``parent``, its field ``key`` or its item
    number ``key`` (built only for an error message: a valid message costs no text)."""
    if key is None:
        return parent
    return f"{parent}[{key}]" if isinstance(key, int) else f"{parent}.{key}"


def _check(value: Any, schema: Schema, parent: str, key: str | int | None) -> None:
    """Check ``value`` (at ``_where(parent, key)``) against ``schema`` (see ``check``)."""
    if "const" in schema and value != schema["const"]:
        raise SchemaError(f"{_where(parent, key)} must be {schema['const']!r}")
    kinds = schema.get("type")
    if kinds is not None and not _is_any(value, kinds):
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        raise SchemaError(f"{_where(parent, key)} must be {' or '.join(names)}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            raise SchemaError(f"{_where(parent, key)} is longer than {schema['maxLength']}")
        if len(value) < schema.get("minLength", 0):
            raise SchemaError(f"{_where(parent, key)} is empty")
    elif isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value):
            raise SchemaError(f"{_where(parent, key)} must be at least {schema['minimum']}")
    elif isinstance(value, dict):
        if "properties" in schema or "required" in schema or "additionalProperties" in schema:
            _check_object(value, schema, _where(parent, key))
    elif isinstance(value, list) and "items" in schema:
        where = _where(parent, key)
        for i, item in enumerate(value):
            _check(item, schema["items"], where, i)


def _is_any(value: Any, kinds: str | Sequence[str]) -> bool:
    """Return whether ``value`` is of the type ``kinds`` names, or of one of them."""
    if isinstance(kinds, str):
        return _is(value, kinds)
    return any(_is(value, name) for name in kinds)


def _is(value: Any, name: str) -> bool:
    if name == "integer" and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def _check_object(value: dict[str, Any], schema: Schema, where: str) -> None:
    props: Mapping[str, Schema] = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in value:
            raise SchemaError(f"{where} lacks {key!r}")
    if schema.get("additionalProperties") is False:
        extra = value.keys() - props.keys()
        if extra:
            raise SchemaError(f"{where} has unknown field {sorted(extra)[0]!r}")
    for key, sub in props.items():
        if key in value:
            _check(value[key], sub, where, key)


def check_client(message: Any) -> str:
    """Return the type of a valid client message; raise ``SchemaError`` (a message that is no
    object or has a malformed field) or ``KeyError`` (an unknown type) otherwise."""
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise SchemaError("a message must be an object with a string field 'type'")
    kind: str = message["type"]
    schema = CLIENT.get(kind)
    if schema is None:
        raise KeyError(kind)
    check(message, schema)
    return kind


def check_server(message: Mapping[str, Any]) -> None:
    """Return None when a server message matches the schema of its type, else raise."""
    schema = SERVER.get(str(message.get("type")))
    if schema is None:
        raise SchemaError(f"unknown server message type {message.get('type')!r}")
    check(dict(message), schema)
