"""The online part of the store: lobby tables (who sits where, table options, the match they
started) and the results of online matches, kept apart from the solo records.

Its tables live in their own metadata on the same database engine as ``Store``; every call is
one short committed transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Integer, String, Text, select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from meldhall.store.models import utcnow
from meldhall.store.repository import Store


class LobbyBase(DeclarativeBase):
    """The declarative base of the online tables."""


class LobbyRow(LobbyBase):
    """One online table: game, options, table options, the people seated and its status."""

    __tablename__ = "lobby_tables"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Table options: clocks, takeover delay, countdown (see tables/online.py)."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    host: Mapped[str] = mapped_column(String(64))
    people: Mapped[list[Any]] = mapped_column(JSON)
    """``[{"session": token, "name": display name}, ...]`` in the order they joined."""
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    """``waiting``, ``playing``, ``over`` or ``closed``."""
    match_id: Mapped[str | None] = mapped_column(String(36), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OnlineResultRow(LobbyBase):
    """One person's result in a finished online match."""

    __tablename__ = "online_results"

    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    session: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(Text)
    game: Mapped[str] = mapped_column(String(40))
    score: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass
class LobbyData:
    """A lobby table as plain values."""

    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    public: bool
    host: str
    people: list[dict[str, Any]] = field(default_factory=list)
    status: str = "waiting"
    match_id: str | None = None


class LobbyStore:
    """Reads and writes of the online tables, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
        LobbyBase.metadata.create_all(store.engine)
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def save(self, table: LobbyData) -> None:
        """Write a lobby table (insert or update)."""
        with self._sessions() as db, db.begin():
            row = db.get(LobbyRow, table.id)
            if row is None:
                row = LobbyRow(id=table.id)
                db.add(row)
            row.game = table.game
            row.options = dict(table.options)
            row.settings = dict(table.settings)
            row.public = table.public
            row.host = table.host
            row.people = [dict(p) for p in table.people]
            row.status = table.status
            row.match_id = table.match_id

    def get(self, table_id: str) -> LobbyData | None:
        """Return one lobby table, or None when there is no such table."""
        with self._sessions() as db:
            row = db.get(LobbyRow, table_id)
            return None if row is None else _data(row)

    def active(self) -> list[LobbyData]:
        """Return every lobby table still waiting or playing, oldest first."""
        with self._sessions() as db:
            rows = db.scalars(
                select(LobbyRow)
                .where(LobbyRow.status.in_(("waiting", "playing")))
                .order_by(LobbyRow.created)
            ).all()
            return [_data(r) for r in rows]

    def add_results(
        self, match_id: str, game: str, rows: list[tuple[int, str, str, int, int]]
    ) -> None:
        """Store the results of a finished online match: (seat, session, name, score, rank)."""
        with self._sessions() as db, db.begin():
            for seat, session, name, score, rank in rows:
                if db.get(OnlineResultRow, (match_id, seat)) is None:
                    db.add(
                        OnlineResultRow(
                            match_id=match_id,
                            seat=seat,
                            session=session,
                            name=name,
                            game=game,
                            score=score,
                            rank=rank,
                        )
                    )

    def results_for(self, session: str, limit: int = 100) -> list[dict[str, Any]]:
        """Return a session's finished online matches, newest first: game, when, its own seat,
        score and place, and every person's name, score and place by seat."""
        with self._sessions() as db:
            own = db.scalars(
                select(OnlineResultRow)
                .where(OnlineResultRow.session == session)
                .order_by(OnlineResultRow.finished.desc())
                .limit(limit)
            ).all()
            everyone = db.scalars(
                select(OnlineResultRow)
                .where(OnlineResultRow.match_id.in_([r.match_id for r in own]))
                .order_by(OnlineResultRow.seat)
            ).all()
        people: dict[str, list[dict[str, Any]]] = {}
        for r in everyone:
            people.setdefault(r.match_id, []).append(
                {"seat": r.seat, "name": r.name, "score": r.score, "rank": r.rank}
            )
        return [
            {
                "match": r.match_id,
                "game": r.game,
                "finished": r.finished.isoformat(),
                "seat": r.seat,
                "score": r.score,
                "rank": r.rank,
                "people": people.get(r.match_id, []),
            }
            for r in own
        ]


def _data(row: LobbyRow) -> LobbyData:
    return LobbyData(
        id=row.id,
        game=row.game,
        options=dict(row.options),
        settings=dict(row.settings),
        public=row.public,
        host=row.host,
        people=list(row.people),
        status=row.status,
        match_id=row.match_id,
    )
