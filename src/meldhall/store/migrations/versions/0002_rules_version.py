"""matches.rules_version: the version of its game's rules a match was started under (a match
stored under other rules is shown read-only, never replayed under rules it was not played by).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rules_version")
