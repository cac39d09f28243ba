"""The ``legal`` list of a state message: each legal action's JSON and short text, remembered.

An action is a small immutable value with one canonical JSON form and one text form
(core/actions.py), so the two never change for equal actions, while computing them is most of
the cost of a state message's list (about 2 µs an action: a turn lists 10 to 30). The tables of
a process share one bounded memory of them: the same discards, draws and claims come back at
every table of a game.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from meldhall.core.engine import JSON, Action

REMEMBERED = 50_000
"""Actions whose forms are remembered at most; past it the memory starts again (a game with
very many distinct actions, e.g. meld combinations, only loses the shortcut)."""

_forms: dict[Action, tuple[JSON, str]] = {}
_texts: dict[Action, bytes] = {}
_encode = msgspec.json.Encoder().encode


def legal_json(actions: Iterable[Action]) -> list[dict[str, JSON]]:
    """Return ``[{"json": ..., "text": ...}]`` of ``actions`` in their order (the ``legal``
    field of docs/protocol.md). The ``json`` values are shared between messages: read them,
    never change them (tests/server/test_listing.py checks them against the actions' own
    forms in every game)."""
    out: list[dict[str, JSON]] = []
    for action in actions:
        try:
            forms = _forms.get(action)
        except TypeError:  # an action that cannot be hashed is formed every time
            out.append({"json": action.to_json(), "text": str(action)})
            continue
        if forms is None:
            if len(_forms) >= REMEMBERED:
                _forms.clear()
            forms = _forms[action] = (action.to_json(), str(action))
        out.append({"json": forms[0], "text": forms[1]})
    return out


def legal_text(actions: Iterable[Action]) -> bytes:
    """Return the JSON text of ``legal_json(actions)``: the bytes msgspec makes of that list,
    each entry's remembered as the forms are (a state message sent as text encodes only the
    list's brackets and commas)."""
    parts: list[bytes] = []
    for action in actions:
        try:
            text = _texts.get(action)
        except TypeError:  # an action that cannot be hashed is encoded every time
            parts.append(_encode(legal_json((action,))[0]))
            continue
        if text is None:
            if len(_texts) >= REMEMBERED:
                _texts.clear()
            text = _texts[action] = _encode(legal_json((action,))[0])
        parts.append(text)
    return b"[" + b",".join(parts) + b"]"
