"""The database engine of a URL: SQLite (the default, a file under the data folder) with its
pragmas, or PostgreSQL through psycopg 3 (``postgresql+psycopg://user:pass@host:port/db``)."""

from __future__ import annotations

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url

from meldhall.core.errors import MeldhallError
from meldhall.store.actionlog import sqlite_pragmas

SUPPORTED = ("sqlite", "postgresql")


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
        return create_engine(parsed, pool_pre_ping=True, pool_size=5, max_overflow=5)
    engine = create_engine(parsed)
    event.listen(engine, "connect", sqlite_pragmas)
    return engine


def shown_url(engine: Engine) -> str:
    """Return the engine's URL with its password hidden (for messages and logs)."""
    return engine.url.render_as_string(hide_password=True)
