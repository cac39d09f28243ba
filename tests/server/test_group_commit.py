"""Group commit: actions staged in one loop turn are committed together, nothing is sent
before its actions are stored, and a failed commit sends the tables back to the stored log
(on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from meldhall.store.repository import Store
from meldhall.tables.commits import GroupCommit
from meldhall.tables.table import Table
from tests.server.online_client import run


def _store_with_match(url: str) -> tuple[Store, str]:
    store = Store(url)
    players = [{"kind": "person", "session": "s"}, {"kind": "bot", "bot": "random"}]
    match = store.create_match("s", "remi", {}, players, "00" * 32, [""])
    return store, match.id


def _stored(url: str) -> int:
    """Return how many actions another connection sees stored."""
    engine = create_engine(url)
    try:
        with engine.connect() as other:
            count: int = other.execute(text("SELECT count(*) FROM actions")).scalar_one()
            return count
    finally:
        engine.dispose()


def _fail_commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every commit of staged actions fail as a full disk would: nothing is stored."""
    log = store._log
    assert log is not None

    def full_disk() -> None:
        log.discard()
        raise OSError("database or disk is full")

    monkeypatch.setattr(log, "commit", full_disk)


def test_staged_actions_are_stored_by_the_commit(database_url: str) -> None:
    store, match = _store_with_match(database_url)
    for i in range(3):
        store.stage_action(match, i, 0, {"type": "draw_stock"})
    assert _stored(database_url) == 0
    store.commit_staged()
    assert _stored(database_url) == 3


def test_any_other_use_of_the_database_commits_what_is_staged_first(database_url: str) -> None:
    store, match = _store_with_match(database_url)
    store.stage_action(match, 0, 0, {"type": "draw_stock"})
    data = store.load_match(match)
    assert data is not None and data.log == [(0, {"type": "draw_stock"})]
    store.set_pause(match, True, None)  # a write through the ORM does not wait for a lock
    assert _stored(database_url) == 1


@pytest.mark.parametrize("last_hand", [None, {"winner": 1, "deltas": [3, -3], "name": "Ş"}])
def test_a_pause_is_stored_after_the_staged_actions(
    database_url: str, last_hand: dict[str, Any] | None
) -> None:
    for url in (database_url, "sqlite://"):  # the batched log's statement, then the ORM's
        store, match = _store_with_match(url)
        store.stage_action(match, 0, 0, {"type": "draw_stock"})
        store.set_pause(match, True, last_hand)
        if url == database_url:
            assert _stored(url) == 1
        paused = store.load_match(match)
        assert paused is not None and paused.paused and paused.last_hand == last_hand
        assert paused.log == [(0, {"type": "draw_stock"})]
        store.set_pause(match, False, None)  # the last hand stays
        going = store.load_match(match)
        assert going is not None and not going.paused and going.last_hand == last_hand
        store.close()


class Recorder:
    """A table that notes what the group commit made it do, and what was stored by then."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sent: list[int] = []
        self.lost_count = 0

    def send_states(self) -> None:
        self.sent.append(_stored(self.url))

    def lost(self) -> None:
        self.lost_count += 1


def test_tables_send_once_per_loop_turn_after_the_commit(database_url: str) -> None:
    store, match = _store_with_match(database_url)
    commits = GroupCommit(store)
    a, b = Recorder(database_url), Recorder(database_url)

    async def main() -> None:
        for i, table in enumerate([a, b, a]):
            commits.stage(match, i, 0, {"type": "draw_stock"})
            commits.send_when_stored(table)
        assert a.sent == b.sent == []
        await asyncio.sleep(0)
        assert a.sent == b.sent == [3]

    run(main())


def test_a_failed_commit_sends_the_tables_back_to_the_stored_log(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, match = _store_with_match(database_url)
    _fail_commits(store, monkeypatch)
    commits = GroupCommit(store)
    table = Recorder(database_url)

    async def main() -> None:
        commits.stage(match, 0, 0, {"type": "draw_stock"})
        commits.send_when_stored(table)
        await asyncio.sleep(0)

    run(main())
    assert table.sent == [] and table.lost_count == 1
    assert _stored(database_url) == 0


def test_a_table_whose_moves_were_lost_goes_back_and_says_so(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, match = _store_with_match(database_url)
    data = store.load_match(match)
    assert data is not None

    async def main() -> list[dict[str, Any]]:
        table = Table(store, data, bot_delay=0)
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        table.attach(0, inbox)
        _fail_commits(store, monkeypatch)
        seat = min(table.state.to_act())
        action = table.state.legal_actions(seat)[0].to_json()
        await table.act(seat, action, 0)
        assert table.version == 1  # accepted, not yet stored
        await asyncio.sleep(0)
        assert table.version == 0 and not table.history.after(0)
        return [inbox.get_nowait() for _ in range(inbox.qsize())]

    messages = run(main())
    kinds = [m["type"] for m in messages]
    assert kinds == ["match", "state", "rejected", "state"]
    assert messages[2]["code"] == "server_error" and messages[3]["state_id"] == 0


def test_without_a_batched_log_an_action_is_stored_at_once() -> None:
    store = Store("sqlite://")  # in memory: no separate log connection
    players = [{"kind": "person", "session": "s"}, {"kind": "bot", "bot": "random"}]
    match = store.create_match("s", "remi", {}, players, "00" * 32, [""]).id
    store.stage_action(match, 0, 0, {"type": "draw_stock"})
    store.commit_staged()  # nothing staged: nothing to do
    data = store.load_match(match)
    assert data is not None and data.log == [(0, {"type": "draw_stock"})]
