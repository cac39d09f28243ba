"""Alembic's entry point for meldhall: runs on the connection ``store/schema.py`` gives it."""

from __future__ import annotations

from alembic import context

from meldhall.store.schema import all_metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=all_metadata(), render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
