"""Table chat: messages by room (a lobby table's id), reports with their context, mutes
(one person's, for themselves) and an operator's bans of names and addresses.

The store keeps text as given; limits and checks are the server's (server/chat.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import sessionmaker

from meldhall.store.people import BanRow, ChatMessageRow, ChatReportRow, MuteRow
from meldhall.store.repository import Store

CONTEXT = 10
"""Messages before a reported one kept with the report."""
BAN_KINDS = ("name", "address")


@dataclass(frozen=True)
class ChatMessage:
    """One stored chat message."""

    id: int
    room: str
    session: str
    author: str
    name: str
    text: str
    quick: str | None
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """Return the message as readers get it (never the session or the address)."""
        return {
            "id": self.id,
            "room": self.room,
            "author": self.author,
            "name": self.name,
            "text": self.text,
            "quick": self.quick,
            "at": self.at.isoformat(),
        }


def _message(row: ChatMessageRow) -> ChatMessage:
    return ChatMessage(
        row.id, row.room, row.session, row.author, row.name, row.text, row.quick, row.at
    )


class ChatStore:
    """Reads and writes of the chat tables, on the engine of a ``Store``."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def add(
        self,
        room: str,
        session: str,
        author: str,
        name: str,
        address: str,
        text: str,
        quick: str | None,
    ) -> ChatMessage:
        """Store a message and return it."""
        row = ChatMessageRow(
            room=room,
            session=session,
            author=author,
            name=name,
            address=address,
            text=text,
            quick=quick,
        )
        with self._sessions() as db, db.begin():
            db.add(row)
        return _message(row)

    def recent(self, room: str, limit: int = 50) -> list[ChatMessage]:
        """Return a room's latest ``limit`` messages, oldest first."""
        with self._sessions() as db:
            rows = db.scalars(
                select(ChatMessageRow)
                .where(ChatMessageRow.room == room)
                .order_by(ChatMessageRow.id.desc())
                .limit(limit)
            ).all()
        return [_message(r) for r in reversed(rows)]

    def get(self, message_id: int) -> ChatMessage | None:
        """Return a message by id, or None."""
        with self._sessions() as db:
            row = db.get(ChatMessageRow, message_id)
            return _message(row) if row else None

    def report(self, message: ChatMessage, reporter: str) -> int:
        """Store a report of a message with the ``CONTEXT`` messages before it in its room
        (names, texts, addresses: for the operator); return the report's id."""
        with self._sessions() as db, db.begin():
            rows = db.scalars(
                select(ChatMessageRow)
                .where(ChatMessageRow.room == message.room, ChatMessageRow.id <= message.id)
                .order_by(ChatMessageRow.id.desc())
                .limit(CONTEXT + 1)
            ).all()
            context = [
                {
                    "id": r.id,
                    "name": r.name,
                    "author": r.author,
                    "address": r.address,
                    "text": r.text,
                    "quick": r.quick,
                    "at": r.at.isoformat(),
                }
                for r in reversed(rows)
            ]
            report = ChatReportRow(message_id=message.id, reporter=reporter, context=context)
            db.add(report)
            db.flush()
            return int(report.id)

    def reports(self, include_handled: bool = False) -> list[dict[str, Any]]:
        """Return the reports, oldest first (by default only those not handled)."""
        query = select(ChatReportRow).order_by(ChatReportRow.id)
        if not include_handled:
            query = query.where(ChatReportRow.handled.is_(False))
        with self._sessions() as db:
            return [
                {
                    "id": r.id,
                    "message": r.message_id,
                    "context": r.context,
                    "handled": r.handled,
                    "at": r.at.isoformat(),
                }
                for r in db.scalars(query).all()
            ]

    def handle(self, report_id: int) -> bool:
        """Mark a report handled; return whether it exists."""
        with self._sessions() as db, db.begin():
            row = db.get(ChatReportRow, report_id)
            if row is None:
                return False
            row.handled = True
            return True

    def mute(self, session: str, author: str, on: bool) -> None:
        """Mute (or unmute) an author's messages for one session."""
        with self._sessions() as db, db.begin():
            row = db.get(MuteRow, (session, author))
            if on and row is None:
                db.add(MuteRow(session=session, author=author))
            elif not on and row is not None:
                db.delete(row)

    def muted_by(self, session: str) -> set[str]:
        """Return the authors a session has muted."""
        with self._sessions() as db:
            return set(db.scalars(select(MuteRow.author).where(MuteRow.session == session)))

    def ban(self, kind: str, value: str, reason: str = "") -> bool:
        """Ban a name key or an address; return whether it was not banned before."""
        if kind not in BAN_KINDS:
            raise ValueError(f"a ban is of a name or an address, not {kind!r}")
        with self._sessions() as db, db.begin():
            exists = db.scalars(
                select(BanRow).where(BanRow.kind == kind, BanRow.value == value)
            ).first()
            if exists is not None:
                return False
            db.add(BanRow(kind=kind, value=value, reason=reason))
            return True

    def unban(self, kind: str, value: str) -> bool:
        """Lift a ban; return whether there was one."""
        with self._sessions() as db, db.begin():
            gone = db.execute(delete(BanRow).where(BanRow.kind == kind, BanRow.value == value))
            return bool(getattr(gone, "rowcount", 0))

    def banned(self, kind: str, value: str) -> bool:
        """Return whether a name key or an address is banned."""
        if not value:
            return False
        with self._sessions() as db:
            row = db.scalars(
                select(BanRow.id).where(BanRow.kind == kind, BanRow.value == value)
            ).first()
            return row is not None

    def bans(self) -> list[dict[str, Any]]:
        """Return every ban, oldest first."""
        with self._sessions() as db:
            return [
                {"kind": r.kind, "value": r.value, "reason": r.reason, "at": r.at.isoformat()}
                for r in db.scalars(select(BanRow).order_by(BanRow.id)).all()
            ]
