"""The tables of the store: sessions, matches (options + seed commitment + action log), records.

A match is kept as what is needed to rebuild it exactly: game id, options, seats, the seed
secret and the players' contributions, and its action log. Its state is never stored; it is
replayed (DESIGN.md, "Server and tables").
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of every meldhall table."""


class SessionRow(Base):
    """A browser session: its token and the secret its next match will commit to."""

    __tablename__ = "sessions"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    pending_secret: Mapped[str] = mapped_column(String(64))
    last_seen: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    """When the session last said hello (None: not since it was created); sessions unused
    for long are deleted (server/limits.py)."""


class MatchRow(Base):
    """One match: what rebuilds it (game, options, seats, secret, contributions) and status."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    owner: Mapped[str] = mapped_column(String(64), index=True)
    """The session that started the match (solo: the person)."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[Any]] = mapped_column(JSON)
    """One entry per seat: ``{"kind": "person", "session": token}`` or
    ``{"kind": "bot", "bot": name}``."""
    secret: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    contributions: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    """``playing``, ``over`` (completed) or ``abandoned``."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    """True after a hand ended until the person asks for the next hand."""
    last_hand: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The public ``hand_over`` event of the latest finished hand."""
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    """The version of the game's rules the match was started under (migration 0002)."""


class ActionRow(Base):
    """One accepted action of a match's log, at its index."""

    __tablename__ = "actions"
    __table_args__ = ({"sqlite_with_rowid": False},)  # one b-tree: less to write per action

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[Any] = mapped_column(JSON)


class RecordRow(Base):
    """A completed solo match's result for the person who played it."""

    __tablename__ = "records"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    session: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    score: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    higher_is_better: Mapped[bool] = mapped_column(Boolean)
    published: Mapped[bool] = mapped_column(Boolean, default=False)
    display_name: Mapped[str] = mapped_column(Text, default="")
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class QuarantineRow(Base):
    """A match whose stored data could not be replayed: it is never loaded again until an
    operator looks at it (``meldhall quarantine``)."""

    __tablename__ = "quarantine"

    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    action_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The index of the log entry that failed (None: the match itself could not be read)."""
    problem: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SnapshotRow(Base):
    """The latest stored state of a match's table, after its first ``index`` actions: a
    reload replays only the actions after it."""

    __tablename__ = "snapshots"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer)
    log_digest: Mapped[str] = mapped_column(String(64))
    """sha256 of the log entry it follows (store/snapshots.py): one of another log is
    ignored."""
    state: Mapped[bytes] = mapped_column(LargeBinary)
    """The table's state, signed (store/snapshots.py)."""


class ReviewRow(Base):
    """The strong bot's review of one seat of a finished match (``review.Review.to_json``)."""

    __tablename__ = "reviews"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
