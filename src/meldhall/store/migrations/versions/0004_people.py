"""People online: accounts and their sign-in sessions, ratings per game and their history,
table chat, chat reports, mutes and bans (docs/people.md).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("session", sa.String(64), nullable=False, unique=True),
        sa.Column("solo_token", sa.String(64), nullable=True),
        sa.Column("created", _WHEN, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", _WHEN, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("place_sum", sa.Integer(), nullable=False),
        sa.Column("updated", _WHEN, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", _WHEN, nullable=False),
    )
    op.create_index("ix_rating_history_account_game", "rating_history", ["account_id", "game"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("session", sa.String(64), nullable=False),
        sa.Column("author", sa.String(16), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("quick", sa.String(32), nullable=True),
        sa.Column("at", _WHEN, nullable=False),
    )
    op.create_index("ix_chat_messages_room", "chat_messages", ["room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("handled", sa.Boolean(), nullable=False),
        sa.Column("at", _WHEN, nullable=False),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("session", sa.String(64), primary_key=True),
        sa.Column("author", sa.String(16), primary_key=True),
        sa.Column("at", _WHEN, nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", _WHEN, nullable=False),
        sa.UniqueConstraint("kind", "value", name="uq_bans_kind_value"),
    )


def downgrade() -> None:
    op.drop_table("bans")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_message_id", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_room", "chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_rating_history_account_game", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("ix_account_sessions_account_id", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
