"""``meldhall db cleanup --older-than DAYS``: the rows a site no longer needs.

Removed: matches abandoned more than DAYS ago (with their action logs; an abandoned match has
no record and proves nothing), lobby tables closed before they started or finished more than
DAYS ago (their results stay in ``online_results``), sessions created more than DAYS ago
that own no match and no result (a returning browser simply gets a new one), and the fencing
tokens (store/fences.py) of matches that ended more than DAYS ago or are gone. Kept: every
completed match (its log is its fairness proof), every record and online result, every match
in play.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, exists, select
from sqlalchemy.engine import Engine

from meldhall.store.fences import FenceRow
from meldhall.store.lobby import LobbyRow, OnlineResultRow
from meldhall.store.models import ActionRow, MatchRow, RecordRow, SessionRow, utcnow


def cleanup(engine: Engine, older_than_days: float) -> dict[str, int]:
    """Remove the rows described above, older than ``older_than_days``; return how many of
    each kind went."""
    if older_than_days < 0:
        raise ValueError(f"--older-than {older_than_days}: days must not be negative")
    cutoff = utcnow() - timedelta(days=older_than_days)
    old_abandoned = select(MatchRow.id).where(
        MatchRow.status == "abandoned", MatchRow.finished < cutoff
    )
    with engine.begin() as conn:
        actions = conn.execute(delete(ActionRow).where(ActionRow.match_id.in_(old_abandoned)))
        matches = conn.execute(
            delete(MatchRow).where(MatchRow.status == "abandoned", MatchRow.finished < cutoff)
        )
        lobby = conn.execute(
            delete(LobbyRow).where(
                LobbyRow.status.in_(("closed", "over")), LobbyRow.created < cutoff
            )
        )
        sessions = conn.execute(
            delete(SessionRow).where(
                SessionRow.created < cutoff,
                ~exists().where(MatchRow.owner == SessionRow.token),
                ~exists().where(RecordRow.session == SessionRow.token),
                ~exists().where(OnlineResultRow.session == SessionRow.token),
            )
        )
        in_play = select(MatchRow.id).where(
            (MatchRow.status == "playing") | (MatchRow.finished >= cutoff)
        )
        fences = conn.execute(delete(FenceRow).where(FenceRow.match_id.not_in(in_play)))
    return {
        "abandoned matches": matches.rowcount,
        "actions of those": actions.rowcount,
        "lobby tables": lobby.rowcount,
        "sessions": sessions.rowcount,
        "fencing tokens": fences.rowcount,
    }
