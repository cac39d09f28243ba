"""Ratings per account and game (openskill's Plackett-Luce model), their history, the
leaderboard and the numbers of a profile.

Only finished online matches between at least two accounts are rated, and only among those
accounts: guests and computers do not count, the places are the accounts' places among
themselves (docs/people.md). A match is rated once (its history rows say it was).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce
from sqlalchemy import Select, func, select
from sqlalchemy.orm import sessionmaker

from meldhall.store.models import utcnow
from meldhall.store.people import AccountRow, RatingHistoryRow, RatingRow
from meldhall.store.repository import Store

MODEL = PlackettLuce()
PROVISIONAL = 5
"""Matches before a rating stops being provisional."""
Z = 3.0
SCALE = 40.0
BASE = 1000.0
"""A shown rating is ``BASE + SCALE * (mu - Z * sigma)``: a new account shows 1000."""


def shown(mu: float, sigma: float) -> int:
    """Return the rating shown for a (mu, sigma): the conservative estimate, scaled.

    >>> shown(25.0, 25.0 / 3)
    1000
    """
    return round(BASE + SCALE * (mu - Z * sigma))


@dataclass(frozen=True)
class Rating:
    """An account's rating in one game and its counts."""

    account_id: str
    name: str
    game: str
    rating: int
    mu: float
    sigma: float
    matches: int
    wins: int
    mean_place: float

    @property
    def provisional(self) -> bool:
        """Return whether too few matches were rated for the rating to mean much."""
        return self.matches < PROVISIONAL

    def to_json(self) -> dict[str, object]:
        """Return the rating as the API shows it (no internal id)."""
        return {
            "name": self.name,
            "game": self.game,
            "rating": self.rating,
            "provisional": self.provisional,
            "matches": self.matches,
            "wins": self.wins,
            "mean_place": round(self.mean_place, 2),
        }


@dataclass(frozen=True)
class Point:
    """A rating after one rated match."""

    match_id: str
    place: int
    rating: int
    at: datetime


class RatingStore:
    """Reads and writes of ratings, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def rate_match(self, match_id: str, game: str, places: Sequence[tuple[str, int]]) -> bool:
        """Rate a finished match among its accounts: ``places`` holds (account id, place
        among everyone, 1 best; equal places are ties). Return whether it was rated (not:
        fewer than two accounts, or rated before)."""
        accounts = dict(places)
        if len(accounts) < 2:
            return False
        ordered = sorted(accounts)
        with self._sessions() as db, db.begin():
            done = db.scalars(
                select(RatingHistoryRow.id).where(RatingHistoryRow.match_id == match_id)
            ).first()
            if done is not None:
                return False
            rows = {}
            for account in ordered:
                row = db.get(RatingRow, (account, game))
                if row is None:
                    fresh = MODEL.rating()
                    row = RatingRow(
                        account_id=account,
                        game=game,
                        mu=fresh.mu,
                        sigma=fresh.sigma,
                        matches=0,
                        wins=0,
                        place_sum=0,
                    )
                    db.add(row)
                rows[account] = row
            ranks = [accounts[a] for a in ordered]
            relative = {a: 1 + sum(r < accounts[a] for r in ranks) for a in ordered}
            teams = [[MODEL.create_rating([rows[a].mu, rows[a].sigma])] for a in ordered]
            new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
            now = utcnow()
            for account, (team,) in zip(ordered, new, strict=True):
                row = rows[account]
                row.mu, row.sigma = team.mu, team.sigma
                row.matches += 1
                row.wins += relative[account] == 1
                row.place_sum += relative[account]
                row.updated = now
                db.add(
                    RatingHistoryRow(
                        account_id=account,
                        game=game,
                        match_id=match_id,
                        place=relative[account],
                        mu=team.mu,
                        sigma=team.sigma,
                        at=now,
                    )
                )
        return True

    def _query(self, game: str) -> Select[RatingRow, str]:
        """Return the query of a game's ratings with their accounts' names."""
        return (
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.game == game)
        )

    def leaderboard(self, game: str, limit: int = 100) -> list[Rating]:
        """Return the best ``limit`` ratings of a game, best first (ties: more matches, then
        by name, so every database lists them in the same order)."""
        score = RatingRow.mu - Z * RatingRow.sigma
        with self._sessions() as db:
            rows = db.execute(
                self._query(game)
                .order_by(score.desc(), RatingRow.matches.desc(), AccountRow.name_key)
                .limit(limit)
            ).all()
            return [_rating(r, name) for r, name in rows]

    def place_of(self, account_id: str, game: str) -> int | None:
        """Return an account's place on a game's leaderboard (1 best), or None unrated."""
        score = RatingRow.mu - Z * RatingRow.sigma
        with self._sessions() as db:
            own = db.get(RatingRow, (account_id, game))
            if own is None:
                return None
            better = db.scalar(
                select(func.count())
                .select_from(RatingRow)
                .where(RatingRow.game == game, score > own.mu - Z * own.sigma)
            )
            return int(better or 0) + 1

    def ratings_of(self, account_id: str) -> list[Rating]:
        """Return an account's rating in every game it has one, by game id."""
        with self._sessions() as db:
            rows = db.execute(
                select(RatingRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.account_id == account_id)
                .order_by(RatingRow.game)
            ).all()
            return [_rating(r, name) for r, name in rows]

    def shown_ratings(self, account_ids: Sequence[str], game: str) -> dict[str, Rating]:
        """Return the ratings in a game of those accounts that have one, by account id."""
        if not account_ids:
            return {}
        with self._sessions() as db:
            rows = db.execute(
                self._query(game).where(RatingRow.account_id.in_(list(account_ids)))
            ).all()
            return {r.account_id: _rating(r, name) for r, name in rows}

    def history(self, account_id: str, game: str, limit: int = 500) -> list[Point]:
        """Return an account's rating after each of its latest ``limit`` rated matches of a
        game, oldest first."""
        with self._sessions() as db:
            rows = db.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.account_id == account_id, RatingHistoryRow.game == game)
                .order_by(RatingHistoryRow.id.desc())
                .limit(limit)
            ).all()
        return [Point(r.match_id, r.place, shown(r.mu, r.sigma), r.at) for r in reversed(rows)]


def _rating(row: RatingRow, name: str) -> Rating:
    return Rating(
        account_id=row.account_id,
        name=name,
        game=row.game,
        rating=shown(row.mu, row.sigma),
        mu=row.mu,
        sigma=row.sigma,
        matches=row.matches,
        wins=row.wins,
        mean_place=row.place_sum / row.matches if row.matches else 0.0,
    )
