"""The server's periodic chores: deleting expired sessions."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from meldhall.server.limits import Limits
from meldhall.store.repository import Store

log = logging.getLogger(__name__)


def expire_sessions(store: Store, limits: Limits) -> int:
    """Delete the sessions ``limits`` call expired; return how many went."""
    gone = store.expire_sessions(
        timedelta(days=limits.session_days), timedelta(hours=limits.unused_session_hours)
    )
    if gone:
        log.info("deleted %d expired sessions", gone)
    return gone


async def expire_sessions_every(store: Store, limits: Limits) -> None:
    """Delete expired sessions now and every ``cleanup_seconds`` (runs until cancelled)."""
    while True:
        try:
            expire_sessions(store, limits)
        except Exception:  # a failed sweep is tried again later; the server goes on
            log.exception("could not delete expired sessions")
        await asyncio.sleep(limits.cleanup_seconds)
