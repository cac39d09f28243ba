"""Quarantined matches, table snapshots, session expiry and stored reviews: the tables of a
server that broken data cannot hurt (docs/security.md) and of after-match reviews
(docs/replays.md).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_sessions_last_seen", ["last_seen"])
    op.create_table(
        "quarantine",
        sa.Column("match_id", sa.String(36), primary_key=True),
        sa.Column("action_index", sa.Integer(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "snapshots",
        sa.Column("match_id", sa.String(36), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("log_digest", sa.String(64), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
    )
    op.create_table(
        "reviews",
        sa.Column("match_id", sa.String(36), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    op.drop_table("snapshots")
    op.drop_table("quarantine")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_index("ix_sessions_last_seen")
        batch.drop_column("last_seen")
