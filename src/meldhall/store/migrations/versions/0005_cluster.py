"""The fencing tokens of a site of many server processes (store/fences.py): a process that
lost a table's lease can never write an action of its match.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_fences",
        sa.Column("match_id", sa.String(36), primary_key=True),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("owner", sa.String(120), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_fences")
