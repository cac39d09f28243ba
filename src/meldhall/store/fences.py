"""Fencing tokens of the tables of a site with many server processes (server/cluster/).

Each table in play has one owning process, which holds its lease in Redis; every lease comes
with a fencing token that only grows. The owner writes its token into ``table_fences`` before
it loads the match, and every batch of actions it commits carries it: the store inserts the
actions of a match only while its row holds that very token (the insert locks the row, so a
takeover waits for a commit in flight, then the old owner is refused). A process that lost
its lease can therefore never write an action, whatever its clock or its pauses.

Without a site (one process, no Redis) nothing here is used.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, String, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class FenceBase(DeclarativeBase):
    """The declarative base of the fencing table."""


class FenceRow(FenceBase):
    """The fencing token of the process that owns a match's table now."""

    __tablename__ = "table_fences"

    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    fence: Mapped[int] = mapped_column(BigInteger)
    owner: Mapped[str] = mapped_column(String(120))
    """The server process that holds the lease (for an operator to read)."""


RAISE_FENCE = text(
    "INSERT INTO table_fences (match_id, fence, owner) VALUES (:match, :fence, :owner) "
    "ON CONFLICT (match_id) DO UPDATE SET fence = excluded.fence, owner = excluded.owner "
    "WHERE table_fences.fence <= excluded.fence RETURNING fence"
)


def raise_fence(engine: Engine, match_id: str, fence: int, owner: str) -> bool:
    """Set a match's fencing token to ``fence`` (for ``owner``) and return True (also when it
    holds that token already), or return False (changing nothing) when it holds a newer one:
    another process took the table over since that token was drawn."""
    if fence <= 0:
        raise ValueError(f"a fencing token is a positive number, not {fence!r}")
    with engine.begin() as conn:
        row = conn.execute(RAISE_FENCE, {"match": match_id, "fence": fence, "owner": owner})
        return row.first() is not None


def fence_of(engine: Engine, match_id: str) -> int | None:
    """Return the fencing token a match's row holds now, or None when it has none."""
    with engine.connect() as conn:
        value = conn.execute(
            text("SELECT fence FROM table_fences WHERE match_id = :match"), {"match": match_id}
        ).scalar()
        return None if value is None else int(value)
