"""The tables of people online (migration 0004): accounts and their sign-in sessions, ratings
per game and their history, table chat with its reports, mutes and bans.

An account claims a guest session: the account's ``session`` is that guest token, which keeps
naming the person in matches, records and online results, so everything played as that guest
follows the account to any device it signs in on (docs/people.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from meldhall.store.models import utcnow


class PeopleBase(DeclarativeBase):
    """The declarative base of the people tables."""


class AccountRow(PeopleBase):
    """A claimed identity: a unique name, a password hash and the guest session it claimed."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    """The display name as typed (NFKC)."""
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    """The name's confusable skeleton (server/names.py): two names with one key are one."""
    password_hash: Mapped[str] = mapped_column(String(255))
    """argon2id hash (argon2-cffi); the password itself is never stored or logged."""
    session: Mapped[str] = mapped_column(String(64), unique=True)
    """The guest session token the account claimed: it names the person in matches."""
    solo_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The browser's solo session at the claim (its solo records follow the account too)."""
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountSessionRow(PeopleBase):
    """One signed-in browser: the sha256 of the secret in its account cookie."""

    __tablename__ = "account_sessions"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingRow(PeopleBase):
    """An account's rating in one game (openskill Plackett-Luce) and its match counts."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    place_sum: Mapped[int] = mapped_column(Integer, default=0)
    """The sum of the places among rated people (mean place = place_sum / matches)."""
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(PeopleBase):
    """An account's rating in a game after one rated match."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_account_game", "account_id", "game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(String(40))
    match_id: Mapped[str] = mapped_column(String(36))
    place: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessageRow(PeopleBase):
    """One chat message at a table (its room is the lobby table's id)."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room", "room", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room: Mapped[str] = mapped_column(String(64))
    session: Mapped[str] = mapped_column(String(64))
    author: Mapped[str] = mapped_column(String(16))
    """The author's public id (never the session token): what others mute."""
    name: Mapped[str] = mapped_column(Text)
    address: Mapped[str] = mapped_column(String(64), default="")
    text: Mapped[str] = mapped_column(Text)
    quick: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The key of a quick phrase (shown in each reader's language), or None."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatReportRow(PeopleBase):
    """A reported chat message, with the messages before it, for an operator."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(Integer, index=True)
    reporter: Mapped[str] = mapped_column(String(64))
    context: Mapped[list[Any]] = mapped_column(JSON)
    handled: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MuteRow(PeopleBase):
    """A person muted for one session (its chat no longer reaches that session)."""

    __tablename__ = "chat_mutes"

    session: Mapped[str] = mapped_column(String(64), primary_key=True)
    author: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BanRow(PeopleBase):
    """An operator's ban of a name (its confusable key) or an address."""

    __tablename__ = "bans"
    __table_args__ = (UniqueConstraint("kind", "value", name="uq_bans_kind_value"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``name`` or ``address``."""
    value: Mapped[str] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
