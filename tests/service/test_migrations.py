"""Schema migrations: revision 0001 is the schema of before migrations, a database of that
time is refused until ``meldhall db upgrade`` and keeps its matches, the models and the
migrations agree, and a match stored under other rules stays readable, never replayed."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from meldhall.cli import main
from meldhall.store.engine import make_engine
from meldhall.store.lobby import LobbyStore
from meldhall.store.repository import Store
from meldhall.store.schema import SchemaError, all_metadata, head, revision_of, upgrade

BASELINE = Path(__file__).with_name("baseline.sql")
"""A SQLite database made with the code of before migrations (its ``.dump``): two matches
(one in play with 12 actions and a record, one abandoned), a lobby table and an online
result."""
PLAYING = "49972f9a-0892-423e-a60d-fd36b2a47dda"


def _baseline(tmp_path: Path) -> str:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(BASELINE.read_text())
    return f"sqlite:///{path}"


def _tables_sql(url: str) -> dict[str, str]:
    """Return each table's and index's CREATE statement, whitespace squeezed."""
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name != "
            "'alembic_version'"
        ).fetchall()
    return {name: re.sub(r"\s+", " ", sql).strip() for name, sql in rows}


def test_revision_0001_is_the_schema_of_before_migrations(tmp_path: Path) -> None:
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    upgrade(make_engine(fresh), to="0001")
    assert _tables_sql(fresh) == _tables_sql(_baseline(tmp_path))


def test_an_old_database_is_refused_then_upgraded_and_keeps_its_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = _baseline(tmp_path)
    with pytest.raises(SchemaError, match=r"run `meldhall db upgrade --database-url"):
        Store(url)
    assert main(["db", "current", "--database-url", url]) == 0
    assert "revision 0001 (this meldhall needs" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", url]) == 0
    assert f"revision 0001 -> {head()}" in capsys.readouterr().out
    store = Store(url)
    data = store.load_match(PLAYING)
    assert data is not None and len(data.log) == 12 and data.status == "playing"
    assert data.rules_version == 1
    assert [r.match_id for r in store.records_of(data.owner)] == [PLAYING]
    assert [t.id for t in LobbyStore(store).active()] == ["lobby1"]
    assert LobbyStore(store).results_for(data.owner)[0]["people"][0]["name"] == "Ann"


def test_the_server_refuses_an_older_revision_naming_the_command(
    tmp_path: Path, database_url: str
) -> None:
    engine = make_engine(database_url)
    upgrade(engine, to="0001")
    with pytest.raises(SchemaError, match=r"at schema revision 0001.*meldhall db upgrade"):
        Store(database_url)
    assert upgrade(engine) == ("0001", head())
    Store(database_url).close()


def test_a_new_database_is_made_at_the_newest_revision(database_url: str) -> None:
    store = Store(database_url)
    with store.engine.connect() as conn:
        assert revision_of(conn) == head()
    store.close()


def test_the_models_and_the_migrations_agree(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, all_metadata()) == []
    engine.dispose()


def test_a_match_of_other_rules_is_readable_never_replayed(
    tmp_path: Path, database_url: str, toy_registered: None
) -> None:
    from tests.server.conftest import Peer, make_client

    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        token = peer.hello()["token"]
        peer.send({"type": "start", "game": "toy"})
        match_id = peer.until("match")["match"]
    store = Store(database_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET rules_version = 0 WHERE id = :id"), {"id": match_id})
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello(token)
        peer.send({"type": "resume", "match": match_id})
        refused = peer.until("rejected")
        assert refused["code"] == "rules_changed" and "version 0" in refused["reason"]
        proof = client.get(f"/api/matches/{match_id}").json()
        assert proof["rules_version"] == 0 and "not played on" in proof["read_only"]
