"""The database engine of a URL: SQLite (the default, a file under the data folder) with its
pragmas, or PostgreSQL through psycopg 3 (``postgresql+psycopg://user:pass@host:port/db``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url

from meldhall.core.errors import MeldhallError
from meldhall.store.actionlog import sqlite_pragmas

SUPPORTED = ("sqlite", "postgresql")
IDLE_IN_TRANSACTION_MS = 4000
"""How long a PostgreSQL session may sit idle inside a transaction before the server ends
it (meldhall's transactions never wait on anything but their own statements)."""


def _end_idle_transactions(connection: Any, _record: Any) -> None:
    """Have PostgreSQL end this session when it sits idle in a transaction: a process paused
    inside a fenced commit (which locks its fence row) must not keep another process from
    taking its tables over."""
    connection.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}")
    connection.commit()


class DatabaseUrlError(MeldhallError):
    """A database URL meldhall cannot use."""


def make_engine(url: str) -> Engine:
    """Return the SQLAlchemy engine of ``url`` (SQLite connections get meldhall's pragmas;
    a PostgreSQL URL without a driver uses psycopg 3)."""
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise DatabaseUrlError(f"the database URL {url!r} cannot be read: {exc}") from None
    backend = parsed.get_backend_name()
    if backend not in SUPPORTED:
        raise DatabaseUrlError(
            f"the database URL {parsed!r} is neither sqlite:///FILE nor postgresql+psycopg://..."
        )
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        engine = create_engine(parsed, pool_pre_ping=True, pool_size=5, max_overflow=5)
        event.listen(engine, "connect", _end_idle_transactions)
        return engine
    engine = create_engine(parsed)
    event.listen(engine, "connect", sqlite_pragmas)
    return engine


def shown_url(engine: Engine) -> str:
    """Return the engine's URL with its password hidden (for messages and logs)."""
    return engine.url.render_as_string(hide_password=True)
