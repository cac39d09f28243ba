"""Accounts and their sign-in sessions (tables of store/people.py).

The store checks nothing about names or passwords: the server gives it the name's confusable
key and the password's hash (server/accounts.py). Every call is one committed transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from meldhall.core.errors import MeldhallError
from meldhall.store.lobby import OnlineResultRow
from meldhall.store.models import MatchRow, RecordRow, SessionRow
from meldhall.store.people import (
    AccountRow,
    AccountSessionRow,
    ChatMessageRow,
    RatingHistoryRow,
    RatingRow,
)
from meldhall.store.repository import Store, _new_secret


class AccountConflict(MeldhallError):
    """A claim or rename the store refuses; ``code`` is ``name_taken`` or ``already_claimed``."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class AccountData:
    """An account as plain values (never its password hash but for checking)."""

    id: str
    name: str
    session: str
    solo_token: str | None
    password_hash: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _data(row: AccountRow) -> AccountData:
    return AccountData(row.id, row.name, row.session, row.solo_token, row.password_hash)


class AccountStore:
    """Reads and writes of accounts, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def claim(
        self, session: str, name: str, key: str, password_hash: str, solo_token: str | None
    ) -> AccountData:
        """Return the new account of a guest session; raise ``AccountConflict`` when the
        name's key is taken or the session already has an account (nothing is written)."""
        if self.by_key(key) is not None:
            raise AccountConflict("name_taken", f"the name {name!r} (or one like it) is taken")
        if self.by_session(session) is not None:
            raise AccountConflict("already_claimed", "this browser's guest has an account")
        row = AccountRow(
            id=secrets.token_hex(16),
            name=name,
            name_key=key,
            password_hash=password_hash,
            session=session,
            solo_token=solo_token or None,
        )
        try:
            with self._sessions() as db, db.begin():
                if db.get(SessionRow, session) is None:
                    db.add(SessionRow(token=session, pending_secret=_new_secret()))
                db.add(row)
        except IntegrityError:  # a claim of the same name at the same moment
            raise AccountConflict("name_taken", f"the name {name!r} is taken") from None
        return _data(row)

    def by_key(self, key: str) -> AccountData | None:
        """Return the account of a name key, or None."""
        with self._sessions() as db:
            row = db.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()
            return _data(row) if row else None

    def by_session(self, session: str) -> AccountData | None:
        """Return the account that claimed a guest session, or None."""
        with self._sessions() as db:
            row = db.scalars(select(AccountRow).where(AccountRow.session == session)).first()
            return _data(row) if row else None

    def by_id(self, account_id: str) -> AccountData | None:
        """Return an account by id, or None."""
        with self._sessions() as db:
            row = db.get(AccountRow, account_id)
            return _data(row) if row else None

    def accounts_of(self, sessions: list[str]) -> dict[str, AccountData]:
        """Return the accounts of those guest sessions that have one, by session."""
        if not sessions:
            return {}
        with self._sessions() as db:
            rows = db.scalars(select(AccountRow).where(AccountRow.session.in_(sessions))).all()
            return {r.session: _data(r) for r in rows}

    def sign_in(self, account_id: str) -> str:
        """Return the secret of a new signed-in browser of an account (only its sha256 is
        kept); the account's guest session exists again if it had expired."""
        secret = secrets.token_urlsafe(32)
        with self._sessions() as db, db.begin():
            account = db.get(AccountRow, account_id)
            if account is None:
                raise KeyError(account_id)
            if db.get(SessionRow, account.session) is None:
                db.add(SessionRow(token=account.session, pending_secret=_new_secret()))
            db.add(AccountSessionRow(secret_hash=_digest(secret), account_id=account_id))
        return secret

    def signed_in(self, secret: str | None) -> AccountData | None:
        """Return the account a browser's sign-in secret belongs to, or None."""
        if not secret:
            return None
        with self._sessions() as db:
            row = db.get(AccountSessionRow, _digest(secret))
            if row is None:
                return None
            account = db.get(AccountRow, row.account_id)
            return _data(account) if account else None

    def sign_out(self, secret: str) -> bool:
        """Forget a browser's sign-in; return whether it was signed in."""
        with self._sessions() as db, db.begin():
            gone = db.execute(
                delete(AccountSessionRow).where(AccountSessionRow.secret_hash == _digest(secret))
            )
            return bool(getattr(gone, "rowcount", 0))

    def rename(self, account_id: str, name: str, key: str) -> AccountData:
        """Return the account with its new display name; raise ``AccountConflict`` when
        another account has a name of that key."""
        other = self.by_key(key)
        if other is not None and other.id != account_id:
            raise AccountConflict("name_taken", f"the name {name!r} (or one like it) is taken")
        with self._sessions() as db, db.begin():
            row = db.get(AccountRow, account_id)
            if row is None:
                raise KeyError(account_id)
            row.name, row.name_key = name, key
            return _data(row)

    def delete(self, account_id: str) -> bool:
        """Delete an account, its sign-ins and ratings; its matches and results stay with
        its name removed (online results, published records, chat, the matches' seat names).
        Return whether there was such an account."""
        with self._sessions() as db, db.begin():
            row = db.get(AccountRow, account_id)
            if row is None:
                return False
            session = row.session
            for table in (AccountSessionRow, RatingHistoryRow, RatingRow):
                db.execute(delete(table).where(table.account_id == account_id))
            db.delete(row)
            db.execute(
                update(OnlineResultRow).where(OnlineResultRow.session == session).values(name="")
            )
            db.execute(
                update(ChatMessageRow).where(ChatMessageRow.session == session).values(name="")
            )
            owners = [session, *([row.solo_token] if row.solo_token else [])]
            db.execute(
                update(RecordRow)
                .where(RecordRow.session.in_(owners))
                .values(display_name="", published=False)
            )
            played = select(OnlineResultRow.match_id).where(OnlineResultRow.session == session)
            for match in db.scalars(select(MatchRow).where(MatchRow.id.in_(played))).all():
                match.players = [
                    {**p, "name": ""} if p.get("session") == session else p for p in match.players
                ]
        return True
