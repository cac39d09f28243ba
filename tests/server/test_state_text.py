"""A state message sent as JSON text (to a connection's outbox, ``put_bytes``) is byte for byte
the encoding of the message a plain sink gets."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec

from meldhall.store.repository import Store
from meldhall.tables.table import Table
from tests.server.online_client import run

_encode = msgspec.json.Encoder().encode


class _Sink:
    """A listener's queue that keeps its messages (dicts)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any] | bytes] = []

    def put_nowait(self, item: dict[str, Any]) -> None:
        self.messages.append(item)


class _ByteSink(_Sink):
    """A queue that takes state messages as JSON text, as ``ws.Outbox`` does."""

    def put_bytes(self, payload: bytes) -> None:
        self.messages.append(payload)


def test_a_byte_sink_gets_the_encoding_of_what_a_dict_sink_gets(tmp_path: Path) -> None:
    async def play() -> None:
        store = Store(f"sqlite:///{tmp_path / 'm.db'}")
        players = [{"kind": "person", "session": f"s{i}"} for i in range(4)]
        match = store.create_match("s0", "okey", {}, players, "00" * 32, [""])
        data = store.load_match(match.id)
        assert data is not None
        table = Table(store, data)
        plain = [_Sink() for _ in range(4)]
        text = [_ByteSink() for _ in range(4)]
        for seat in range(4):
            table.attach(seat, plain[seat])
        listeners = [table.attach(seat, text[seat]) for seat in range(4)]
        watcher, watcher_text = _Sink(), _ByteSink()
        table.attach(None, watcher)
        table.attach(None, watcher_text)
        rng = random.Random(5)
        for step in range(300):
            if table.over:
                break
            seat = min(table.state.to_act())
            action = rng.choice(table.state.legal_actions(seat)).to_json()
            await table.act(seat, action, table.version)
            table.commits.flush()
            if step == 40:
                table.resync(listeners[2])
                table.resync(table.listeners[2])
        sent = 0
        for got, expected in zip([*text, watcher_text], [*plain, watcher], strict=True):
            assert len(got.messages) == len(expected.messages)
            for message, dict_message in zip(got.messages, expected.messages, strict=True):
                if isinstance(message, bytes):
                    assert isinstance(dict_message, dict)
                    assert message == _encode(dict_message)
                    sent += 1
                else:
                    assert message == dict_message
        assert sent > 4 * 250

    run(play())
