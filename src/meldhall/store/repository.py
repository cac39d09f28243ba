"""The repository: every read and write the server and tables make, as plain values.

SQLite under the data directory by default (created on first use); any SQLAlchemy URL works.
Each call is one short transaction, committed before it returns, so an action appended here is
on disk before the table broadcasts it.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Text,
    and_,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    type_coerce,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from meldhall.store.actionlog import ActionLog, SqliteActionLog, action_log_for
from meldhall.store.checkpoint import Checkpointer
from meldhall.store.engine import make_engine
from meldhall.store.models import (
    ActionRow,
    MatchRow,
    QuarantineRow,
    RecordRow,
    SessionRow,
    SnapshotRow,
    utcnow,
)
from meldhall.store.schema import prepare_schema
from meldhall.store.snapshots import load_key

DB_NAME = "meldhall.sqlite3"


@dataclass(frozen=True)
class SessionInfo:
    """A session as the server sees it: its token, the commitment of its next match's secret
    and its matches in play by game id."""

    token: str
    next_commitment: str
    playing: dict[str, str]


@dataclass
class MatchData:
    """Everything stored about one match, its action log included."""

    id: str
    owner: str
    game: str
    options: dict[str, Any]
    seats: int
    players: list[dict[str, Any]]
    secret: str
    commitment: str
    contributions: list[str]
    status: str
    paused: bool = False
    last_hand: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    log: list[tuple[int, Any]] = field(default_factory=list)
    rules_version: int = 1
    """The version of the game's rules the match was started under."""


class BrokenMatch(Exception):
    """A stored match that cannot be rebuilt: an unreadable row, or a log entry that does not
    parse or apply. ``index`` is the failing log entry (None: the match row itself)."""

    def __init__(self, match_id: str, index: int | None, problem: str) -> None:
        where = "the match row" if index is None else f"log entry {index}"
        super().__init__(f"match {match_id}, {where}: {problem}")
        self.match_id = match_id
        self.index = index
        self.problem = problem


@dataclass(frozen=True)
class Quarantined:
    """A match set aside because it could not be rebuilt: where and why, and when."""

    match_id: str
    action_index: int | None
    problem: str
    at: str

    @property
    def summary(self) -> str:
        """Return where the match broke and why, in one line."""
        where = "the match row" if self.action_index is None else f"log entry {self.action_index}"
        return f"{where}: {self.problem}"


@dataclass(frozen=True)
class Snapshot:
    """A stored table state after the first ``index`` actions of a match's log."""

    index: int
    log_digest: str
    state: bytes


@dataclass(frozen=True)
class RecordData:
    """One completed solo result."""

    match_id: str
    game: str
    score: int
    rank: int
    higher_is_better: bool
    published: bool
    display_name: str
    finished: str


def _commit_of(secret_hex: str) -> str:
    from meldhall.core.fairness import commitment

    return commitment(bytes.fromhex(secret_hex))


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute(_NO_AUTOCHECKPOINT)


_NO_AUTOCHECKPOINT = "PRAGMA wal_autocheckpoint=0"


