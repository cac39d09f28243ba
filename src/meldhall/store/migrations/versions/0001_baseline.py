"""The schema before migrations existed: sessions, matches, actions, records, lobby tables and
online results.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("contributions", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("last_hand", sa.JSON(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_matches_owner"), "matches", ["owner"], unique=False)
    op.create_table(
        "sessions",
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pending_secret", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("token"),
    )
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("match_id", "index"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "records",
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("session", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("higher_is_better", sa.Boolean(), nullable=False),
        sa.Column("published", sa.Boolean(), nullable=False),
        sa.Column("display_name", sa.Text(), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index(op.f("ix_records_game"), "records", ["game"], unique=False)
    op.create_index(op.f("ix_records_session"), "records", ["session"], unique=False)
    op.create_table(
        "lobby_tables",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("host", sa.String(length=64), nullable=False),
        sa.Column("people", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.String(length=36), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "online_results",
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("session", sa.String(length=64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index(op.f("ix_online_results_session"), "online_results", ["session"], unique=False)


def downgrade() -> None:
    for table in ("online_results", "lobby_tables", "records", "actions", "sessions", "matches"):
        op.drop_table(table)
