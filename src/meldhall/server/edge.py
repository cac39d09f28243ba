"""Text checked once where it enters the server: a WebSocket frame or a JSON request body
becomes a JSON value here, or a refusal with a code; no handler ever sees binary frames,
invalid UTF-16 (lone surrogates), nesting beyond a small depth or oversize text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\\uD800``-style escape in JSON text (or text that looks like one)."""


class EdgeError(ValueError):
    """Input refused at the edge: ``code`` is the protocol code (docs/protocol.md)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def frame_text(frame: Mapping[str, Any], max_chars: int) -> str:
    """Return the text of a WebSocket receive event; raise ``EdgeError`` for a binary frame
    or text longer than ``max_chars``."""
    text = frame.get("text")
    if text is None:
        raise EdgeError("binary_frame", "send JSON text frames, not binary ones")
    if len(text) > max_chars:
        raise EdgeError("too_large", f"a message may have at most {max_chars} characters")
    return str(text)


def decode_json(text: str | bytes, max_depth: int) -> Any:
    """Return the JSON value of ``text``; raise ``EdgeError`` when it is not JSON, nests
    deeper than ``max_depth`` or holds a lone surrogate (``"\\udc00"``) in a string or key.

    >>> decode_json('{"a": [1, "x"]}', 4)
    {'a': [1, 'x']}
    >>> decode_json('[[[1]]]', 2)
    Traceback (most recent call last):
    ...
    meldhall.server.edge.EdgeError: too_deep: JSON may nest at most 2 levels deep
    """
    if _opens_deeper(text, max_depth):
        raise EdgeError("too_deep", f"JSON may nest at most {max_depth} levels deep")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise EdgeError("bad_json", f"not JSON: {exc}") from exc
    if _may_hold_surrogate(text):
        _check_value(value, max_depth)
    return value


def _may_hold_surrogate(text: str | bytes) -> bool:
    """Return whether the value of JSON ``text`` may hold a lone surrogate: text with no
    surrogate character and no escape of one cannot (its depth is checked already by
    ``_opens_deeper``, so a message of a client's ordinary play is walked no further)."""
    if isinstance(text, bytes):
        return True  # json.loads reads bytes with "surrogatepass": walk the value
    return bool(_SURROGATE.search(text) or _ESCAPED_SURROGATE.search(text))


def _opens_deeper(text: str | bytes, max_depth: int) -> bool:
    """Return whether ``text`` has more opening brackets than ``max_depth`` allows at all (a
    cheap bound before parsing; the exact depth is checked on the value)."""
    if isinstance(text, bytes):
        opens = text.count(b"[") + text.count(b"{")
    else:
        opens = text.count("[") + text.count("{")
    return opens > max_depth and _depth_of_text(text) > max_depth


def _depth_of_text(text: str | bytes) -> int:
    """Return the deepest bracket nesting of JSON text, skipping strings."""
    chars = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    depth = deepest = 0
    in_string = escaped = False
    for ch in chars:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_value(value: Any, max_depth: int) -> None:
    """Raise ``EdgeError`` when a parsed value nests too deep or holds a lone surrogate."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                raise EdgeError("too_deep", f"JSON may nest at most {max_depth} levels deep")
            if isinstance(item, dict):
                for key, sub in item.items():
                    _check_text(key)
                    stack.append((sub, depth + 1))
            else:
                stack.extend((sub, depth + 1) for sub in item)


def _check_text(text: str) -> None:
    if _SURROGATE.search(text):
        raise EdgeError("bad_text", "text holds a lone surrogate (invalid UTF-16)")