class Store:
    """The persistence of sessions, matches, action logs and records."""

    def __init__(self, url: str, snapshot_key: bytes | None = None) -> None:
        self.snapshot_key = snapshot_key or load_key(None)
        """The key that signs table snapshots (store/snapshots.py)."""
        self.engine: Engine = make_engine(url)
        prepare_schema(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._log: ActionLog | None = action_log_for(self.engine)
        self._lost_batch = False
        self._checkpointer: Checkpointer | None = None
        if self._log is not None:
            # the ORM never waits behind staged actions: they are committed first
            event.listen(self.engine, "checkout", self._commit_before_use)

    def start_checkpoints(self) -> None:
        """Copy the write-ahead log back from a thread of its own from now on, so that no
        commit waits for the disk (a SQLite file only; see store/checkpoint.py)."""
        if self._log is None or self._checkpointer is not None:
            return
        if not isinstance(self._log, SqliteActionLog):
            return
        self._log.conn.execute(_NO_AUTOCHECKPOINT)
        event.listen(self.engine, "connect", _no_autocheckpoint)
        self.engine.dispose()  # pooled connections reconnect without autocheckpoints
        path = self._log.conn.execute("PRAGMA database_list").fetchone()[2]
        self._checkpointer = Checkpointer(path)

    def stop_checkpoints(self) -> None:
        """Run a last checkpoint and stop the checkpoint thread."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None

    def close(self) -> None:
        """Commit what is staged, stop the checkpoints and close every connection."""
        with contextlib.suppress(Exception):
            self.commit_staged()
        self.stop_checkpoints()
        if self._log is not None:
            self._log.close()
            self._log = None
        self.engine.dispose()

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> Store:
        """Return the SQLite store of a data directory, creating both on first use."""
        path = Path(data_dir)
        path.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{(path / DB_NAME).resolve()}", load_key(path))

    def _db(self) -> Session:
        return self._sessions()

    # ------------------------------------------------------------------ sessions

    def has_session(self, token: str | None) -> bool:
        """Return whether a session with this token exists."""
        if not token:
            return False
        with self._db() as db:
            return db.get(SessionRow, token) is not None

    def session(self, token: str | None) -> SessionInfo:
        """Return the session of a token (marking it used now), or a new session when the
        token is unknown."""
        with self._db() as db, db.begin():
            row = db.get(SessionRow, token) if token else None
            if row is None:
                row = SessionRow(token=secrets.token_urlsafe(24), pending_secret=_new_secret())
                db.add(row)
            else:
                row.last_seen = utcnow()
            playing = db.execute(
                select(MatchRow.game, MatchRow.id)
                .where(MatchRow.owner == row.token, MatchRow.status == "playing")
                .order_by(MatchRow.created)
            ).all()
            return SessionInfo(row.token, _commit_of(row.pending_secret), dict(playing))

    def expire_sessions(
        self, idle: timedelta, unused: timedelta, now: datetime | None = None
    ) -> int:
        """Delete the sessions nobody uses and return how many: those unused for ``idle``
        with no match in play, and those never used again ``unused`` after they were made
        that own no match at all (a client's records stay, without their session). A session
        an account claimed stays (it names the account's person)."""
        now = now or utcnow()
        from meldhall.store.people import AccountRow

        owns = select(MatchRow.id).where(MatchRow.owner == SessionRow.token)
        plays = owns.where(MatchRow.status == "playing")
        claimed = select(AccountRow.id).where(AccountRow.session == SessionRow.token).exists()
        last = func.coalesce(SessionRow.last_seen, SessionRow.created)
        stale = and_(
            ~claimed,
            or_(
                and_(last < now - idle, ~plays.exists()),
                and_(
                    SessionRow.last_seen.is_(None),
                    SessionRow.created < now - unused,
                    ~owns.exists(),
                ),
            ),
        )
        with self._db() as db, db.begin():
            gone = db.execute(delete(SessionRow).where(stale))
            return int(getattr(gone, "rowcount", 0) or 0)

    def take_secret(self, token: str) -> str:
        """Return the session's committed secret and draw a fresh one for its next match."""
        with self._db() as db, db.begin():
            row = db.get(SessionRow, token)
            if row is None:
                raise KeyError(token)
            secret = row.pending_secret
            row.pending_secret = _new_secret()
            return secret

    # ------------------------------------------------------------------ matches

    def create_match(
        self,
        owner: str,
        game: str,
        options: dict[str, Any],
        players: Sequence[dict[str, Any]],
        secret: str,
        contributions: Sequence[str],
    ) -> MatchData:
        """Return a new stored match (status ``playing``, empty log)."""
        data = MatchData(
            id=str(uuid.uuid4()),
            owner=owner,
            game=game,
            options=dict(options),
            seats=len(players),
            players=[dict(p) for p in players],
            secret=secret,
            commitment=_commit_of(secret),
            contributions=list(contributions),
            status="playing",
            rules_version=rules_version_of(game),
        )
        with self._db() as db, db.begin():
            db.add(
                MatchRow(
                    id=data.id,
                    owner=owner,
                    game=game,
                    options=data.options,
                    seats=data.seats,
                    players=data.players,
                    secret=secret,
                    commitment=data.commitment,
                    contributions=data.contributions,
                    status="playing",
                    rules_version=data.rules_version,
                )
            )
        return data

    def stage_action(self, match_id: str, index: int, seat: int, action: Any) -> None:
        """Write one accepted action into the open batch of the action log; it is durable
        once ``commit_staged`` returns (any other use of the database commits it first).
        Without a batched log (in-memory SQLite, other databases) it is committed at once."""
        if self._log is None:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(ActionRow),
                    {"match_id": match_id, "index": index, "seat": seat, "action": action},
                )
            return
        self._log.stage(match_id, index, seat, action)

    def commit_staged(self) -> None:
        """Commit the staged actions (on failure they are rolled back and the error raised)."""
        if self._log is None or not self._log.staged:
            return
        try:
            self._log.commit()
        except Exception:
            self._lost_batch = True
            raise

    def lost_batch(self) -> bool:
        """Return whether a commit of staged actions failed since the last call (and forget
        it): the tables that staged them must go back to the stored log."""
        lost, self._lost_batch = self._lost_batch, False
        return lost

    def fence_actions(self, fences: dict[str, int]) -> None:
        """Insert a match's actions from now on only while its fence row holds the token of
        ``fences`` (store/fences.py: a site of many processes); raise ``ValueError`` for a
        store with no batched action log (in-memory SQLite)."""
        if self._log is None:
            raise ValueError(f"the database {self.engine.url!r} cannot fence its action log")
        self._log.fence(fences)

    def refused_matches(self) -> set[str]:
        """Return the matches whose committed actions the fence refused since the last call
        (their tables lost their lease: nothing of them was stored)."""
        return set() if self._log is None else self._log.take_refused()

    def _commit_before_use(self, *_args: Any) -> None:
        self.commit_staged()

    def set_pause(self, match_id: str, paused: bool, last_hand: dict[str, Any] | None) -> None:
        """Record whether a match waits for its person to start the next hand (after the
        staged actions: they are committed first)."""
        if self._log is not None:
            self.commit_staged()
            hand = None if last_hand is None else json.dumps(last_hand)
            self._log.set_pause(match_id, paused, hand)
            return
        with self._db() as db, db.begin():
            row = db.get(MatchRow, match_id)
            if row is not None:
                row.paused = paused
                if last_hand is not None:
                    row.last_hand = last_hand

    def finish_match(self, match_id: str, outcome: dict[str, Any], status: str = "over") -> None:
        """Mark a match completed (or abandoned) with its outcome."""
        with self._db() as db, db.begin():
            row = db.get(MatchRow, match_id)
            if row is not None:
                row.status = status
                row.outcome = outcome
                row.finished = utcnow()

    def load_match(self, match_id: str) -> MatchData | None:
        """Return a stored match with its whole log, or None; raise ``BrokenMatch`` when a
        row of it cannot be read."""
        with self._db() as db:
            try:
                row = db.get(MatchRow, match_id)
            except (ValueError, TypeError) as exc:
                raise BrokenMatch(match_id, None, f"unreadable: {exc}") from exc
            if row is None:
                return None
            raw = db.execute(
                select(ActionRow.index, ActionRow.seat, type_coerce(ActionRow.action, Text))
                .where(ActionRow.match_id == match_id)
                .order_by(ActionRow.index)
            ).all()
            return MatchData(
                id=row.id,
                owner=row.owner,
                game=row.game,
                options=dict(row.options),
                seats=row.seats,
                players=list(row.players),
                secret=row.secret,
                commitment=row.commitment,
                contributions=list(row.contributions),
                status=row.status,
                paused=row.paused,
                last_hand=row.last_hand,
                outcome=row.outcome,
                log=_read_log(match_id, raw),
                rules_version=row.rules_version,
            )

    # ------------------------------------------------------------------ quarantine

    def quarantine(self, match_id: str, index: int | None, problem: str) -> Quarantined:
        """Set a match aside (it is never loaded again) and return the entry."""
        with self._db() as db, db.begin():
            row = db.get(QuarantineRow, match_id)
            if row is None:
                row = QuarantineRow(
                    match_id=match_id, action_index=index, problem=problem, at=utcnow()
                )
                db.add(row)
            return _quarantined(row)

    def quarantined(self, match_id: str) -> Quarantined | None:
        """Return the quarantine entry of a match, or None when it is not set aside."""
        with self._db() as db:
            row = db.get(QuarantineRow, match_id)
            return None if row is None else _quarantined(row)

    def quarantine_list(self) -> list[Quarantined]:
        """Return every match set aside, oldest first."""
        with self._db() as db:
            rows = db.scalars(select(QuarantineRow).order_by(QuarantineRow.at)).all()
            return [_quarantined(r) for r in rows]

    def raw_match(self, match_id: str) -> dict[str, Any]:
        """Return a match's stored rows as they are (text, readable or not), for an operator
        to study: its columns (``row``) and its log entries ``[index, seat, action text]``."""
        table = MatchRow.__table__
        with self._db() as db:
            row = db.execute(
                select(*(type_coerce(c, Text) for c in table.columns)).where(table.c.id == match_id)
            ).first()
            log = db.execute(
                select(ActionRow.index, ActionRow.seat, type_coerce(ActionRow.action, Text))
                .where(ActionRow.match_id == match_id)
                .order_by(ActionRow.index)
            ).all()
        names = [c.name for c in table.columns]
        return {
            "row": None if row is None else dict(zip(names, row, strict=True)),
            "log": [[i, seat, action] for i, seat, action in log],
        }

    # ------------------------------------------------------------------ snapshots

    def save_snapshot(self, match_id: str, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the latest of a match (replacing an older one)."""
        with self._db() as db, db.begin():
            row = db.get(SnapshotRow, match_id)
            if row is None:
                row = SnapshotRow(match_id=match_id)
                db.add(row)
            row.index = snapshot.index
            row.log_digest = snapshot.log_digest
            row.state = snapshot.state

    def snapshot(self, match_id: str) -> Snapshot | None:
        """Return the latest stored snapshot of a match, or None."""
        with self._db() as db:
            row = db.get(SnapshotRow, match_id)
            return None if row is None else Snapshot(row.index, row.log_digest, row.state)

    # ------------------------------------------------------------------ records

    def add_record(
        self, match_id: str, session: str, game: str, score: int, rank: int, higher: bool
    ) -> None:
        """Enter a completed solo result in its player's records (once per match)."""
        with self._db() as db, db.begin():
            if db.get(RecordRow, match_id) is None:
                db.add(
                    RecordRow(
                        match_id=match_id,
                        session=session,
                        game=game,
                        score=score,
                        rank=rank,
                        higher_is_better=higher,
                    )
                )

    def records_of(self, session: str) -> list[RecordData]:
        """Return every result of a session, newest first."""
        with self._db() as db:
            rows = db.scalars(
                select(RecordRow)
                .where(RecordRow.session == session)
                .order_by(RecordRow.finished.desc())
            ).all()
            return [_record(r) for r in rows]

    def public_records(self, limit: int = 200) -> list[RecordData]:
        """Return published results, newest first."""
        with self._db() as db:
            rows = db.scalars(
                select(RecordRow)
                .where(RecordRow.published.is_(True))
                .order_by(RecordRow.finished.desc())
                .limit(limit)
            ).all()
            return [_record(r) for r in rows]

    def publish(self, match_id: str, session: str, name: str) -> bool:
        """Publish a session's own result under a display name; return whether it existed."""
        with self._db() as db, db.begin():
            row = db.get(RecordRow, match_id)
            if row is None or row.session != session:
                return False
            row.published = True
            row.display_name = name
            return True


def best_per_game(records: Sequence[RecordData]) -> dict[str, RecordData]:
    """Return each game's best result (lowest or highest score, as that game ranks them)."""
    best: dict[str, RecordData] = {}
    for rec in records:
        old = best.get(rec.game)
        if old is None or _better(rec, old):
            best[rec.game] = rec
    return best


def _better(a: RecordData, b: RecordData) -> bool:
    return a.score > b.score if a.higher_is_better else a.score < b.score


def _record(row: RecordRow) -> RecordData:
    return RecordData(
        match_id=row.match_id,
        game=row.game,
        score=row.score,
        rank=row.rank,
        higher_is_better=row.higher_is_better,
        published=row.published,
        display_name=row.display_name,
        finished=row.finished.isoformat(timespec="seconds"),
    )


def _read_log(match_id: str, rows: Sequence[Any]) -> list[tuple[int, Any]]:
    """Return a log from its rows ``(index, seat, action JSON text)``; raise ``BrokenMatch``
    at the first entry that is missing or not JSON."""
    log: list[tuple[int, Any]] = []
    for expected, (index, seat, text) in enumerate(rows):
        if index != expected:
            raise BrokenMatch(match_id, expected, f"log entry {expected} is missing")
        try:
            action = json.loads(text) if isinstance(text, str | bytes) else text
        except ValueError as exc:
            raise BrokenMatch(match_id, index, f"not JSON: {exc}") from exc
        log.append((seat, action))
    return log


def _quarantined(row: QuarantineRow) -> Quarantined:
    return Quarantined(
        row.match_id, row.action_index, row.problem, row.at.isoformat(timespec="seconds")
    )


def rules_version_of(game_id: str) -> int:
    """Return the version of a game's rules now (its declaration's ``rules_version``)."""
    from meldhall.games.registry import find_game

    return find_game(game_id).rules_version


def stale_rules(data: MatchData) -> str | None:
    """Return why a stored match cannot go on under the game's rules of now (it was started
    under another version of them), or None when it can."""
    now = rules_version_of(data.game)
    if data.rules_version == now:
        return None
    return (
        f"this match was played under version {data.rules_version} of the {data.game} rules "
        f"and the server now has version {now}: it can be watched, not played on"
    )


def _new_secret() -> str:
    return secrets.token_hex(32)
