"""Stored reviews: the strong bot's review of one seat of a finished match, kept with it."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import sessionmaker

from meldhall.store.models import ReviewRow
from meldhall.store.repository import Store


class ReviewStore:
    """Reads and writes of reviews, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
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
