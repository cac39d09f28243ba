"""Stored matches survive rule changes (issue 14): a database of matches made with the code
of commit 3e59be5 (``scripts/make_stored_matches.py``: every game, random legal play, some
matches over, some in play; okey's rules were version 1 then, they are version 2 now, since
fix 1 of issue 14) is upgraded and read with today's code.

A match whose game kept its rules version replays its whole log to what the old code saw at
its end (over or not, scores, winners, the seats to act and every action they had listed, in
text form). A match started under another version is marked: it can be watched (its log still
replays), not played on, and the server says so with the versions."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from meldhall.core.fairness import match_seed
from meldhall.core.replay import replay
from meldhall.games.registry import find_game
from meldhall.store.engine import make_engine
from meldhall.store.repository import DB_NAME, MatchData, Store, stale_rules
from meldhall.store.schema import upgrade

HERE = Path(__file__).parent
DUMP = HERE / "stored_matches.sql.gz"
"""The SQLite dump of the database the old code made."""
SEEN: list[dict[str, Any]] = json.loads((HERE / "stored_matches.json").read_text())
"""Per stored match, what the old code saw at its end."""
MADE_UNDER = 1
"""The rules version of every game when the database was made."""


def _old_database(directory: Path) -> str:
    """Return the URL of the old database restored into ``directory`` and upgraded."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / DB_NAME
    with sqlite3.connect(path) as conn:
        conn.executescript(gzip.decompress(DUMP.read_bytes()).decode())
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    return url


def _replayed(data: MatchData) -> Any:
    game = find_game(data.game)
    log = [(seat, game.action_from_json(action)) for seat, action in data.log]
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    return replay(game, game.options(data.options), data.seats, seed, log)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MatchData]:
    store = Store(_old_database(tmp_path_factory.mktemp("old")))
    out = {m["match"]: store.load_match(m["match"]) for m in SEEN}
    store.close()
    assert all(data is not None for data in out.values())
    return out  # type: ignore[return-value]


def test_the_database_holds_every_game_over_and_in_play() -> None:
    games = {m["game"] for m in SEEN}
    assert games == {"okey", "okey-ladder", "tile-rummy", "remi", "sichuan", "okey-cards"}
    assert {m["game"] for m in SEEN if m["over"]} >= games - {"okey"}
    assert all(any(not m["over"] for m in SEEN if m["game"] == g) for g in games)
    assert sum(m["actions"] for m in SEEN) > 8000
    assert any(find_game(g).rules_version != MADE_UNDER for g in games)


@pytest.mark.parametrize("seen", SEEN, ids=[f"{m['game']}-{m['actions']}" for m in SEEN])
def test_a_stored_match_replays_under_its_rules_or_is_marked(
    seen: dict[str, Any], stored: dict[str, MatchData]
) -> None:
    data = stored[seen["match"]]
    assert data.rules_version == MADE_UNDER and len(data.log) == seen["actions"]
    assert data.status == ("over" if seen["over"] else "playing")
    state = _replayed(data)
    now = find_game(data.game).rules_version
    reason = stale_rules(data)
    if now != MADE_UNDER:
        assert reason is not None and f"version {MADE_UNDER}" in reason
        assert f"version {now}" in reason and "not played on" in reason
        return
    assert reason is None
    outcome = state.outcome()
    assert (outcome is not None) == seen["over"]
    if outcome is not None:
        assert list(outcome.scores) == seen["scores"]
        assert sorted(outcome.winners) == seen["winners"]
        assert data.outcome is not None and list(data.outcome["scores"]) == seen["scores"]
    assert sorted(state.to_act()) == seen["to_act"]
    for seat in seen["to_act"]:
        assert [str(a) for a in state.legal_actions(seat)] == seen["listed"][str(seat)]


def test_the_server_shows_a_match_of_older_rules_read_only(
    tmp_path: Path, toy_registered: None
) -> None:
    from tests.server.conftest import make_client

    _old_database(tmp_path)
    okey = next(m for m in SEEN if m["game"] == "okey")
    with make_client(tmp_path) as client:
        proof = client.get(f"/api/matches/{okey['match']}").json()
    assert proof["rules_version"] == MADE_UNDER
    assert "not played on" in proof["read_only"]
