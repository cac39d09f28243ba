"""The edge's JSON check (server/edge.py): lone surrogates are refused however they are
written, while ordinary messages skip the walk over their value."""

from __future__ import annotations

import pytest

from meldhall.server import edge
from meldhall.server.edge import EdgeError, decode_json


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "\\ud800"}',
        '{"a": "\\uDFFF"}',
        '{"\\udc00": 1}',
        '["x", {"b": ["\\uDbFf"]}]',
        '{"a": "\ud800"}',  # the character itself, not an escape
        b'{"a": "\xed\xa0\x80"}',  # bytes: json reads them with surrogatepass
    ],
)
def test_lone_surrogates_are_refused(text: str | bytes) -> None:
    with pytest.raises(EdgeError) as caught:
        decode_json(text, 8)
    assert caught.value.code == "bad_text"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": "\\ud83d\\ude00"}', {"a": "\U0001f600"}),  # a pair is one character
        ('{"a": "\\\\ud800"}', {"a": "\\ud800"}),  # an escaped backslash, then letters
    ],
)
def test_text_that_only_looks_like_a_surrogate_is_read(text: str, value: object) -> None:
    assert decode_json(text, 8) == value


def test_an_ordinary_message_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    def walked(*_args: object) -> None:
        raise AssertionError("walked")

    monkeypatch.setattr(edge, "_check_value", walked)
    text = '{"type": "act", "state_id": 3, "action": {"type": "discard", "tile": "R12a"}}'
    assert decode_json(text, 8)["state_id"] == 3
    with pytest.raises(EdgeError, match="too_deep"):
        decode_json("[[[[1]]]]", 3)
