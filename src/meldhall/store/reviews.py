"""Stored reviews: the strong bot's review of one seat of a finished match, kept with it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from meldhall.store.models import Base, utcnow
from meldhall.store.repository import Store


class ReviewRow(Base):
    """The review of one seat of a match (``review.Review.to_json``)."""

    __tablename__ = "reviews"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReviewStore:
    """Reads and writes of reviews, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
        Base.metadata.create_all(store.engine, tables=[ReviewRow.__table__])  # type: ignore[list-item]
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def save(self, match_id: str, seat: int, review: dict[str, Any]) -> None:
        """Store (or replace) the review of a seat of a match."""
        with self._sessions() as db, db.begin():
            row = db.get(ReviewRow, (match_id, seat))
            if row is None:
                db.add(ReviewRow(match_id=match_id, seat=seat, review=review))
            else:
                row.review = review

    def load(self, match_id: str, seat: int) -> dict[str, Any] | None:
        """Return the stored review of a seat of a match, or None."""
        with self._sessions() as db:
            row = db.get(ReviewRow, (match_id, seat))
            return None if row is None else dict(row.review)
