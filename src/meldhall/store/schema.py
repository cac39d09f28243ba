"""The database schema and its migrations (Alembic, scripts in store/migrations/versions).

A new empty database is created at the newest revision; a database at an older revision (or
made before migrations existed) is refused until ``meldhall db upgrade`` brings it up to date,
so a server never starts on tables that miss a column it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection, Engine

from meldhall.core.errors import MeldhallError
from meldhall.store.engine import shown_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
"""The revision of the schema as it was before migrations existed."""
_LOCK = 0x6D656C64  # PostgreSQL advisory lock of schema changes ("meld")


class SchemaError(MeldhallError):
    """A database whose schema this version of meldhall cannot use as it is."""


def all_metadata() -> list[MetaData]:
    """Return the metadata of every meldhall table (solo store, online lobby, people,
    fencing tokens)."""
    from meldhall.store.fences import FenceBase
    from meldhall.store.lobby import LobbyBase
    from meldhall.store.models import Base
    from meldhall.store.people import PeopleBase

    return [Base.metadata, LobbyBase.metadata, PeopleBase.metadata, FenceBase.metadata]


def alembic_config(connection: Connection) -> Config:
    """Return the Alembic configuration of the migrations, running on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """Return the newest revision of the migrations."""
    revision = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert revision is not None
    return revision


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """Yield a connection in a transaction that holds the schema lock (PostgreSQL: processes
    starting together create the tables once)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        yield conn


def revision_of(conn: Connection) -> str | None:
    """Return the database's revision: None for an empty database, ``BASELINE`` for one made
    before migrations existed (meldhall's tables, no revision recorded)."""
    current = MigrationContext.configure(conn).get_current_revision()
    if current is not None:
        return current
    return BASELINE if inspect(conn).has_table("matches") else None


def prepare_schema(engine: Engine) -> None:
    """Create the tables of an empty database at the newest revision; raise ``SchemaError``
    (naming the command to run) for a database at another revision."""
    with _locked(engine) as conn:
        current = revision_of(conn)
        if current is None:
            for metadata in all_metadata():
                metadata.create_all(conn)
            command.stamp(alembic_config(conn), "head")
            return
    newest = head()
    if current == newest:
        return
    url = shown_url(engine)
    if current not in {s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}:
        raise SchemaError(
            f"the database {url} is at revision {current}, newer than this meldhall ({newest}); "
            "run a newer meldhall"
        )
    raise SchemaError(
        f"the database {url} is at schema revision {current}, this meldhall needs {newest}: "
        f"run `meldhall db upgrade --database-url '{url}'` first (back it up before: "
        "docs/operations.md)"
    )


def upgrade(engine: Engine, to: str = "head") -> tuple[str | None, str]:
    """Bring the database to revision ``to`` (default: the newest); return its revision
    before and after."""
    with _locked(engine) as conn:
        before = revision_of(conn)
        config = alembic_config(conn)
        if before == BASELINE and MigrationContext.configure(conn).get_current_revision() is None:
            command.stamp(config, BASELINE)
        command.upgrade(config, to)
        return before, head() if to == "head" else to
