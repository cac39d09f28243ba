"""The observation keys that stay the same all match (``ONCE_KEYS``: a game's rules) travel in
a listener's first state message only; every other key is in every state message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meldhall.store.repository import Store
from meldhall.tables.table import ONCE_KEYS, Table
from tests.server.online_client import run


class _Sink:
    """A listener's queue that keeps its messages."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def put_nowait(self, item: dict[str, Any]) -> None:
        self.messages.append(item)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]


def _table(tmp_path: Path) -> Table:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    players = [{"kind": "person", "session": f"s{i}"} for i in range(4)]
    match = store.create_match("s0", "okey", {}, players, "00" * 32, [""])
    data = store.load_match(match.id)
    assert data is not None
    return Table(store, data)


def test_rules_come_in_the_first_state_only_and_again_on_a_resync(tmp_path: Path) -> None:
    async def play() -> None:
        table = _table(tmp_path)
        sinks = [_Sink() for _ in range(4)]
        listeners = [table.attach(seat, sinks[seat]) for seat in range(4)]
        for _ in range(3):
            seat = next(iter(table.state.to_act()))
            action = table.state.legal_actions(seat)[0].to_json()
            await table.act(seat, action, table.version)
            table.commits.flush()
        assert ONCE_KEYS == ("rules",)
        for seat, sink in enumerate(sinks):
            first, *later = sink.states()
            assert len(later) == 3
            assert first["observation"]["rules"] == table.state.observation(seat)["rules"]
            assert all("rules" not in s["observation"] for s in later)
            expected = table.state.observation(seat)
            del expected["rules"]
            assert later[-1]["observation"] == expected
        table.resync(listeners[1])
        assert sinks[1].states()[-1]["observation"] == table.state.observation(1)
        again = _Sink()
        table.attach(2, again)  # a connection that comes back is a new listener
        assert again.states()[-1]["observation"] == table.state.observation(2)

    run(play())


def test_a_state_without_rules_is_still_a_valid_state_message(tmp_path: Path) -> None:
    from meldhall.server.protocol import check_server

    async def play() -> None:
        table = _table(tmp_path)
        sink = _Sink()
        table.attach(0, sink)
        seat = next(iter(table.state.to_act()))
        await table.act(seat, table.state.legal_actions(seat)[0].to_json(), table.version)
        table.commits.flush()
        later = sink.states()[-1]
        assert "rules" not in later["observation"]
        check_server(later)

    run(play())
