"""The people of a server: accounts, ratings and chat stores, the sign-in rate limits, and what
the lobby and tables ask of them (the name a session shows, the ratings of seats).

Computers and guests are not rated: a finished online match is rated among its accounts only,
by their places among themselves, when it seats at least two (docs/people.md).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from meldhall.server.names import name_key
from meldhall.store.accounts import AccountData, AccountStore
from meldhall.store.chat import ChatStore
from meldhall.store.ratings import RatingStore
from meldhall.store.repository import Store

log = logging.getLogger(__name__)


class Attempts:
    """A sliding window of counted attempts per key: at most ``most`` in ``seconds``."""

    def __init__(self, most: int, seconds: float) -> None:
        self.most, self.seconds = most, seconds
        self._at: dict[str, deque[float]] = {}

    def _window(self, key: str, now: float) -> deque[float]:
        times = self._at.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return times

    def wait(self, key: str, now: float | None = None) -> float:
        """Return the seconds before ``key`` may try again (0: it may now)."""
        now = time.monotonic() if now is None else now
        times = self._window(key, now)
        if len(times) < self.most:
            if not times:
                self._at.pop(key, None)
            return 0.0
        return max(0.0, times[0] + self.seconds - now)

    def count(self, key: str, now: float | None = None) -> None:
        """Count one attempt of ``key``."""
        now = time.monotonic() if now is None else now
        self._window(key, now).append(now)

    def clear(self, key: str) -> None:
        """Forget a key's attempts (a successful sign-in)."""
        self._at.pop(key, None)


SIGN_IN_PER_NAME = (5, 900.0)
"""Failed sign-ins of one name allowed in 15 minutes."""
SIGN_IN_PER_ADDRESS = (20, 900.0)
"""Failed sign-ins from one address allowed in 15 minutes."""
CLAIMS_PER_ADDRESS = (10, 3600.0)
"""Accounts (and renames) one address may make in an hour."""
CLAIMS_PER_NAME = (5, 3600.0)
"""Claims and renames of one name (and its look-alikes) allowed in an hour."""


def author_id(session: str) -> str:
    """Return the public id of a chat author: a digest of its session, never the token.

    >>> len(author_id("some-token"))
    16
    """
    return hashlib.sha256(b"meldhall-author\0" + session.encode()).hexdigest()[:16]


class People:
    """Accounts, ratings and chat of one server."""

    def __init__(self, store: Store, chat_on: bool = True) -> None:
        self.accounts = AccountStore(store)
        self.ratings = RatingStore(store)
        self.chat = ChatStore(store)
        self.chat_on = chat_on
        """Whether table chat is on at all (setting ``--chat``)."""
        self.sign_in_name = Attempts(*SIGN_IN_PER_NAME)
        self.sign_in_address = Attempts(*SIGN_IN_PER_ADDRESS)
        self.claims = Attempts(*CLAIMS_PER_ADDRESS)
        self.claim_names = Attempts(*CLAIMS_PER_NAME)

    def account_of(self, session: str | None) -> AccountData | None:
        """Return the account whose guest session this is, or None (a guest)."""
        return self.accounts.by_session(session) if session else None

    def shown_name(self, session: str | None, raw: str) -> str:
        """Return the name a session shows at a table: its account's name, or the guest's
        chosen name unless an account holds a name like it (then ``raw`` with a mark that
        it is a guest's, so nobody passes as an account holder)."""
        account = self.account_of(session)
        if account is not None:
            return account.name
        if raw and self.accounts.by_key(name_key(raw)) is not None:
            return f"{raw}?"
        return raw

    def seat_ratings(self, game: str, sessions: Sequence[str]) -> list[dict[str, Any] | None]:
        """Return, per session, its account's rating in a game (``{"rating", "provisional"}``;
        a new account shows the starting rating, provisional), or None for a guest."""
        accounts = self.accounts.accounts_of([s for s in sessions if s])
        rated = self.ratings.shown_ratings([a.id for a in accounts.values()], game)
        out: list[dict[str, Any] | None] = []
        for session in sessions:
            account = accounts.get(session)
            if account is None:
                out.append(None)
                continue
            rating = rated.get(account.id)
            out.append(
                {"rating": rating.rating, "provisional": rating.provisional}
                if rating
                else {"rating": 1000, "provisional": True}
            )
        return out

    def rate(self, match_id: str, game: str, places: Sequence[tuple[str, int]]) -> bool:
        """Rate a finished online match from (session, place) of its people seats; return
        whether it was rated (at least two accounts)."""
        accounts = self.accounts.accounts_of([s for s, _ in places])
        rated = [(accounts[s].id, place) for s, place in places if s in accounts]
        try:
            return self.ratings.rate_match(match_id, game, rated)
        except Exception:  # a rating never stops a match from finishing
            log.exception("rating failed", extra={"match": match_id})
            return False
